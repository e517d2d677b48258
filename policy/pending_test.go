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
var pendingIssue24 = map[string]bool{}

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
		f.wantFailures(t, tc.name, tc.want)
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
