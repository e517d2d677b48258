package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestLoopDestinations: a for loop over literal words copies into each of
// them, so a loop whose words name an agent's hook settings directory is
// paths.self in every mode, naming the file, as the copy written out is
// (issue 30). Loops whose words are only known when they run (a glob, a
// substitution, lines read from input) are judged as before: a copy into a
// protected directory with an unknown name is still denied there.
// Binding the words never softens a loop: a loop over harmless
// directories is judged as before too (at least as the unknown name).
func TestLoopDestinations(t *testing.T) {
	h := filepath.Join(t.TempDir(), "home")
	work := filepath.Join(h, "project")
	for _, d := range []string{"evil", "src", "docs"} {
		if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "evil", "settings.json"), []byte(`{"disableAllHooks": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	type want struct {
		verdict risk.Verdict
		rule    string
		names   string // a part of the reason, "" for any
	}
	deny := func(names string) [3]want {
		w := want{risk.Deny, "paths.self", names}
		return [3]want{w, w, w}
	}
	for _, c := range []struct {
		cmd  string
		want [3]want // supervised, trusted, full
	}{
		{`for d in .claude .gemini; do cp evil/settings.json "$d"/; done`, deny(".claude/settings.json")},
		{`for d in src .gemini; do cp evil/settings.json "$d"/; done`, deny(".gemini/settings.json")},
		{`for d in .claude; do cp evil/settings.json "$d/settings.local.json"; done`, deny(".claude/settings.local.json")},
		{`for f in evil/settings.json; do for d in .claude .gemini; do mv "$f" "$d"; done; done`, deny(".claude/settings.json")},
		{`for d in .claude; do cd "$d" && cp ../evil/settings.json .; done`, deny(".claude/settings.json")},
		// not bound: as before
		{`for f in evil/*.json; do cp "$f" .claude/; done`, deny(".claude/")},
		{`ls evil | while read -r f; do cp "evil/$f" .claude/; done`, deny(".claude/")},
		// harmless directories: as the copy into an unknown name, never softer
		{`for d in src docs; do cp README.md "$d"/; done`, [3]want{{risk.Ask, "", ""}, {risk.Ask, "", ""}, {risk.Ask, "", ""}}},
	} {
		for i, mode := range []string{policy.ModeSupervised, policy.ModeTrusted, policy.ModeFull} {
			p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: mode}}, policy.Options{Home: h})
			if err != nil {
				t.Fatal(err)
			}
			cl, err := p.Tools().Normalize(call.Request{Tool: "Bash", Input: bash(c.cmd), Cwd: work, Workspace: work})
			if err != nil {
				t.Fatal(err)
			}
			d := p.Decide(context.Background(), cl)
			w := c.want[i]
			if d.Verdict != w.verdict || w.rule != "" && d.Rule != w.rule || !strings.Contains(d.Reason, w.names) {
				t.Errorf("%s [%s]: %s %s: %s; want %s %s naming %q", c.cmd, mode, d.Verdict, d.Rule, d.Reason, w.verdict, w.rule, w.names)
			}
		}
	}
}
