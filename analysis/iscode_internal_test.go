package analysis

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/shell"
)

// isCodeReference is isCode as it was before hasNested: a search of the
// script's commands for every word that may be code.
func isCodeReference(s *shell.Script, w shell.Word) bool {
	if s == nil || w.Span.IsZero() || !strings.ContainsAny(w.Value, " \t\n;|&") {
		return false
	}
	for _, c := range s.Commands {
		if c.Depth > 0 && c.Span == w.Span {
			return true
		}
	}
	return false
}

// TestIsCodeAsBefore: isCode gives, for every word of every command,
// what the search of the script's commands did, with scripts with and
// without nested code judged in turn, and a nested command added to a
// script after its words were asked about.
func TestIsCodeAsBefore(t *testing.T) {
	lines := []string{
		`sh -c 'cat ~/.ssh/id_rsa; ls'`,
		`echo "a b; c" | grep "x y"`,
		`bash -c "echo one | wc -l" && su -c 'id; whoami' root`,
		`git -c core.sshCommand='ssh -i k' fetch`,
		`printf '%s\n' "a|b" 'c&d'`,
	}
	var a Analysis
	scripts := make([]*shell.Script, len(lines))
	for i, line := range lines {
		s, err := shell.Parse(line, shell.Options{})
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		scripts[i] = s
	}
	codeWords := 0
	for round := range 2 {
		for i, s := range scripts {
			a.script = s
			if round == 1 {
				a.nestedOf = nil // as Script does
			}
			var got, want []bool
			for _, c := range s.Commands {
				for _, w := range c.Argv {
					got = append(got, a.isCode(w))
					want = append(want, isCodeReference(s, w))
					if want[len(want)-1] {
						codeWords++
					}
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("round %d, %s (-before +now):\n%s", round, lines[i], diff)
			}
		}
	}
	if codeWords == 0 {
		t.Fatal("no word of the scripts is code: the test compares nothing")
	}
	// A script without nested code, asked about, then given a nested
	// command: its words are asked about again with it.
	plain, nested := scripts[1], scripts[0]
	a.script = plain
	w := plain.Commands[0].Argv[1]
	if a.isCode(w) {
		t.Fatalf("%q is code in %q", w.Value, lines[1])
	}
	var inner *shell.Command
	for _, c := range nested.Commands {
		if c.Depth > 0 {
			inner = c
		}
	}
	if inner == nil {
		t.Fatalf("%s: no nested command", lines[0])
	}
	added := *inner
	added.Span = w.Span
	plain.Commands = append(plain.Commands, &added)
	if !a.isCode(w) || !isCodeReference(plain, w) {
		t.Errorf("%q is not code once a nested command of its span was added", w.Value)
	}
}
