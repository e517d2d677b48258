package shell

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPipedStdin: a script given Options.PipedStdin (a pager's code) reads
// a program's output on stdin: a shell reading its commands there runs
// text not known (a problem), an interpreter reading its program there has
// code not known, and a command that only reads the text is left as it is.
func TestPipedStdin(t *testing.T) {
	tests := []struct {
		code     string
		piped    bool
		problems []string
		inline   string // "lang via known" of the first command's Inline
	}{
		{"sh", true, []string{"sh reads commands from a pipe whose content is not static"}, ""},
		{"bash", true, []string{"bash reads commands from a pipe whose content is not static"}, ""},
		{"bash -s", true, []string{"bash reads commands from a pipe whose content is not static"}, ""},
		{"sh", false, nil, ""},
		{"python3", true, []string{"python code not static: "}, "python pipe false"},
		{"perl", true, []string{"perl code not static: "}, "perl pipe false"},
		{"python3", false, nil, ""},
		{"cat", true, nil, ""},
		{"less -R", true, nil, ""},
		{"tee out", true, nil, ""},
		{"sh x.sh", true, nil, ""}, // the script is a file: judged as sh x.sh is
		{"sh < /dev/null", true, []string{"sh reads commands from a file whose content is not static"}, ""}, // as without the pipe
		{"echo hi | sh", true, nil, ""}, // sh reads echo's output
	}
	for _, tc := range tests {
		s, err := Parse(tc.code, Options{Home: "/home/u", PipedStdin: tc.piped})
		if err != nil {
			t.Fatal(err)
		}
		var problems []string
		for _, p := range s.Problems {
			problems = append(problems, p.Reason)
		}
		if diff := cmp.Diff(tc.problems, problems); diff != "" {
			t.Errorf("%q piped %v: problems (-want +got):\n%s", tc.code, tc.piped, diff)
		}
		inline := ""
		for _, c := range s.Commands {
			if c.Inline != nil {
				inline = c.Inline.Lang + " " + c.Inline.Via + " " + map[bool]string{true: "true", false: "false"}[c.Inline.Known]
				break
			}
		}
		if inline != tc.inline {
			t.Errorf("%q piped %v: inline %q, want %q", tc.code, tc.piped, inline, tc.inline)
		}
	}
}
