package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

// TestGitHooksDecide checks the hooks git runs, read from the workspace on
// disk: a critical effect denies in every mode naming the hook, its line
// and its code; a hook that cannot be judged (not text, too large) is
// asked about in every mode; a hook that is not executable, or that
// --no-verify skips, runs nothing.
func TestGitHooksDecide(t *testing.T) {
	cfg := corpusFileSpec{Path: ".git/config", Content: "[core]\n\tbare = false\n"}
	for _, c := range []struct {
		name    string
		command string
		files   []corpusFileSpec
		want    [3]string // supervised, trusted, full
		reason  string    // held by the reason in supervised
	}{
		{"a pre-commit that wipes the home directory", "git commit -m x",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-commit", Mode: "0755", Content: "#!/bin/sh\nset -e\nrm -rf \"$HOME\"\n"}},
			[3]string{"deny", "deny", "deny"}, `In .git/hooks/pre-commit, line 3 (rm -rf "$HOME"): `},
		{"the same hook, not executable", "git commit -m x",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-commit", Mode: "0644", Content: "#!/bin/sh\nrm -rf \"$HOME\"\n"}},
			[3]string{"ask", "allow", "allow"}, ""},
		{"the same hook, skipped by --no-verify", "git commit --no-verify -m x",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-commit", Mode: "0755", Content: "#!/bin/sh\nrm -rf \"$HOME\"\n"}},
			[3]string{"ask", "allow", "allow"}, ""},
		{"a compiled pre-push", "git push origin main",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-push", Mode: "0755", Content: "\x7fELF\x00\x00"}},
			[3]string{"ask", "ask", "ask"}, ".git/hooks/pre-push"},
		{"a pre-push larger than the limit", "git push origin main",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-push", Mode: "0755", Content: "#!/bin/sh\n" + strings.Repeat("# padding\n", policy.MaxFileBytes/10+1)}},
			[3]string{"ask", "ask", "ask"}, ".git/hooks/pre-push"},
		{"no hooks", "git commit -m x", []corpusFileSpec{cfg},
			[3]string{"ask", "allow", "allow"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			cc := corpusCase{ID: "x", Tool: "Bash", Command: c.command, Files: c.files}
			home := cc.layFiles(t)
			var got [3]string
			for i, m := range corpusModes {
				p := corpusPolicy(t, m, home)
				cl, err := cc.call(p, home)
				if err != nil {
					t.Fatal(err)
				}
				d := p.Decide(context.Background(), cl)
				got[i] = d.Verdict.String()
				if m == policy.ModeSupervised && !strings.Contains(d.Reason, c.reason) {
					t.Errorf("the reason does not say %q: %s", c.reason, d.Reason)
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
		})
	}
}
