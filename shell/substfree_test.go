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
