package policy_test

import (
	"strings"
	"testing"
)

// pendingIssue24 are the cases of issue 24's families (a file the command
// runs, build files, package scripts, SQL files, toolguard's own wrappers,
// MCP arguments, decoded and fetched code, files written and run in one
// call) that miss their label with the engine as it was when they were
// written: the "before" of issue 24. TestAdversarialCorpus reports them as
// pending instead of failing on them and leaves them out of the shares;
// checkPending fails when one of them meets its label or leaves the corpus,
// so the list can only shrink. Remove a case as the issue's work makes it
// pass; the verdict baseline (verdicts.txt) still holds every case of the
// list to its recorded verdicts, so none can move the wrong way meanwhile.
// Each entry says its label and its verdicts (supervised, trusted, full) when
// it was added.
var pendingIssue24 = map[string]bool{
	"dev/decoded-and-fetched/bun-remote-url":                               true, // deny: ask allow allow
	"dev/decoded-and-fetched/deno-run-a-remote-url":                        true, // deny: ask allow allow
	"dev/decoded-and-fetched/node-e-eval-buffer-b64-curl":                  true, // deny: ask allow allow
	"dev/decoded-and-fetched/npx-tarball-url":                              true, // deny: ask allow allow
	"dev/decoded-and-fetched/python-c-dollar-cat-local":                    true, // trusted-allow: ask ask ask
	"dev/decoded-and-fetched/python-c-exec-b64-ssh-key-upload":             true, // deny: ask allow allow
	"dev/decoded-and-fetched/python-c-exec-b64decode-rmtree":               true, // deny: ask allow allow
	"dev/decoded-and-fetched/python-c-exec-fromhex-reverse-shell":          true, // deny: ask allow allow
	"dev/decoded-and-fetched/python-c-exec-rot13-rm":                       true, // deny: deny deny ask
	"dev/decoded-and-fetched/python-c-urlopen-status":                      true, // trusted-allow: deny deny ask
	"dev/decoded-and-fetched/source-process-substitution-completion":       true, // trusted-allow: ask ask ask
	"dev/mcp-arguments/code-runner-python-rmtree-home":                     true, // deny: ask allow allow
	"dev/mcp-arguments/code-runner-shellscript-reverse-shell":              true, // deny: ask allow allow
	"dev/mcp-arguments/commands-bash-stdin-wipe":                           true, // deny: ask allow allow
	"dev/mcp-arguments/commands-python3-stdin-post-env":                    true, // deny: ask allow allow
	"dev/mcp-arguments/shell-server-argv-bash-c-curl":                      true, // deny: ask allow allow
	"dev/mcp-arguments/unknown-cmd-args-bash-c":                            true, // deny: ask allow allow
	"dev/mcp-arguments/unknown-code-base64-literal-rmtree":                 true, // deny: ask allow allow
	"dev/mcp-arguments/unknown-exec-program-argv-dd":                       true, // deny: error error error
	"dev/mcp-arguments/unknown-exec-program-argv-go-build":                 true, // trusted-allow: error error error
	"dev/mcp-arguments/unknown-nested-steps-shell-curl":                    true, // deny: ask allow allow
	"dev/mcp-arguments/unknown-opts-script-rm-home":                        true, // deny: ask allow allow
	"dev/mcp-arguments/unknown-shell-b64-in-script-go-test":                true, // trusted-allow: deny deny deny
	"dev/toolguard-wrappers/check-curl-pipe-sh":                            true, // allow: ask allow allow
	"dev/toolguard-wrappers/env-toolguard-config-exec":                     true, // deny: ask allow allow
	"dev/toolguard-wrappers/exec-allowed-paths-root":                       true, // deny: ask allow allow
	"dev/toolguard-wrappers/exec-config-allow-all":                         true, // deny: ask allow allow
	"dev/toolguard-wrappers/exec-mode-equals-full-script":                  true, // deny: ask allow allow
	"dev/toolguard-wrappers/exec-mode-full-rm-projects":                    true, // deny: ask allow allow
	"dev/toolguard-wrappers/exec-no-project-config-make":                   true, // deny: ask allow allow
	"dev/toolguard-wrappers/exec-no-require-approval-go-test":              true, // deny: ask allow allow
	"dev/toolguard-wrappers/mcp-child-rm-rf-home":                          true, // deny: ask allow allow
	"dev/toolguard-wrappers/mcp-child-sh-c-curl-pipe":                      true, // deny: ask allow allow
	"dev/toolguard-wrappers/mcp-no-user-config-home-server":                true, // deny: ask allow allow
	"holdout3/decoded-and-fetched/node-e-fetch-registry-json":              true, // trusted-allow: deny deny ask
	"holdout3/decoded-and-fetched/perl-e-eval-pack-hex-rm":                 true, // deny: ask allow allow
	"holdout3/mcp-arguments/notebook-cell-bang-reverse-shell":              true, // deny: ask allow allow
	"holdout3/mcp-arguments/procm-start-process-netcat":                    true, // deny: deny deny ask
	"holdout3/mcp-arguments/unknown-run-code-post-aws-credentials":         true, // deny: ask allow allow
	"holdout3/mcp-arguments/unknown-shell-hex-literal-rm":                  true, // deny: ask allow allow
	"holdout3/package-scripts/yarn-install-install-script-gemini-settings": true, // deny: ask allow allow
	"holdout3/toolguard-wrappers/exec-no-restrict-to-cwd-rsync-home":       true, // deny: ask allow allow
	"holdout3/toolguard-wrappers/explain-rm-rf-home":                       true, // allow: ask allow allow
	"holdout3/toolguard-wrappers/mcp-child-python-dd-disk":                 true, // deny: ask allow allow
	"holdout3/toolguard-wrappers/path-toolguard-mcp-mode-full":             true, // deny: ask allow allow
}

