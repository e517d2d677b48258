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
		// the same listings, their options written otherwise
		{`ps -eo pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		{`ps ax -o pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		{`ps -Ao pid= | xargs -I{} kill {}`, []string{"kill", "1"}, false},
		{`ps -Cnode -opid= | xargs -I{} kill {}`, []string{"kill", namedPID}, false},
		{`ps -C node --format=pid= | xargs -I{} kill {}`, []string{"kill", namedPID}, false},
		{`ps h -C node o pid | xargs -I{} kill {}`, []string{"kill", namedPID}, false},
		{`ps -p4242 -o pid= | xargs -I{} kill {}`, []string{"kill", "4242"}, false},
		{`ps -C node -f -o pid= | xargs -I{} kill {}`, []string{"kill", inputWord}, true}, // -f adds its columns: not numbers
		{`ps -C node -o pid=,comm= | xargs -I{} kill {}`, []string{"kill", inputWord}, true},
		// without -I: the words are read at run time; a listing of numbers
		// only adds the number that stands for it (PID 1 when the listing
		// may hold it), any other input a word that is not known
		{`ps -C node -o pid= | xargs kill`, []string{"kill", namedPID}, true},
		{`ps -e -o pid= | xargs kill`, []string{"kill", "1"}, true},
		{`ps -eo pid= | xargs kill`, []string{"kill", "1"}, true},
		{`ps ax -o pid= | xargs kill`, []string{"kill", "1"}, true},
		{`ps -C node -o ppid= | xargs kill -9`, []string{"kill", "-9", "1"}, true},
		{`ps -e -o pid= | xargs -0 kill`, []string{"kill", inputWord}, true},
		{`cat pids | xargs kill`, []string{"kill", inputWord}, true},
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

// TestReadPs: the three option syntaxes of ps read alike.
func TestReadPs(t *testing.T) {
	type view struct {
		Names, IDs, Parents, Formats []string
		Many, Columns, Unknown       bool
	}
	vals := func(ws []Word) []string {
		var out []string
		for _, w := range ws {
			out = append(out, w.Value)
		}
		return out
	}
	tests := []struct {
		src  string
		want view
	}{
		{`ps -eo pid=`, view{Formats: []string{"pid="}, Many: true}},
		{`ps -e -o pid=`, view{Formats: []string{"pid="}, Many: true}},
		{`ps ax -o pid=`, view{Formats: []string{"pid="}, Many: true}},
		{`ps aux`, view{Many: true, Columns: true}},
		{`ps -ef`, view{Many: true, Columns: true}},
		{`ps -Cnode,vite -opid=`, view{Names: []string{"node", "vite"}, Formats: []string{"pid="}}},
		{`ps -o pid= -C node`, view{Names: []string{"node"}, Formats: []string{"pid="}}},
		{`ps --format=pid,ppid --ppid 4242`, view{Parents: []string{"4242"}, Formats: []string{"pid,ppid"}}},
		{`ps h -C node o pid`, view{Names: []string{"node"}, Formats: []string{"pid"}}},
		{`ps -p 4242,77 --no-headers -o pid`, view{IDs: []string{"4242", "77"}, Formats: []string{"pid"}}},
		{`ps -u dev -o pid=`, view{Formats: []string{"pid="}, Many: true}},
		{`ps --user=dev`, view{Many: true}},
		{`ps -e -o pid= -Q`, view{Formats: []string{"pid="}, Many: true, Unknown: true}},
		{`ps $OPTS -o pid=`, view{Formats: []string{"pid="}, Unknown: true}},
		{`ps -p $$ -o pid=`, view{IDs: []string{"$$"}, Formats: []string{"pid="}}},
		{`ps -o`, view{Unknown: true}},
	}
	for _, tc := range tests {
		s, _ := Parse(tc.src, testOptions)
		if len(s.Commands) != 1 {
			t.Fatalf("Parse(%q): %d commands", tc.src, len(s.Commands))
		}
		l := ReadPs(s.Commands[0])
		got := view{vals(l.Names), vals(l.IDs), vals(l.Parents), vals(l.Formats), l.Many, l.Columns, l.Unknown}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ReadPs(%q) (-want +got):\n%s", tc.src, diff)
		}
	}
}
