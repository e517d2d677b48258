package shell

import (
	"path"
	"strings"
	"testing"
)

// commandNameReference is commandName as it was written before its
// shortcut for a bare name: every name through path.Base.
func commandNameReference(w Word) string {
	name := path.Base(strings.ReplaceAll(w.Value, "\\", "/"))
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".exe") {
		name = name[:len(name)-4]
	}
	if s, ok := Skeleton(name); ok {
		return s
	}
	return name
}

var commandNameInputs = []string{
	"", "/", "//", ".", "..", "go", "rm", "./rm", "/usr/bin/rm", "bin/", "bin//", "a\\b", "C:\\bin\\git.exe",
	"git.exe", "GIT.EXE", ".exe", "x.exe", "x.exe/", "ｒｍ", "/usr/bin/ｒｍ", "сurl", "r\u200bm", "tool7",
	"a b", "\xff", "-", "{}",
}

// TestCommandNameAsBefore: the shortcut for a name without a slash or a
// backslash gives what path.Base did.
func TestCommandNameAsBefore(t *testing.T) {
	for _, v := range commandNameInputs {
		w := Word{Value: v, Known: true}
		if got, want := commandName(w), commandNameReference(w); got != want {
			t.Errorf("commandName(%q) = %q, before %q", v, got, want)
		}
	}
}

// FuzzCommandName: commandName agrees with its former form on any word.
func FuzzCommandName(f *testing.F) {
	for _, v := range commandNameInputs {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		w := Word{Value: v, Known: true}
		if got, want := commandName(w), commandNameReference(w); got != want {
			t.Errorf("commandName(%q) = %q, before %q", v, got, want)
		}
	})
}
