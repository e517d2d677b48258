package policy_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/rules"
)

// callKey identifies a case's call for comparing splits: the tool and the
// command with its spacing collapsed, or the tool and its input.
func (c corpusCase) callKey() string {
	if c.Command != "" {
		return c.Tool + "\x00" + strings.Join(strings.Fields(c.Command), " ")
	}
	in, _ := json.Marshal(c.Input)
	return c.Tool + "\x00" + string(in)
}

// packExamples are the commands the rule packs' effect model is checked on.
func packExamples(t *testing.T) map[string]bool {
	packs, err := rules.BuiltinPacks()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, p := range packs {
		for _, pr := range p.Programs {
			for _, e := range append(pr.Examples, pr.Counter...) {
				out[strings.Join(strings.Fields(e), " ")] = true
			}
		}
	}
	return out
}

// packExample marks a case whose command is one of the rule packs'
// examples (Seen).
const packExample = "rule pack example"

// TestAdversarialSplitsApart keeps each split's figures a first look: a case
// that repeats a call of its own or an earlier split, or (after dev) is one
// of the rule packs' examples, which were written while the rules were,
// must be marked seen, with the case it repeats; a mark on any other case
// is wrong.
func TestAdversarialSplitsApart(t *testing.T) {
	examples := packExamples(t)
	first := map[string]string{} // call → the case that has it first
	for _, c := range loadCorpus(t) {
		want := ""
		k := c.callKey()
		if prev, ok := first[k]; ok {
			want = prev
		} else {
			first[k] = c.key()
			if c.split != corpusSplits[0] && c.Tool == "Bash" && examples[strings.Join(strings.Fields(c.Command), " ")] {
				want = packExample
			}
		}
		switch {
		case c.Seen == want:
		case want == "":
			t.Errorf("%s is marked seen = %q, but its call appears first here and is no pack example; remove the mark", c.key(), c.Seen)
		default:
			t.Errorf("%s: its call was seen before (%s); mark it seen = %q", c.key(), want, want)
		}
	}
}
