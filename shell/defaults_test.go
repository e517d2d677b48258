package shell_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/shell"
)

// TestDefaultsOf: a word not known only because a variable not known has
// a default stands also for what it is with that variable unset, as the
// shell expands it; a word with anything else not known, a variable that
// is known, or no default, stands for nothing more.
func TestDefaultsOf(t *testing.T) {
	opts := shell.Options{Home: "/home/dev", Env: map[string]string{"PWD": "/home/dev/p"}}
	for _, tc := range []struct {
		command string
		want    []string // of the last word of the first command
	}{
		{`rm -rf "${XDG_STATE_HOME:-$HOME/.local/state}/toolguard"`, []string{"/home/dev/.local/state/toolguard"}},
		{`rm -rf "${XDG_STATE_HOME-$HOME/.local/state}/toolguard"`, []string{"/home/dev/.local/state/toolguard"}},
		{`rm -rf "${XDG_STATE_HOME:=$HOME/.local/state}/toolguard"`, []string{"/home/dev/.local/state/toolguard"}},
		{`rm -rf "${XDG_STATE_HOME=$HOME/.local/state}/toolguard"`, []string{"/home/dev/.local/state/toolguard"}},
		{`rm -rf ${XDG_CONFIG_HOME:-~/.config}/toolguard`, []string{"/home/dev/.config/toolguard"}},
		{`rm -rf "${A:-${B:-/srv}}/x"`, []string{"/srv/x"}},
		{`rm -rf "${A:=/srv}/$A"`, []string{"/srv//srv"}},     // := assigns for the rest of the word
		{`D=/data; rm -rf "${X:-$D}/x"`, []string{"/data/x"}}, // D is known, X is not
		{`rm -rf "${X:-/srv}/$Y"`, nil}, // $Y has no default: not known either way
		{`rm -rf "${X:+/srv}/x"`, nil},  // :+ is not a default
		{`rm -rf "${X:?unset}/x"`, nil}, // :? stops the shell instead
		{`rm -rf "$X/x"`, nil},
		{`rm -rf "${X:-$(whoami)}/x"`, nil}, // a substitution is not known
		{`rm -rf ${X:-a b}`, []string{"a", "b"}},
	} {
		s, err := shell.Parse(tc.command, opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.command, err)
		}
		c := s.Commands[len(s.Commands)-1]
		w := c.Argv[len(c.Argv)-1]
		if w.Known {
			t.Errorf("%s: the word %q is known", tc.command, w.Value)
		}
		var got []string
		for _, a := range c.Argv[1:] {
			got = append(got, s.DefaultsOf(a)...)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: %s", tc.command, diff)
		}
	}
	// A variable that is known is not a default's case: its value is the word.
	s, err := shell.Parse(`X=/tmp/x; rm -rf "${X:-$HOME/.local/state}/toolguard"`, opts)
	if err != nil {
		t.Fatal(err)
	}
	if w := s.Commands[len(s.Commands)-1].Argv[2]; !w.Known || w.Value != "/tmp/x/toolguard" || len(s.Defaults) != 0 {
		t.Errorf("known X: %+v, defaults %v", w, s.Defaults)
	}
}
