package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// hiddenDestinationCommands read the addresses they contact from a file
// at run time (toolguard's approval server among the possibilities): each
// is unverifiable. Before, trusted and full mode allowed every one.
var hiddenDestinationCommands = []string{
	"curl -K cfg.txt",
	"curl --config cfg.txt",
	"curl --config=cfg.txt",
	"curl -Kcfg.txt",
	"curl -sSK cfg.txt https://example.com",
	"curl -K - < cfg.txt",
	"cat cfg.txt | curl -K -",
	"curl --url @urls.txt",
	"wget -i urls.txt",
	"wget --input-file=urls.txt",
	"wget --input-f urls.txt",
	"wget -qi urls.txt",
	"wget --config=x.rc https://example.com",
	"wget -e input=urls.txt",
	"aria2c -i list.txt",
	"aria2c --input-file=list.txt",
	"aria2c -M x.metalink",
	"aria2c -T x.torrent",
	"aria2c --conf-path=a.conf https://example.com",
	"xargs curl < urls.txt",
	"cat urls.txt | xargs -n1 curl -s",
	"xargs -a urls.txt wget -q",
	"parallel curl < urls.txt",
	"parallel wget :::: urls.txt",
	"curl -K - <<< \"$CONFIG\"",
	"aria2c -i - <<< $'http://example.com/a\\n  all-proxy=http://127.0.0.1:7878'",
	"curl -K - <<< 'config = more.txt'",
}

func TestHiddenDestinations(t *testing.T) {
	for _, mode := range []string{policy.ModeSupervised, policy.ModeTrusted, policy.ModeFull} {
		p := mustCompile(t, &policy.Settings{Mode: mode})
		for _, cmd := range hiddenDestinationCommands {
			c := worstCall(t, p, cmd)
			d := p.Decide(context.Background(), c)
			if d.Verdict != risk.Ask || !d.Unverifiable || d.Rule != "shell.unverifiable" || !strings.Contains(d.Reason, "not known") {
				t.Errorf("%s: %q → %s %s (unverifiable %v): %s", mode, cmd, d.Verdict, d.Rule, d.Unverifiable, d.Reason)
			}
		}
	}
}

// TestHiddenDestinationsModes checks that the modes treat a destination
// read from a file exactly as they treat eval "$X": readonly denies the
// execute tier, unattended turns the ask into a deny.
func TestHiddenDestinationsModes(t *testing.T) {
	for _, s := range []policy.Settings{
		{Mode: policy.ModeSupervised}, {Mode: policy.ModeTrusted}, {Mode: policy.ModeFull},
		{Mode: policy.ModeStrict}, {Mode: policy.ModeReadonly}, {Mode: policy.ModeFull, Unattended: true},
	} {
		p := mustCompile(t, &s)
		want := decide(t, p, "Bash", bash(`eval "$X"`))
		for _, cmd := range []string{"curl -K cfg.txt", "wget -i urls.txt", "xargs curl < urls.txt"} {
			if got := decide(t, p, "Bash", bash(cmd)); got.Verdict != want.Verdict {
				t.Errorf("mode %s (unattended %v): %q → %s, want %s as for eval \"$X\"", s.Mode, s.Unattended, cmd, got.Verdict, want.Verdict)
			}
		}
	}
}

// TestDestinationsFromKnownInput checks that a config or list read from a
// here-string, here-document or echo is judged as if it were on the
// command line: toolguard's approval server is denied, anything else is
// decided as the same request spelled out.
func TestDestinationsFromKnownInput(t *testing.T) {
	p := mustCompile(t, &policy.Settings{Mode: policy.ModeFull})
	tests := []struct {
		cmd, sameAs string // sameAs "": denied as self-approval
	}{
		{`curl -K - <<< "url = http://127.0.0.1:7878/v1/approvals/x"`, ""},
		{"curl -sK - <<'EOF'\n# a config\nurl = \"http://localhost:7878/v1/approvals\"\nrequest = POST\nEOF", ""},
		{`echo 'url=http://127.1:7878/v1/approvals' | curl -K -`, ""},
		{`curl --url @- <<< "http://127.0.0.1:7878/v1/approvals"`, ""},
		{`wget -i - <<< "http://127.0.0.1:7878/v1/approvals"`, ""},
		{`wget -e http_proxy=127.0.0.1:7878 http://example.com/v1/approvals`, ""},
		{`aria2c -i - <<< "http://127.0.0.1:7878/v1/approvals"`, ""},
		{"curl -K - <<'EOF'\nurl = \"https://example.com/a\"\nsilent\nEOF", "curl --url https://example.com/a --silent"},
		{`curl -K - <<< 'output = "/home/ada/.bashrc"'`, "curl --output /home/ada/.bashrc"},
		{`wget -i - <<< "https://example.com/a.tgz"`, "wget https://example.com/a.tgz"},
		{`aria2c -i - <<< $'https://example.com/a\thttps://mirror.example.org/a'`, "aria2c https://example.com/a https://mirror.example.org/a"},
	}
	for _, tc := range tests {
		got := decide(t, p, "Bash", bash(tc.cmd))
		want := outcome{"deny", "self.approve"}
		if tc.sameAs != "" {
			want = decide(t, p, "Bash", bash(tc.sameAs))
		}
		if got != want {
			t.Errorf("%q → %v, want %v", tc.cmd, got, want)
		}
		d := p.Decide(context.Background(), worstCall(t, p, tc.cmd))
		if tc.sameAs != "" && d.Unverifiable {
			t.Errorf("%q is unverifiable: %s", tc.cmd, d.Reason)
		}
	}
}

// TestKnownDestinationsUnchanged checks commands whose destinations are on
// the command line, or whose input words are known, are decided as before.
func TestKnownDestinationsUnchanged(t *testing.T) {
	p := mustCompile(t, &policy.Settings{Mode: policy.ModeTrusted})
	for _, cmd := range []string{
		"curl -fsSL https://example.com/a.json",
		"curl -o K https://example.com",
		"wget -O- https://example.com",
		"echo https://example.com | xargs curl -s",
		"find . -name '*.log' | xargs rm",
		"parallel curl -s ::: https://example.com",
	} {
		d := p.Decide(context.Background(), worstCall(t, p, cmd))
		if d.Verdict != risk.Allow || d.Unverifiable {
			t.Errorf("%q → %s %s (unverifiable %v): %s", cmd, d.Verdict, d.Rule, d.Unverifiable, d.Reason)
		}
	}
}