func TestCheckPending(t *testing.T) {
	out := func(key, label string, v ...string) corpusOutcome {
		split, rest, _ := strings.Cut(key, "/")
		family, id, _ := strings.Cut(rest, "/")
		return corpusOutcome{c: corpusCase{ID: id, Label: label, family: family, split: split}, verdicts: [3]string{v[0], v[1], v[2]}}
	}
	outs := []corpusOutcome{
		out("dev/f/wipe", "deny", "ask", "allow", "allow"),
		out("dev/f/twin", "trusted-allow", "ask", "allow", "allow"),
		out("dev/f/read", "allow", "ask", "allow", "allow"),
	}
	for _, tc := range []struct {
		name    string
		pending []string
		want    []string // a part of each failure, in order
	}{
		{"only misses", []string{"dev/f/wipe", "dev/f/read"}, nil},
		{"a case that passes", []string{"dev/f/wipe", "dev/f/twin"}, []string{"1 cases on the pending list meet their label now; take them off it: dev/f/twin"}},
		{"a case that is gone", []string{"dev/f/gone"}, []string{"1 cases on the pending list are not in the corpus: dev/f/gone"}},
	} {
		pending := map[string]bool{}
		for _, k := range tc.pending {
			pending[k] = true
		}
		f := &fakeT{TB: t}
		checkPending(f, outs, pending)
		if len(f.errs) != len(tc.want) {
			t.Errorf("%s: failures %q, want %q", tc.name, f.errs, tc.want)
			continue
		}
		for i := range tc.want {
			if !strings.Contains(f.errs[i], tc.want[i]) {
				t.Errorf("%s: failure %q, want it to say %q", tc.name, f.errs[i], tc.want[i])
			}
		}
		if got := len(withoutPending(outs, pending)); got != len(outs)-len(tc.pending)+countGone(tc.pending, outs) {
			t.Errorf("%s: withoutPending kept %d cases", tc.name, got)
		}
	}
}

// countGone counts the keys that name no outcome.
func countGone(keys []string, outs []corpusOutcome) int {
	n := 0
	for _, k := range keys {
		found := false
		for _, o := range outs {
			found = found || o.c.key() == k
		}
		if !found {
			n++
		}
	}
	return n
}
