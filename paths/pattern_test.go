package paths

import (
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

// risk3 is an out-of-range verdict.
const risk3 = risk.Verdict(3)

func TestPatternMatches(t *testing.T) {
	homes := []string{"/h"}
	tests := []struct {
		pattern string
		kind    matchKind
		yes, no []string
	}{
		{"/etc/shadow", kindExact, []string{"/etc/shadow"}, []string{"/etc/shadow2", "/etc", "/x/etc/shadow"}},
		{"/etc/sudoers.d/**", kindTree, []string{"/etc/sudoers.d", "/etc/sudoers.d/x", "/etc/sudoers.d/a/b"}, []string{"/etc/sudoers.dx", "/etc/sudoers"}},
		{"~/.ssh/**", kindTree, []string{"/h/.ssh", "/h/.ssh/id_rsa"}, []string{"/h/.sshx", "/x/h/.ssh"}},
		{"$HOME/.aws/**", kindTree, []string{"/h/.aws/credentials"}, []string{"/h/aws"}},
		{"**/.env", kindSuffix, []string{"/.env", "/w/.env", "/a/b/.env"}, []string{"/w/.env.local", "/w/x.env", "/w/.env/x"}},
		{".env", kindSuffix, []string{"/w/.env"}, []string{"/w/a.env"}},
		{".aws/credentials", kindSuffix, []string{"/h/.aws/credentials", "/w/x/.aws/credentials"}, []string{"/h/x.aws/credentials", "/h/.aws/credentials.bak"}},
		{"./secrets.json", kindSuffix, []string{"/w/secrets.json"}, []string{"/w/mysecrets.json"}},
		{"**/.ssh/**", kindDirAnywhere, []string{"/h/.ssh", "/h/.ssh/id_rsa", "/r/.ssh/a/b"}, []string{"/h/.sshd/x", "/h/x.ssh/y"}},
		{"**/.config/gcloud/**", kindDirAnywhere, []string{"/h/.config/gcloud/creds.json", "/w/.config/gcloud"}, []string{"/h/.config/gcloudx/a"}},
		{"**/*.pem", kindBaseSuffix, []string{"/k/server.pem", "/.pem"}, []string{"/k/server.pem.bak", "/k/pem"}},
		{"**/credentials*", kindBasePrefix, []string{"/v/credentials.json", "/v/credentials"}, []string{"/v/my-credentials", "/credentials/x"}},
		{"**/.env.*", kindBasePrefix, []string{"/app/.env.local"}, []string{"/app/.env"}},
		{"**/id_?sa", kindBaseGlob, []string{"/h/id_rsa", "/h/id_dsa"}, []string{"/h/id_ecdsa"}},
		{"**/*.{p12,pfx}", kindBaseGlob, []string{"/a/b.p12", "/a/b.pfx"}, []string{"/a/b.p13"}},
		{"/etc/ssh/ssh_host_*_key", kindGlob, []string{"/etc/ssh/ssh_host_rsa_key"}, []string{"/etc/ssh/ssh_host_rsa_key.pub", "/etc/ssh/x/ssh_host_a_key"}},
		{"/home/*/.cache/**", kindGlob, []string{"/home/u/.cache", "/home/u/.cache/x/y"}, []string{"/home/u/v/.cache/x"}},
		{"src/**/*.go", kindGlob, []string{"/w/src/main.go", "/w/src/a/b.go", "/x/w/src/c.go"}, []string{"/w/src/main.rs", "/w/srcx/a.go"}},
		{"**/build/*/out", kindGlob, []string{"/w/build/x/out"}, []string{"/w/build/out"}},
	}
	for _, tt := range tests {
		ps, err := compilePattern(tt.pattern, homes)
		if err != nil || len(ps) != 1 {
			t.Errorf("compilePattern(%q) = %d patterns, %v", tt.pattern, len(ps), err)
			continue
		}
		if ps[0].kind != tt.kind {
			t.Errorf("compilePattern(%q) kind = %d, want %d", tt.pattern, ps[0].kind, tt.kind)
		}
		for _, p := range tt.yes {
			if !ps[0].matches(p) {
				t.Errorf("%q should match %q", tt.pattern, p)
			}
		}
		for _, p := range tt.no {
			if ps[0].matches(p) {
				t.Errorf("%q should not match %q", tt.pattern, p)
			}
		}
	}
}

// TestPatternFastPathsAgreeWithDoublestar checks every literal fast path
// against the full glob engine on the same subjects.
func TestPatternFastPathsAgreeWithDoublestar(t *testing.T) {
	subjects := []string{"/", "/.env", "/w/.env", "/w/.env.x", "/h/.ssh", "/h/.ssh/id", "/h/.sshx", "/k/a.pem", "/k/pem",
		"/v/credentials", "/v/credentials.json", "/etc/sudoers.d", "/etc/sudoers.d/a", "/etc/shadow", "/h/.aws/credentials",
		"/h/id_rsa", "/x/id_ecdsa", "/a/b.p12", "/w/src/main.go", "/w/src/a/b.go", "/w/.git", "/w/.git/config", "/w/.git/hooks/pre-commit",
		"/h/.config/x", "/h/.bashrc", "/h/.ssh/k/deeper", "/k/a.pem/x", "/v/credentials/inner/y", "/w/src/a/b.go/c", "/h/.claude/settings.json", "/w/.claude/settings.json", "/w/.codex/config.toml"}
	extra := []string{"**/id_?sa", "**/*.{p12,pfx}", "src/**/*.go", ".aws/credentials", "<workspace>/**", "<workspace>/.git/**"}
	all := append(append(append(DefaultDenied(), DefaultSensitive()...), DefaultSensitiveWrite()...), DefaultProtected()...)
	for _, src := range append(all, extra...) {
		ps, err := compilePattern(src, []string{"/h"})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			slow := p
			slow.kind = kindGlob
			for _, s := range subjects {
				if got, want := p.matches(s), slow.matches(s); got != want {
					t.Errorf("pattern %q on %q: fast path %v, doublestar %v", src, s, got, want)
				}
				if got, want := p.matchesTree(s), slow.matchesTree(s); got != want {
					t.Errorf("pattern %q covering %q: fast path %v, doublestar %v", src, s, got, want)
				}
			}
		}
	}
}

