package policy_test

import (
	"fmt"
	"testing"
)

// TestRecursiveGlobs: a recursive delete of a glob removes what the
// entries it matches hold, so rm -rf .c* in a project with .claude is the
// delete of the hook settings in it, in every mode; and a glob of one name
// in a directory that exists names only what that directory holds, so
// rm -rf build/.[!.]* over an empty build output or one of caches is
// project work, while the same glob beside .husky or .claude keeps its
// judgement.
func TestRecursiveGlobs(t *testing.T) {
	settings := corpusFileSpec{Path: ".claude/settings.json", Content: `{"hooks": {}}`}
	deny := [3]string{"deny", "deny", "deny"}
	work := [3]string{"ask", "allow", "allow"}
	var many []corpusFileSpec // more hidden entries than are judged as trees
	for i := range 17 {
		many = append(many, corpusFileSpec{Path: fmt.Sprintf("cache/.d%02d/x", i), Content: "x"})
	}
	runDiskCases(t, []diskCase{
		{"more hidden entries than are checked", "rm -rf cache/.[!.]*", many, [3]string{"ask", "ask", "ask"}, "not all checked"},
		{"the hook settings' directory by a glob", "rm -rf .c*", []corpusFileSpec{settings}, deny, "holds paths matching"},
		{"the same through ./", "rm -rf ./.cl*", []corpusFileSpec{settings}, deny, "holds paths matching"},
		{"a nested agent directory by every hidden entry", "rm -rf sub/.[!.]*", []corpusFileSpec{{Path: "sub/.claude/settings.json", Content: "{}"}}, deny, "holds paths matching"},
		{"a glob matching no hidden directory", "rm -rf .c*", []corpusFileSpec{{Path: "src/main.go", Content: "package main\n"}}, [3]string{"ask", "ask", "allow"}, ""},
		{"hidden entries of an empty build output", "rm -rf build/.[!.]*", []corpusFileSpec{{Path: "build/app", Content: "x"}}, work, ""},
		{"hidden caches of a build output", "rm -rf build/.[!.]*", []corpusFileSpec{{Path: "build/.cache/a", Content: "x"}, {Path: "build/.stamp", Content: "x"}}, work, ""},
		{"hidden entries beside git hooks", "rm -rf tools/.[!.]*", []corpusFileSpec{{Path: "tools/.husky/pre-commit", Content: "#!/bin/sh\n"}}, [3]string{"ask", "ask", "ask"}, ""},
		{"the visible entries of a build output", "rm -rf build/*", []corpusFileSpec{{Path: "build/a/b.o", Content: "x"}}, work, ""},
	})
}
