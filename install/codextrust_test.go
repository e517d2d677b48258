package install

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSetTrustedHash(t *testing.T) {
	const key = "/h/.codex/hooks.json:pre_tool_use:0:0"
	tests := []struct{ name, in, want string }{
		{"empty file", "", "\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:new\"\n"},
		{"no newline at end", "model = \"x\"", "model = \"x\"\n\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:new\"\n"},
		{"stale hash replaced, rest kept",
			"# mine\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:old\"\nenabled = true\n\n[other]\nx = 1\n",
			"# mine\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:new\"\nenabled = true\n\n[other]\nx = 1\n"},
		{"table without a hash",
			"[hooks.state.\"" + key + "\"]\nenabled = true\n[other]\n",
			"[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:new\"\nenabled = true\n[other]\n"},
		{"another key untouched",
			"[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:keep\"\n",
			"[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:keep\"\n\n[hooks.state.\"" + key + "\"]\ntrusted_hash = \"sha256:new\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, setTrustedHash(tt.in, key, "sha256:new")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestRemoveTrustedHash: removing what TrustCodexHooks recorded gives the
// file back as it was, for both of toolguard's entries; a table holding
// more than toolguard's hash, another hash, or another key is kept.
func TestRemoveTrustedHash(t *testing.T) {
	const a, b = "/h/.codex/hooks.json:pre_tool_use:0:0", "/h/.codex/hooks.json:permission_request:0:0"
	for _, before := range []string{"", "model = \"x\"\n", "# mine\n[other]\nx = 1\n"} {
		trusted := setTrustedHash(setTrustedHash(before, a, "sha256:a"), b, "sha256:b")
		if got := removeTrustedHash(removeTrustedHash(trusted, a, "sha256:a"), b, "sha256:b"); got != before {
			t.Errorf("trust, then untrust of %q:\n%q\ngives %q", before, trusted, got)
		}
	}
	tests := []struct{ name, in, want string }{
		{"other settings in the table stay",
			"[hooks.state.\"" + a + "\"]\ntrusted_hash = \"sha256:a\"\nenabled = true\n[other]\n",
			"[hooks.state.\"" + a + "\"]\nenabled = true\n[other]\n"},
		{"another hash (the entry changed) stays",
			"[hooks.state.\"" + a + "\"]\ntrusted_hash = \"sha256:mine\"\n",
			"[hooks.state.\"" + a + "\"]\ntrusted_hash = \"sha256:mine\"\n"},
		{"another key stays",
			"[hooks.state.\"" + b + "\"]\ntrusted_hash = \"sha256:a\"\n",
			"[hooks.state.\"" + b + "\"]\ntrusted_hash = \"sha256:a\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, removeTrustedHash(tt.in, a, "sha256:a")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadHooksList(t *testing.T) {
	out := strings.Join([]string{
		`{"id":1,"result":{"codexHome":"/h/.codex"}}`,
		`{"method":"configWarning","params":{"summary":"no bubblewrap"}}`,
		`{"id":2,"result":{"data":[{"cwd":"/p","hooks":[` +
			`{"key":"/h/.codex/hooks.json:pre_tool_use:0:0","command":"/bin/toolguard hook codex","enabled":true,"currentHash":"sha256:a","trustStatus":"untrusted"},` +
			`{"key":"/h/.codex/hooks.json:stop:0:0","command":"notify-send done","enabled":true,"currentHash":"sha256:b","trustStatus":"trusted"}]}]}}`,
	}, "\n")
	got, err := readHooksList(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []CodexHook{
		{Key: "/h/.codex/hooks.json:pre_tool_use:0:0", Command: "/bin/toolguard hook codex", CurrentHash: "sha256:a", TrustStatus: "untrusted", Enabled: true},
		{Key: "/h/.codex/hooks.json:stop:0:0", Command: "notify-send done", CurrentHash: "sha256:b", TrustStatus: "trusted", Enabled: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got[0].Runs() || !got[1].Runs() {
		t.Errorf("Runs: untrusted entry runs=%v, trusted entry runs=%v", got[0].Runs(), got[1].Runs())
	}
	if _, err := readHooksList(strings.NewReader(`{"id":2,"error":{"message":"unknown method"}}`)); err == nil || err.Error() != "unknown method" {
		t.Errorf("error reply: %v", err)
	}
}

// TestCodexTrustWithTheRealClient installs the hook for a throwaway
// CODEX_HOME, checks that the real codex reports it untrusted, trusts it
// and checks that codex then reports it trusted. It needs the codex
// program (npm @openai/codex; .ci/run installs it).
func TestCodexTrustWithTheRealClient(t *testing.T) {
	if _, err := exec.LookPath("codex"); err != nil {
		t.Skip("codex is not on PATH (npm install -g @openai/codex, or .ci/run)")
	}
	home := t.TempDir()
	codexHome := filepath.Join(home, ".codex")
	t.Setenv("CODEX_HOME", codexHome)
	opts := Options{Home: home, Program: "/usr/local/bin/toolguard"}
	c, err := Plan("codex", User, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(c); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	hooks, err := CodexHooks(ctx, codexHome, home)
	if errors.Is(err, ErrNoCodex) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 2 {
		t.Fatalf("codex lists %d toolguard hooks, want 2 (PreToolUse, PermissionRequest): %+v", len(hooks), hooks)
	}
	for _, h := range hooks {
		if h.Runs() {
			t.Errorf("%s: a fresh install is trusted (%s); Codex should ask a person first", h.Key, h.TrustStatus)
		}
	}
	cfg := CodexConfigFile(home, codexHome)
	if err := TrustCodexHooks(cfg, hooks); err != nil {
		t.Fatal(err)
	}
	after, err := CodexHooks(ctx, codexHome, home)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range after {
		if !h.Runs() {
			t.Errorf("%s after trusting: %s, enabled=%v", h.Key, h.TrustStatus, h.Enabled)
		}
	}
	if b, _ := os.ReadFile(cfg); !strings.Contains(string(b), "trusted_hash") {
		t.Errorf("config.toml holds no trusted_hash:\n%s", b)
	}
	// Uninstall: the entries go, and so do their trust records (config.toml
	// did not exist before, so it goes too; what codex app-server itself
	// wrote into CODEX_HOME stays).
	if _, err := Uninstall("codex", User, opts); err != nil {
		t.Fatal(err)
	}
	if err := UntrustCodexHooks(cfg, home, after); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(cfg); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("uninstall and untrust left %s (%v):\n%s", cfg, err, b)
	}
}