func TestPatternMatchesTree(t *testing.T) {
	tests := []struct {
		pattern string
		yes, no []string
	}{
		{"/etc/shadow", []string{"/etc/shadow", "/etc/shadow/x"}, []string{"/etc/shadowx", "/etc"}},
		{"~/.my_secret", []string{"/h/.my_secret", "/h/.my_secret/key"}, []string{"/w/.my_secret/key", "/h/.my_secretx"}},
		{".env", []string{"/w/.env", "/w/.env/inner"}, []string{"/w/.envx/a"}},
		{"**/*.pem", []string{"/k/a.pem", "/k/a.pem/inner"}, []string{"/k/a.pemx/inner"}},
		{"**/secrets*", []string{"/w/secrets-manager/main.go", "/w/secrets"}, []string{"/w/mysecrets/x"}},
		{"**/id_?sa", []string{"/h/id_rsa/x"}, []string{"/h/id_ecdsa/x"}},
		{"/etc/ssh/ssh_host_*_key", []string{"/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_rsa_key/x"}, []string{"/etc/ssh/other"}},
		{"src/*/gen", []string{"/w/src/a/gen", "/w/src/a/gen/x.go"}, []string{"/w/src/gen/x"}},
	}
	for _, tt := range tests {
		ps, err := compilePattern(tt.pattern, []string{"/h"})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range tt.yes {
			if !ps[0].matchesTree(p) {
				t.Errorf("%q should cover %q", tt.pattern, p)
			}
		}
		for _, p := range tt.no {
			if ps[0].matchesTree(p) {
				t.Errorf("%q should not cover %q", tt.pattern, p)
			}
		}
	}
}

