package analysis

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBaseEnvKeptApart checks that the variables of a fresh shell, made
// once per call into a Scratch's map, are the call's: a script that sets
// and exports the same variables does not change them for the next parse,
// and a later call lent the same map sees its own directory.
func TestBaseEnvKeptApart(t *testing.T) {
	var s Scratch
	a := New(Context{Home: "/home/ada", Cwd: "/work/one"}, nil)
	a.UseScratch(&s)
	want := map[string]string{"HOME": "/home/ada", "TMPDIR": os.TempDir(), "PWD": "/work/one"}
	for _, text := range []string{"export HOME=/x PWD=/y TMPDIR=/z; cd /; unset HOME", "echo $HOME $PWD"} {
		if a.Parse(text) == nil {
			t.Fatalf("%q did not parse", text)
		}
		if diff := cmp.Diff(want, a.env); diff != "" {
			t.Errorf("after parsing %q, the call's variables (-want +got):\n%s", text, diff)
		}
	}
	env := a.env
	a.KeepScratch(&s)
	if len(env) != 0 || s.env == nil {
		t.Errorf("kept map %v (scratch's nil: %v), want it emptied and kept", env, s.env == nil)
	}

	b := New(Context{Home: "/home/bob"}, nil)
	b.UseScratch(&s)
	b.Parse("true")
	if diff := cmp.Diff(map[string]string{"HOME": "/home/bob", "TMPDIR": os.TempDir()}, b.env); diff != "" {
		t.Errorf("a later call's variables (-want +got):\n%s", diff)
	}
	hook := b.shellEnv() // a hook's parse adds $0 to its own map
	hook["0"] = ".git/hooks/pre-commit"
	if _, shared := b.env["0"]; shared || len(hook) != 3 {
		t.Errorf("shellEnv = %v and the call's variables %v, want a map of its own", hook, b.env)
	}
}
