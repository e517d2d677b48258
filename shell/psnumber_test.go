package shell

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestXargsPSNumber: the word that stands for a line of a ps listing of
// numbers fed to xargs. "1" unless the only column is the pid and the
// processes are selected by name (not init's), by id (not 1) or by parent
// (not 0); the value then is the first id given, or namedPID. Without -I,
// a listing that may hold PID 1 adds the word 1 to what xargs runs.
func TestXargsPSNumber(t *testing.T) {
	tests := []struct {
		src  string
		want []string // the kill command's words
		more bool     // words read at run time besides
	}{
		// -I: one word in place of {}
		{`ps -C node -o pid= | xargs -I{} kill {}`, []string{"kill", namedPID}, false},
		{`ps -o pid= -C node,vite | xargs -I % kill -9 %`, []string{"kill", "-9", namedPID}, false},
		{`ps -p 4242,77 -o pid= | xargs -I{} kill {}`, []string{"kill", "4242"}, false},
		{`ps --ppid 4242 -o pid= | xargs -I{} kill {}`, []string{"kill", namedPID}, false},
		{`ps --ppid $$ --no-headers -o pid= | xargs -I{} kill {}`, []string{"kill", namedPID}, false},
		{`ps -C node -o ppid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},     // a parent: 1 for an orphan
		{`ps -C node -o pid,ppid= | xargs -I{} kill {}`, []string{"kill", "1"}, false}, // two columns
		{`ps -e -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},           // every process
		{`ps -u dev -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},       // a user's
		{`ps -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},              // no selection
		{`ps -C systemd -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		{`ps -C $NAME -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		{`ps -p 1 -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		{`ps -p 12,001 -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		{`ps -p $$ -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		{`ps --ppid 0 -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		{`ps -C node -C init -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		// without -I: the words are read at run time; PID 1 is added when
		// the listing may hold it
		{`ps -C node -o pid= | xargs kill`, []string{"kill"}, true},
		{`ps -e -o pid= | xargs kill`, []string{"kill", "1"}, true},
		{`ps -C node -o ppid= | xargs kill -9`, []string{"kill", "-9", "1"}, true},
		{`ps -e -o pid= | xargs -0 kill`, []string{"kill"}, true},
		{`cat pids | xargs kill`, []string{"kill"}, true},
	}
	for _, tc := range tests {
		s, _ := Parse(tc.src, testOptions)
		var kill *Command
		for _, c := range s.Commands {
			if c.Name == "kill" {
				kill = c
			}
		}
		if kill == nil {
			t.Errorf("Parse(%q): no kill command in %q", tc.src, views(s))
			continue
		}
		var got []string
		for _, w := range kill.Argv {
			got = append(got, w.Value)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" || kill.ArgsFromInput != tc.more {
			t.Errorf("Parse(%q): kill words (-want +got):\n%s; words from input %v, want %v", tc.src, diff, kill.ArgsFromInput, tc.more)
		}
	}
}
