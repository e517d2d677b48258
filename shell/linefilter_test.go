package shell

import "testing"

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
