package rules

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestClassifyStateReused: Classify reuses the state of earlier calls
// (classifyStates). Every per-pack case and everyday command is classified through the pool,
// and again in a state of its own that no other call touches; after all of
// them (each later call reusing a state an earlier one gave back), every
// kept answer must still equal its own state's: a list of a Result that
// pointed into the state would have been zeroed or overwritten.
func TestClassifyStateReused(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, cases := range packCases {
		for _, c := range cases {
			texts = append(texts, c.cmd)
		}
	}
	slices.Sort(texts)
	data, err := os.ReadFile(filepath.Join("testdata", "everyday.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			texts = append(texts, line)
		}
	}
	type kept struct {
		text      string
		got, want Result
	}
	var all []kept
	for _, text := range texts {
		for _, cmd := range splitCommand(text) {
			want, ok := s.classifyModule(cmd, new(classifyState)) // python3 -m tarfile -l x: the module's program
			if !ok {
				want = s.classify(cmd, new(classifyState))
			}
			all = append(all, kept{text, s.Classify(cmd), want})
		}
	}
	if len(all) < 600 {
		t.Fatalf("only %d commands classified", len(all))
	}
	for _, k := range all {
		if diff := cmp.Diff(k.want, k.got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("%q: the pooled answer (+) differs from its own state's (-) after later calls:\n%s", k.text, diff)
		}
	}
}

// TestClassifyStateZeroed: a state goes back to the pool zero, so that a
// call never sees what the one before it left.
func TestClassifyStateZeroed(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	cmd := splitCommand("git -c core.hooksPath=/x push --force origin main a b c d e f g h i j")[0]
	st := new(classifyState)
	_ = s.classify(cmd, st)
	if reflect.ValueOf(*st).IsZero() {
		t.Fatal("classify left its state zero; the test checks nothing")
	}
	_ = s.Classify(cmd)
	got := classifyStates.Get().(*classifyState)
	defer classifyStates.Put(got)
	if !reflect.ValueOf(*got).IsZero() {
		t.Fatalf("a state in the pool is not zero: %+v", *got)
	}
}
