package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// hasSubstUnder reports whether a walk of n, as walkSubsts makes it, meets
// a $(…), `…`, <(…) or >(…): the reference substFree must never contradict.
func hasSubstUnder(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}

// checkSubstFree parses src and fails for any word substFree calls free
// of substitutions that holds one. It returns how many words it judged
// free and how many not.
func checkSubstFree(t *testing.T, src string) (free, not int) {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return 0, 0
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		w, ok := n.(*syntax.Word)
		if !ok {
			return true
		}
		if substFree(w) {
			free++
			if hasSubstUnder(w) {
				t.Errorf("substFree(%q) but the word holds a substitution", src[w.Pos().Offset():w.End().Offset()])
			}
		} else {
			not++
		}
		return true
	})
	return free, not
}

// TestSubstFree: the words of ordinary scripts substFree calls free, and
// the words it leaves to the walk, among them every one with a
// substitution anywhere under it (in a default, an index, a replacement,
// quotes, a process substitution).
func TestSubstFree(t *testing.T) {
	for src, want := range map[string]bool{
		`a`: true, `'a b'`: true, `"a b"`: true, `$f`: true, `${f}`: true, `"$f"`: true, `"x${f}y$g"`: true,
		`a"$b"'c'`: true, `$'a\nb'`: true, `"$(ls)"`: false, "`ls`": false, `$(ls)`: false, `<(ls)`: false,
		`${f:-$(ls)}`: false, `${f:-x}`: false, `${a[$(ls)]}`: false, `${a[1]}`: false, `${f/$(ls)/x}`: false,
		`${f:$(ls):1}`: false, `"${f:-"$(ls)"}"`: false, `$((1+$(ls)))`: false, `*.go`: true, `~/x`: true,
		`${#f}`: true, `${!f}`: true, `"$@"`: true, `$((1+2))`: false, `"$(( $(ls) ))"`: false,
	} {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("echo "+src), "")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		w := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		if got := substFree(w); got != want {
			t.Errorf("substFree(%s) = %v, want %v", src, got, want)
		}
		if substFree(w) && hasSubstUnder(w) {
			t.Errorf("substFree(%s) but the word holds a substitution", src)
		}
	}
	free, not := checkSubstFree(t, `#!/bin/bash
ROOT="$(cd "$(dirname "$0")" && pwd)"
for f in ./testdata/*.golden; do cp "$f" "$ROOT/build/" ; done
diff <(sort a) >(tee b) "${x:-$(date)}" ${arr[$(id -u)]} "${v//$(whoami)/x}" '$(not)' "\$(not)"
cat <<EOF
$(hostname) ${HOME}
EOF
echo "$((n + $(wc -l < f)))" $'\n' `+"`uname`"+` "$@" ${#v}`)
	if free == 0 || not == 0 {
		t.Errorf("free %d, not %d: the script should have both", free, not)
	}
}

func FuzzSubstFree(f *testing.F) {
	for _, s := range []string{`cp "$f" ./build/`, `echo "${x:-$(id)}"`, `a=$(b) c "${d[$(e)]}"`, "x `y` <(z)", `"$'\n'"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkSubstFree(t, src)
	})
}

// forgetsUnder reports whether a walk of n meets a node visitForget acts
// on: an assignment, or a command named cd, pushd or popd.
func forgetsUnder(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Assign:
			found = true
		case *syntax.CallExpr:
			if len(n.Args) > 0 && (n.Args[0].Lit() == "cd" || n.Args[0].Lit() == "pushd" || n.Args[0].Lit() == "popd") {
				found = true
			}
		}
		return !found
	})
	return found
}

// checkAssignFree parses src and fails for any loop assignFree calls free
// under which a walk meets an assignment or a cd. It returns how many
// loops it judged free and how many not.
func checkAssignFree(t *testing.T, src string) (free, not int) {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return 0, 0
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.ForClause, *syntax.WhileClause:
		default:
			return true
		}
		if assignFree(n) {
			free++
			if forgetsUnder(n) {
				t.Errorf("assignFree(%q) but the loop assigns or changes directory", src[n.Pos().Offset():n.End().Offset()])
			}
		} else {
			not++
		}
		return true
	})
	return free, not
}

// TestAssignFree: the loops assignFree calls free, and those it leaves to
// the walk, among them every one that assigns or changes directory
// anywhere inside (a body's assignment, a command's own variables, a
// declaration, a cd, a substitution or a here-document that does either).
func TestAssignFree(t *testing.T) {
	for src, want := range map[string]bool{
		`for f in ./testdata/*.golden; do cp "$f" ./build/ ; done`: true,
		`for f in a b; do echo "$f" > "out/$f"; cat "$f"; done`:    true,
		`for f in a b; do x=1; done`:                               false,
		`for f in a b; do X=1 make "$f"; done`:                     false,
		`for f in a b; do cd "$f"; done`:                           false,
		`for f in a b; do pushd "$f"; popd; done`:                  false,
		`for f in a b; do local x=1; done`:                         false,
		`for f in a b; do export X; done`:                          false,
		`for f in a b; do echo "$(x=1; echo)"; done`:               false,
		`for f in $(x=1; ls); do echo; done`:                       false,
		"for f in a; do cat <<EOF\n$(cd /; pwd)\nEOF\ndone":        false,
		"for f in a; do cat <<EOF\n${f} plain\nEOF\ndone":          true,
		`for f in a b; do for g in c; do x=1; done; done`:          false,
		`for f in a b; do (cd x); done`:                            false,
		`for f in a b; do echo "${x:=1}"; done`:                    false,
		`for ((i=0; i<3; i++)); do echo; done`:                     false,
		`while read -r x; do echo "$x"; done`:                      false,
		`for f in a b; do if true; then x=1; fi; done`:             false,
		`for f in a b; do echo a | cd; done`:                       false,
		`for f in a b; do echo "$f"; done # x=1`:                   true,
	} {
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		n := f.Stmts[0].Cmd
		if got := assignFree(n); got != want {
			t.Errorf("assignFree(%q) = %v, want %v", src, got, want)
		}
		if assignFree(n) && forgetsUnder(n) {
			t.Errorf("assignFree(%q) but the loop assigns or changes directory", src)
		}
	}
}

func FuzzAssignFree(f *testing.F) {
	for _, s := range []string{`for f in a; do cp "$f" b; done`, `for f in a; do x=1; done`, "for f in a; do cat <<E\n$(cd)\nE\ndone", `for f in "$@"; do cd "$f"; done`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkAssignFree(t, src)
	})
}
