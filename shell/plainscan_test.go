package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// hasIndirectionUnder reports whether a walk of word, as indirections
// makes it, meets a parameter expansion its visitor can act on (${!x}).
func hasIndirectionUnder(word *syntax.Word) bool {
	found := false
	syntax.Walk(word, func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok && p.Excl {
			found = true
		}
		return !found
	})
	return found
}

// checkPlainScan parses src and, for every word plainScan answers, fails
// unless the answer is scanWord's and indirections' walk would act on
// nothing, in four states: $HOME and $PWD known from the options, from the
// state, unknown, and only $HOME known. It returns how many words plainScan
// answered and how many it left to the walks.
func checkPlainScan(t *testing.T, src string) (answered, left int) {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return 0, 0
	}
	type setup struct {
		opts Options
		vars map[string]string
	}
	setups := []setup{
		{opts: Options{Home: "/home/u", Env: map[string]string{"PWD": "/w"}}},
		{vars: map[string]string{"HOME": "/h", "PWD": "/p"}},
		{},
		{opts: Options{Home: "/home/u"}},
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		word, ok := n.(*syntax.Word)
		if !ok {
			return true
		}
		for i, s := range setups {
			w := newWalker(src, s.opts)
			st := w.newState()
			for k, v := range s.vars {
				st.set(k, value{str: v, known: true})
			}
			got, ok := w.plainScan(word, st)
			if !ok {
				if i == 0 {
					left++
				}
				continue
			}
			if i == 0 {
				answered++
			}
			text := src[word.Pos().Offset():word.End().Offset()]
			if want := w.scanWord(word, st); got != want {
				t.Errorf("setup %d, plainScan(%q) = %+v, scanWord gives %+v", i, text, got, want)
			}
			if hasIndirectionUnder(word) || hasSubstUnder(word) {
				t.Errorf("plainScan answered %q, which holds a ${!x} or a substitution", text)
			}
		}
		return true
	})
	return answered, left
}

// TestPlainScan: the words plainScan answers (literals, quotes, plain
// parameters, $HOME and $PWD known or not, globs, backslashes) get
// scanWord's answer, and the words with ${!x}, a substitution, an index, a
// default, an arithmetic expansion or an extended glob are left to the
// walks.
func TestPlainScan(t *testing.T) {
	for src, want := range map[string]bool{
		`a`: true, `'a b'`: true, `"a b"`: true, `$f`: true, `${f}`: true, `"$f"`: true, `"x${f}y$g"`: true,
		`a"$b"'c'`: true, `$'a\nb'`: true, `*.go`: true, `a\*b`: true, `"*.go"`: true, `$HOME/x`: true,
		`"$PWD"/x`: true, `${#HOME}`: true, `"$@"`: true, `~/x`: true, `[ab]`: true,
		`${!f}`: false, `"${!f}"`: false, `${!f*}`: false, `"$(ls)"`: false, "`ls`": false, `$(ls)`: false,
		`<(ls)`: false, `${f:-x}`: false, `${a[1]}`: false, `$((1+2))`: false, `@(a|b)`: false,
		`${HOME:-/h}`: false,
	} {
		full := "shopt -s extglob\necho " + src
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(full), "")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		word := f.Stmts[1].Cmd.(*syntax.CallExpr).Args[1]
		w := newWalker(full, Options{})
		if _, got := w.plainScan(word, w.newState()); got != want {
			t.Errorf("plainScan(%s) answers: %v, want %v", src, got, want)
		}
		checkPlainScan(t, full)
	}
	answered, left := checkPlainScan(t, `#!/bin/bash
ROOT="$(cd "$(dirname "$0")" && pwd)"
for f in ./testdata/*.golden; do cp "$f" "$ROOT/build/" ; done
n=x; echo "${!n}" $HOME "$PWD" ~/'a b' a\ b\*c
diff <(sort a) >(tee b) "${x:-$(date)}" ${arr[$(id -u)]} "${v//$(whoami)/x}" '$(not)' "\$(not)"
echo "$((n + $(wc -l < f)))" $'\n' `+"`uname`"+` "$@" ${#v}`)
	if answered == 0 || left == 0 {
		t.Errorf("answered %d, left %d: the script should have both", answered, left)
	}
}

func FuzzPlainScan(f *testing.F) {
	for _, s := range []string{`cp "$f" ./build/`, `echo "${!x}" $HOME "$PWD"/a`, `a=$(b) c "${d[$(e)]}"`, `x\* '*' "*"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkPlainScan(t, src)
	})
}