func TestPatternHomeEscaping(t *testing.T) {
	ps, err := compilePattern("~/.ssh/**", []string{"/home/a[1]", "/real/a"})
	if err != nil {
		t.Fatal(err)
	}
	got := []bool{ps[0].matches("/home/a[1]/.ssh/k"), ps[0].matches("/home/a1/.ssh/k"), ps[1].matches("/real/a/.ssh/k")}
	if diff := cmp.Diff([]bool{true, false, true}, got); diff != "" {
		t.Errorf("home with glob metacharacters (-want +got):\n%s", diff)
	}
}

func TestCompileReportsEveryError(t *testing.T) {
	_, err := Compile(Config{
		Home:           "/h",
		Denied:         []string{"/ok/**", "/bad/[", ""},
		Sensitive:      []string{"~bob/x"},
		SensitiveWrite: []string{"**"},
		Rules:          []Rule{{Pattern: "/a/{b", Read: risk3}},
		Roots:          []string{"/"},
		ReadOnlyRoots:  []string{"a\x00b"},
		WriteOutside:   risk3,
	})
	if err == nil {
		t.Fatal("Compile accepted a broken config")
	}
	want := []string{
		`paths config: Denied[1] "/bad/[": pattern "/bad/[" is not a valid glob (check brackets, braces and escapes)`,
		`Denied[2] "": empty pattern`,
		`Sensitive[0] "~bob/x": pattern "~bob/x" uses the ~user form; only ~/ is expanded`,
		`SensitiveWrite[0] "**": pattern "**" matches every path; name the files to match`,
		`Rules[0].Read is invalid(3) (valid: allow, ask, deny)`,
		`Rules[0] "/a/{b": pattern "/a/{b" is not a valid glob (check brackets, braces and escapes)`,
		`WriteOutside is invalid(3) (valid: allow, ask, deny)`,
		`Roots[0] "/": a root must be a directory, not everything`,
		`ReadOnlyRoots[0] "a\x00b": invalid path "a\x00b": contains a NUL byte`,
	}
	if diff := cmp.Diff(want, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("Compile errors (-want +got):\n%s", diff)
	}
}

func TestCompileHome(t *testing.T) {
	_, err := Compile(Config{Home: "relative/home"})
	if err == nil || err.Error() != `paths config: Home "relative/home" is not an absolute path` {
		t.Errorf("Compile with a relative Home = %v", err)
	}
	c, err := Compile(Config{Home: "/h//x/"})
	if err != nil || c.Home() != "/h/x" {
		t.Errorf("Compile cleaned Home = %v, %v", c, err)
	}
}

// anyDepth must equal "**/"+glob whatever src is; it only saves the copy.
func TestAnyDepth(t *testing.T) {
	for _, c := range []struct{ src, glob string }{
		{"**/.env", ".env"},
		{".env", ".env"},
		{"./**/id_rsa", "id_rsa"},
		{"**/.ssh/", ".ssh"},
		{"x**/.env", ".env"},
		{"*/.env", ".env"},
		{"", "a"},
		{"**/a/**", "a/**"},
	} {
		if got, want := anyDepth(c.src, c.glob), "**/"+c.glob; got != want {
			t.Errorf("anyDepth(%q, %q) = %q, want %q", c.src, c.glob, got, want)
		}
	}
}

// classify validates the glob without its "**/" prefix; the prefix must
// not change which globs are valid.
func TestAnyDepthPrefixKeepsValidity(t *testing.T) {
	for _, g := range []string{"a", "[", "[]", "[a]", "{a,b}", "{a", "a}", `\`, `a\`, `\*`, "[!a]", "[^]", "**", "a/**", "{[}]"} {
		if a, b := doublestar.ValidatePattern(g), doublestar.ValidatePattern("**/"+g); a != b {
			t.Errorf("%q valid %v, **/%s valid %v", g, a, g, b)
		}
	}
}
