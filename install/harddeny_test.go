package install

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pelletier/go-toml/v2"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestHardDeniesArePolicyDenies: everything the backstops refuse is a call
// toolguard's policy denies even in its most permissive mode (full), so a
// backstop never refuses what toolguard would let through — and the
// commands next to them that the policy lets through in that mode are not
// among them.
func TestHardDeniesArePolicyDenies(t *testing.T) {
	const home, project = "/home/tester", "/home/tester/proj"
	// As toolguard hook compiles it: the agents' settings files are protected.
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: policy.ModeFull}},
		policy.Options{Home: home, Protected: hook.ProtectedPaths()})
	if err != nil {
		t.Fatal(err)
	}
	abs := func(glob string) string {
		glob = strings.Replace(glob, "**/", project+"/", 1)
		glob = strings.Replace(glob, "~", home, 1)
		return strings.Replace(glob, "/**", "/policy.toml", 1)
	}
	var calls []call.Call
	for _, w := range hardCommands {
		for _, c := range w.commands() {
			if len(w.targets) == 0 {
				c = append(c, "/dev/sdz1") // a filesystem is made on a device
			}
			calls = append(calls, call.Call{Kind: call.Shell, Tool: "Bash", Command: strings.Join(c, " ")})
		}
	}
	for _, d := range secretDirs {
		f := abs(d + "/id_rsa")
		calls = append(calls, call.Call{Kind: call.Read, Tool: "Read", Paths: []string{f}},
			call.Call{Kind: call.Write, Tool: "Write", Paths: []string{f}})
	}
	for _, agent := range []string{hook.ClaudeCode, hook.QwenCode, hook.GeminiCLI} {
		for _, g := range protectedGlobs(agent) {
			calls = append(calls, call.Call{Kind: call.Write, Tool: "Write", Paths: []string{abs(g)}})
		}
	}
	for _, c := range calls {
		c.Cwd, c.Workspace = project, project
		if d := p.Decide(context.Background(), c); d.Verdict != risk.Deny {
			t.Errorf("%s %q %v: the policy answers %s in full mode, but the backstops refuse it", c.Kind, c.Command, c.Paths, d.Verdict)
		}
	}
	for _, harmless := range []string{"rm -rf /tmp/build", "rm -rf ./build", "rm -rf " + project + "/node_modules"} {
		c := call.Call{Kind: call.Shell, Tool: "Bash", Command: harmless, Cwd: project, Workspace: project}
		if d := p.Decide(context.Background(), c); d.Verdict == risk.Deny {
			t.Errorf("%q is denied in full mode; the near-miss check below means nothing", harmless)
		}
		if slices.Contains(hardCommandLines(), harmless) {
			t.Errorf("%q is among the hard denies", harmless)
		}
	}
}

// TestBackstopsInStep installs every agent whose backstop is generated
// from the hard denies and checks that its rules hold each of them: Claude
// Code's and Qwen Code's permissions.deny, Droid's commandBlocklist,
// Gemini CLI's policy file and Codex's rules file.
func TestBackstopsInStep(t *testing.T) {
	opts := sandbox(t)
	read := func(agent string, f func(string, Scope, Options) string) []byte {
		t.Helper()
		b, err := os.ReadFile(f(agent, User, opts))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	settings := func(agent string, _ Scope, o Options) string {
		f, _ := File(agent, User, o)
		return f
	}
	for _, agent := range []string{hook.ClaudeCode, hook.QwenCode, hook.Droid, hook.GeminiCLI, hook.Codex} {
		mustApply(t, mustPlan(t, agent, User, opts))
	}

	for _, agent := range []string{hook.ClaudeCode, hook.QwenCode} {
		have := listOf(read(agent, settings), "permissions", "deny")
		var want []string
		for _, c := range hardCommandLines() {
			if strings.Contains(c, "*") {
				continue // Claude Code's wildcard: see claudeCommands
			}
			want = append(want, "Bash("+c+")", "Bash("+c+" *)")
		}
		for _, r := range have {
			// A "*" anywhere but a trailing " *" would match more than the
			// command (Bash(rm -rf /*) refuses rm -rf /tmp/build).
			if strings.Contains(strings.TrimSuffix(strings.TrimSuffix(r, ")"), " *"), "*") && strings.HasPrefix(r, "Bash(") {
				t.Errorf("%s: %s holds a wildcard inside the command", agent, r)
			}
		}
		for _, d := range secretDirs {
			want = append(want, "Read("+d+"/**)", "Edit("+d+"/**)")
		}
		want = append(want, "Edit(~/."+map[string]string{hook.ClaudeCode: "claude", hook.QwenCode: "qwen"}[agent]+"/settings.json)",
			"Edit(~/.config/toolguard/**)")
		for _, r := range want {
			if !slices.Contains(have, r) {
				t.Errorf("%s: permissions.deny lacks %s", agent, r)
			}
		}
	}

	// Droid reads an entry whose last word starts with / or ~ as any path
	// below it, so exactly the others are written.
	wantDroid := []string{"rm -rf $HOME", "rm -fr $HOME", "rm -Rf $HOME", "rm -fR $HOME",
		"mkfs", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat"}
	if diff := cmp.Diff(wantDroid, listOf(read(hook.Droid, settings), "", "commandBlocklist")); diff != "" {
		t.Errorf("droid commandBlocklist (-want +got):\n%s", diff)
	}

	var gemini struct {
		Rule []struct {
			ToolName      any
			CommandPrefix []string
			ArgsPattern   string
			Decision      string
		}
	}
	if err := toml.Unmarshal(read(hook.GeminiCLI, BackstopFile), &gemini); err != nil {
		t.Fatalf("gemini policy file: %v", err)
	}
	if len(gemini.Rule) != 3 {
		t.Fatalf("gemini policy file has %d rules, want 3", len(gemini.Rule))
	}
	if diff := cmp.Diff(hardCommandLines(), gemini.Rule[0].CommandPrefix); diff != "" {
		t.Errorf("gemini commandPrefix (-want +got):\n%s", diff)
	}
	secret, protected := regexp.MustCompile(gemini.Rule[1].ArgsPattern), regexp.MustCompile(gemini.Rule[2].ArgsPattern)
	for _, d := range secretDirs {
		if f := filepath.Join(opts.Home, strings.TrimPrefix(d, "~"), "id_rsa"); !secret.MatchString(f) {
			t.Errorf("gemini: the secrets rule does not match %s", f)
		}
	}
	for _, f := range []string{"/h/.gemini/settings.json", "/h/.gemini/policies/x.toml", "/p/.gemini/settings.json", "/h/.config/toolguard/policy.toml"} {
		if !protected.MatchString(f) {
			t.Errorf("gemini: the settings rule does not match %s", f)
		}
	}
	for _, f := range []string{"/h/proj/README.md", "/h/proj/ssh/config.go", "/h/.gemini/GEMINI.md"} {
		if secret.MatchString(f) || protected.MatchString(f) {
			t.Errorf("gemini: a backstop rule matches %s", f)
		}
	}
	for _, r := range gemini.Rule {
		if r.Decision != "deny" {
			t.Errorf("gemini rule decision %q", r.Decision)
		}
	}

	rules := string(read(hook.Codex, BackstopFile))
	for _, w := range hardCommands {
		if !strings.Contains(rules, "pattern = "+codexPattern(w)+",") {
			t.Errorf("codex rules lack the pattern %s:\n%s", codexPattern(w), rules)
		}
	}
}
