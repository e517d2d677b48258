package paths

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

func TestDefaultListsCarryThePeerLists(t *testing.T) {
	got := map[string]int{"aar-safety": len(aarSafetyDenied), "aar-policy": len(aarPolicyDenied), "ai-chat": len(aiChatBlocked), "zeroclaw": len(zeroClawHomeForbidden)}
	want := map[string]int{"aar-safety": 25, "aar-policy": 8, "ai-chat": 3, "zeroclaw": 3}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("peer list sizes (-want +got):\n%s", diff)
	}
	denied := map[string]bool{}
	for _, p := range DefaultDenied() {
		if denied[p] {
			t.Errorf("DefaultDenied lists %q twice", p)
		}
		denied[p] = true
	}
	for _, list := range [][]string{aarSafetyDenied, aarPolicyDenied, aiChatBlocked, zeroClawHomeForbidden} {
		for _, p := range list {
			if !denied[p] {
				t.Errorf("DefaultDenied lacks the peer pattern %q", p)
			}
		}
	}
}

func TestDefaultListsAreFreshCopies(t *testing.T) {
	a := DefaultDenied()
	a[0] = "changed"
	if DefaultDenied()[0] == "changed" {
		t.Error("DefaultDenied returns shared storage")
	}
}

// TestDefaultConfigVerdicts pins what the default lists do to well-known
// paths, for a workspace at /home/alice/project (which need not exist).
func TestDefaultConfigVerdicts(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Home = "/home/alice"
	strict, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.WorkspaceOnly = false
	loose, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Cwd: "/home/alice/project"}
	tests := []struct {
		checker *Checker
		access  Access
		want    risk.Verdict
		paths   []string
	}{
		{strict, Read, risk.Deny, []string{
			"/etc/shadow", "/etc/passwd", "/etc/sudoers", "/etc/sudoers.d/90-cloud", "/etc/gshadow",
			"/etc/ssh/ssh_host_ed25519_key", "/home/user/.env", "/app/.env.local", "/var/credentials.json",
			"/keys/server.pem", "x.key", "cert.p12", "~/.ssh/id_rsa", "~/.ssh", "~/.ssh/id_ed25519",
			"deploy/id_ed25519", "~/.gnupg/secring.gpg", "~/.aws/credentials", "~/.azure/accessTokens.json",
			"~/.config/gcloud/application_default_credentials.json", "~/.netrc", ".npmrc", "~/.pypirc",
			"~/.docker/config.json", "~/.kube/config", "~/.git-credentials", "~/.config/gh/hosts.yml",
			"~/.config/rclone/rclone.conf", "~/.rclone.conf",
			"/var/run/docker.sock", "/run/secrets/db_password", "config/secrets.yml", "secrets",
			"/proc/self/environ", "/proc/1/cmdline", "/sys/class/net", "/dev/sda", "/proc/self/status",
		}},
		{strict, Read, risk.Ask, []string{"~/.config/app/config.toml", "~/.bash_history", ".git/config", "~/.config/rclone/filters.txt"}},
		{strict, Read, risk.Allow, []string{
			"src/main.go", "README.md", "/usr/include/stdio.h", "/etc/os-release", "/etc/hosts", "~/.bashrc",
			"/tmp/build.log", "../sibling/go.mod", ".gitignore", ".env-example.md", "my..file.txt",
			"/dev/null", "/dev/urandom", "/proc/cpuinfo", ".git/hooks/pre-commit", "~/.claude/settings.json",
			// not secrets by what they are, though the denied names catch them
			"/root/.ssh/authorized_keys", "~/.ssh/id_ed25519.pub", "~/.ssh/known_hosts", "~/.ssh/config",
			".env.example", "app/.env.sample", "credentials.example.json", "internal/auth/credentials.go",
			"pkg/secrets/secrets_test.go", "docs/secrets.md", "config/database.yml.dist",
		}},
		{strict, Write, risk.Deny, []string{"~/.ssh/id_ed25519.pub", "~/.ssh/authorized_keys", ".env", "x/.env.local"}},
		{strict, Write, risk.Allow, []string{".env.example", "internal/auth/credentials.go", "docs/secrets.md"}},
		{strict, Write, risk.Deny, []string{
			"/tmp/x", "/etc/hosts", "../sibling/go.mod", "~/.bashrc", "/usr/local/bin/tool",
			"~/.claude/settings.json", ".claude/settings.json", "~/.config/toolguard/policy.toml",
			".codex/config.toml", ".cursor/hooks.json", ".gemini/settings.json", "/dev/sda",
		}},
		{strict, Write, risk.Ask, []string{".git/config", ".git/hooks/pre-push", ".envrc"}},
		{strict, Write, risk.Allow, []string{"src/main.go", "build/out.bin", "/dev/null", "docs/../README.md"}},
		{loose, Write, risk.Ask, []string{"~/.bashrc", "~/.zshrc", "~/.profile", "~/.gitconfig", "~/.local/bin/tool", "~/.config/app.toml"}},
		{loose, Write, risk.Allow, []string{"/tmp/x", "../sibling/go.mod"}},
	}
	for _, tt := range tests {
		for _, p := range tt.paths {
			if got := worst(tt.checker.Check(p, tt.access, env)); got != tt.want {
				t.Errorf("%v %q = %v, want %v: %+v", tt.access, p, got, tt.want, tt.checker.Check(p, tt.access, env))
			}
		}
	}
}

