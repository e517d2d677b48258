package shell

import (
	"fmt"
	"testing"
)

// TestListedEntries: the set of paths a listing's lines stand for, and
// whether it is the walk of a directory (Walked) or not listed at all.
func TestListedEntries(t *testing.T) {
	tests := []struct {
		cmd    string
		want   string // "" when not a listing
		known  bool
		walked bool
	}{
		{"find src -name '*.go'", "src/*.go", true, true},
		{"find ~ -iname 'ID_*'", "/home/u/[Ii][Dd]_*", true, true},
		{"find ~ -path '*gh*' -name hosts.yml", "/home/u/hosts.yml", false, true},
		{"find ~ ! -name '*.py'", "/home/u/*", false, true},
		{"find ~ -name a -o -name b", "/home/u/*", false, true},
		{"find $D -name x", "$D/x", false, false},
		{`find ~ -name "$X"`, "/home/u/*", false, true},      // an unknown name: any name
		{"find ~ -name a -name b", "/home/u/*", false, true}, // a second -name
		{"find ~ -name a/b", "/home/u/*", false, true},       // a name with a / matches nothing find visits; judged as any
		{"find ~ -size +1k", "/home/u/*", false, true},
		{"find . -name x | sort | head -3", "./x", true, true},
		{"fd -H hosts.yml ~", "/home/u/*", true, true},
		{"fd -e go", "./*.go", true, true},
		{"fd -g '*.md' docs", "docs/*.md", true, true},
		{"fd -e go -e ts", "", false, false},    // two names: not one glob
		{"fd x a b", "", false, false},          // two search paths
		{"fd -x rm {} ';' x", "", false, false}, // runs commands
		{"locate hosts.yml", "/*", true, true},
		{"ls", "*", true, false},
		{"ls -A ~", "*", true, false},
		{"ls ~/.ssh/id_*", "/home/u/.ssh/id_*", true, false},
		{"ls a b", "", false, false},
		{"cat list", "", false, false},
	}
	for _, tc := range tests {
		s, err := Parse(tc.cmd, Options{Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		last := s.Commands[len(s.Commands)-1]
		got, ok := listedEntries(last)
		if !ok {
			if tc.want != "" {
				t.Errorf("listedEntries(%q): not a listing, want %q", tc.cmd, tc.want)
			}
			continue
		}
		if got.Value != tc.want || got.Known != tc.known || got.Walked != tc.walked {
			t.Errorf("listedEntries(%q) = %q known %v walked %v, want %q known %v walked %v",
				tc.cmd, got.Value, got.Known, got.Walked, tc.want, tc.known, tc.walked)
		}
	}
}

// TestListingInWords: a listing reaches a command's operand through $(…),
// a variable assigned from it, or a for loop over it, and the operand is
// the listing's walk; anything else leaves the operand as it was.
func TestListingInWords(t *testing.T) {
	tests := []struct {
		script string
		want   string // cat's operand
		walked bool
	}{
		{"cat $(find ~ -name x)", "/home/u/x", true},
		{`cat "$(find ~ -name x | sort)"`, "/home/u/x", true},
		{"f=$(find ~ -name x); cat $f", "/home/u/x", true},
		{`f=$(find ~ -name x); cat "${f}"`, "/home/u/x", true},
		{`for f in $(find ~ -name x); do cat "$f"; done`, "/home/u/x", true},
		{"f=$(find ~ -name x); cat ${f%/*}", "${f%/*}", false}, // an operation on it: not the set
		{"f=$(find ~ -name x); f+=y; cat $f", "$f", false},
		{"cat $(find ~ -name x | sed s/a/b/)", "$(find ~ -name x | sed s/a/b/)", false},
	}
	for _, tc := range tests {
		s, err := Parse(tc.script, Options{Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		// a loop's body is walked with f bound and once more with f
		// unknown: one of its cats must have the operand
		var seen []string
		found := false
		for _, c := range s.Commands {
			if c.Name == "cat" && len(c.Argv) > 1 {
				got := c.Argv[1]
				found = found || got.Value == tc.want && got.Walked == tc.walked
				seen = append(seen, fmt.Sprintf("%q walked %v", got.Value, got.Walked))
			}
		}
		if !found {
			t.Errorf("%q: cat's operands %v, want %q walked %v", tc.script, seen, tc.want, tc.walked)
		}
	}
}

// TestLineFilter: a command is a line filter only when it prints some of
// the lines it reads from a pipe, each whole.
func TestLineFilter(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"find . | sort", true},
		{"find . | sort -u", true},
		{"find . | sort -o out", false}, // writes a file
		{"find . | uniq", true},
		{"find . | uniq -c", false}, // prefixes counts
		{"find . | head -5", true},
		{"find . | head -n 5", true},
		{"find . | head -n5", true},
		{"find . | tail --lines=2", true},
		{"find . | head -c 10", false}, // cuts a line
		{"find . | tac", true},
		{"find . | grep gh", true},
		{"find . | grep -v test", true},
		{"find . | grep -e a", true},
		{"find . | grep -iE 'a|b'", true},
		{"find . | grep -n gh", false},   // numbers lines
		{"find . | grep -o gh", false},   // prints parts
		{"find . | grep gh file", false}, // reads a file
		{"find . | grep -f pats", false},
		{"find . | sed s/a/b/", false},
		{"find . | head -5 > out", false},
		{"sort", false}, // no pipe
	}
	for _, tc := range tests {
		s, err := Parse(tc.cmd, Options{})
		if err != nil {
			t.Fatal(err)
		}
		last := s.Commands[len(s.Commands)-1]
		if got := lineFilter(last); got != tc.want {
			t.Errorf("lineFilter(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}
