package policy_test

import (
	"strings"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// eachCorpusCall hands check every call of the corpora, in the supervised
// and full modes, as subtests: the adversarial corpus (each case with the
// files it lays, under a policy of its home), the traces' shell commands
// and the peers' corpora. Tests that compare two ways of deciding the same
// call (the packs' memo, the pooled buffers) share it.
func eachCorpusCall(t *testing.T, check func(t *testing.T, p *policy.Policy, cl call.Call, what string)) {
	modes := []string{policy.ModeSupervised, policy.ModeFull}
	shared := map[string]*policy.Policy{}
	for _, m := range modes {
		shared[m] = corpusPolicy(t, m, corpusHome)
	}
	t.Run("adversarial", func(t *testing.T) {
		for _, c := range loadCorpus(t) {
			home := c.layFiles(t)
			for _, m := range modes {
				p := shared[m]
				if home != corpusHome {
					p = corpusPolicy(t, m, home)
				}
				if cl, err := c.call(p, home); err == nil {
					check(t, p, cl, c.key())
				}
			}
		}
	})
	shell := func(t *testing.T, command, what string) {
		for _, m := range modes {
			cl, err := shared[m].Tools().Normalize(call.Request{Tool: "Bash", Input: map[string]any{"command": command},
				Cwd: corpusHome + "/project", Workspace: corpusHome + "/project"})
			if err == nil {
				check(t, shared[m], cl, what)
			}
		}
	}
	t.Run("traces", func(t *testing.T) {
		for _, tc := range loadTraces(t, tracesDir) {
			if command, _ := tc.Input["command"].(string); strings.TrimSpace(command) != "" {
				shell(t, command, tc.key())
			}
		}
	})
	t.Run("peers", func(t *testing.T) {
		for _, pc := range loadPeerCases(t) {
			shell(t, pc.command, pc.corpus)
		}
	})
}