// worst is the most restrictive verdict among findings (Allow when none).
func worst(fs []risk.Finding) risk.Verdict {
	v := risk.Allow
	for _, f := range fs {
		v = v.Worse(f.Verdict)
	}
	return v
}

// concatWithMap is concat as it was written first: the reference.
func concatWithMap(lists ...[]string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, l := range lists {
		for _, p := range l {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

func TestConcat(t *testing.T) {
	many := make([]string, 0, 400)
	for i := range 200 {
		// alike in length and in the bytes sampleHash reads
		many = append(many, "**/"+string(rune('a'+i%26))+string(rune('a'+i/26))+"x/.env")
	}
	for _, c := range []struct {
		name  string
		lists [][]string
		want  []string
	}{
		{"none", nil, []string{}},
		{"empty lists", [][]string{{}, {}}, []string{}},
		{"one", [][]string{{"a", "b"}}, []string{"a", "b"}},
		{"repeat inside", [][]string{{"a", "b", "a", ""}, {"", "c"}}, []string{"a", "b", "", "c"}},
		{"repeat across", [][]string{{"**/.env", "~/.ssh/**"}, {"~/.ssh/**", "**/.env", "**/.netrc"}}, []string{"**/.env", "~/.ssh/**", "**/.netrc"}},
		{"alike", [][]string{many, many[100:], many[:7]}, many},
	} {
		got := concat(c.lists...)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
	for _, lists := range [][][]string{
		{aarSafetyDenied, aarPolicyDenied, aiChatBlocked, zeroClawHomeForbidden, extraDenied},
		{templateFiles, sourceFiles}, {aiChatSensitiveWrite, sensitiveWrite}, {protectedSelf, protectedHooks},
		{escapeHatches}, {publicKeyFiles}, {sensitiveAny},
	} {
		if diff := cmp.Diff(concatWithMap(lists...), concat(lists...)); diff != "" {
			t.Errorf("concat of the default lists (-map +concat):\n%s", diff)
		}
	}
}

func FuzzConcat(f *testing.F) {
	f.Add("a\nb\na", "b\nc")
	f.Add("", "\n\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
		if diff := cmp.Diff(concatWithMap(la, lb, la), concat(la, lb, la)); diff != "" {
			t.Errorf("(-map +concat):\n%s", diff)
		}
	})
}
