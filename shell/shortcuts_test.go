package shell

import (
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// shortcutSources are scripts that exercise the walk's shortcuts (quoted
// literal words, the arithmetic text filter) and their neighbours, which
// must take the slow path.
var shortcutSources = []string{
	`echo "built tool7 into bin/ for the integration tests"`,
	`echo 'a b' "c d" e"f g"h 'i'"j" --name="x y" ""`,
	`echo "" '' "a""b" $'x\ty' $"loc" "a\"b" "a\$b" 'a\b' "a\\b"`,
	`X="a b"; echo "$X" "x$X" '$X' "~" "*" '*' a"*" ~"x" {a,b}"c" "{a,b}" a"b"{c,d}`,
	`cat > "out file" < 'in file'; cp "$f" ./build/; cd "dir one" && ls "x"`,
	`for f in "a b" 'c d'; do cp "$f" "./build/$f"; done`,
	`export A="1 2"; env B='3' C="4" bash -c "echo 'hi'; rm -rf \"/tmp/x\""`,
	`IFS=/; echo "a/b" a/b 'c/d'`,
	`echo $(( 1 + 2 )) $[3] "$((4))"; (( x = 1 )); let y=2; for ((i=0;i<2;i++)); do :; done`,
	`x='a[$(touch F)]'; echo $(( x )); [[ $x -eq 1 ]]; echo ${a[$x]} ${!x}`,
	`x='a[$(id)]'; let y=x`,
	`x='a[$(id)]'; [[ $x -eq 1 ]]`,
	"l\\\net x='a[$(id)]' y=x; echo $(\\\n( y ))",
	`eval "echo 'nested'"; ssh host "rm -rf '/srv/x'"; sh <<'EOF'` + "\nrm -rf \"/\"\nEOF\n",
	"cat <<EOF\n\"quoted\" 'text' $HOME\nEOF\n",
	`export PWD; pushd /tmp; popd; cd /; cd -; ls; declare -x A=1; A=2 env; unset A; env; export -n A; env`,
	`export X=1; if a; then export Y=2; fi; for i in 1 2; do export Z=$i; done; env | cat`,
	`"rm" -rf '/'; 'r'"m" -rf "/"; echo "a"'b'"c"'d'"e"`,
	// quotedVar: one plain variable in double quotes, and its neighbours
	`f='./testdata/*.golden'; cp "$f" ./build/; cp "${f}" $f ${f} "$f"x "x$f" "$f$f"`,
	`E=; cat "$E" "${E}" $E; S='a  b'; rm "$S" $S "${S:-x}" "${#S}" "${S%b}" "${!S}"`,
	`a=(x 'y z'); cp "$a" "${a}" "${a[1]}" "${a[@]}" "$@" "$*" "$#" "$?" "$$" "$0" "$1" "${10}" "$-" "$!" "$_"`,
	`for f in ./testdata/*.golden; do cp "$f" ./build/ ; done; for g in a 'b c'; do rm "$g"; done`,
	`cat "$HOME" "$PWD" "$TMPDIR" "$UNSET" "$IFS"; cd /srv; cat "$PWD" "$OLDPWD"`,
	`f=$(find ~ -name hosts.yml); cat "$f"; g=$(id); cat "$g"; h=$X; cat "$h"` + "\ncat <<EOF\n\"$f\" \"$h\"\nEOF\n",
	`set -u; x=1; echo "$x" "$y"; declare -n r=x; echo "$r"; export P="a b"; env "$P"`,
	`v='$(id)'; sh -c "$v"; w='*'; ls "$w"; t='~'; cat "$t"; q='"'; echo "$q"; b='a\b'; echo "$b"`,
}

// parseBoth parses src with the shortcuts and with the slow paths, on
// budgets of limit units.
func parseBoth(t *testing.T, src string, opts Options, limit int) (fast, slow *Script, fastUsed, slowUsed int, fastErr, slowErr error) {
	t.Helper()
	defer func() { slowPaths = false }()
	run := func(slowOn bool) (*Script, int, error) {
		slowPaths = slowOn
		o := opts
		o.Budget = NewBudget(limit)
		s, err := Parse(src, o)
		return s, o.Budget.Used(), err
	}
	fast, fastUsed, fastErr = run(false)
	slow, slowUsed, slowErr = run(true)
	return
}

// checkShortcuts fails when the shortcuts change anything the parse of
// src returns or the work it is charged, with budgets from tight to the
// default.
func checkShortcuts(t *testing.T, src string) {
	t.Helper()
	for _, limit := range []int{0, 40, 150, 600, 3000} {
		opts := Options{Home: "/home/u", MaxBytes: 4096, MaxCommands: 64}
		fast, slow, fu, su, fe, se := parseBoth(t, src, opts, limit)
		if fu != su {
			t.Fatalf("Parse(%q) at limit %d: work %d with shortcuts, %d without", src, limit, fu, su)
		}
		if (fe == nil) != (se == nil) || fe != nil && fe.Error() != se.Error() {
			t.Fatalf("Parse(%q) at limit %d: error %v with shortcuts, %v without", src, limit, fe, se)
		}
		for _, c := range fast.Commands {
			if c.Text() != strings.Join(c.Values(), " ") {
				t.Fatalf("Parse(%q): Text() = %q, Values %q", src, c.Text(), c.Values())
			}
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("Parse(%q) at limit %d differs with shortcuts:\n%s\nwithout:\n%s", src, limit, viewScript(fast), viewScript(slow))
		}
	}
}

func viewScript(s *Script) string {
	var b strings.Builder
	for _, c := range s.Commands {
		b.WriteString(view(c) + "\n")
		for _, w := range c.Argv {
			b.WriteString("  " + viewWord(w) + "\n")
		}
	}
	for _, p := range s.Problems {
		b.WriteString("problem: " + p.Reason + "\n")
	}
	return b.String()
}

// TestShortcutsMatchSlowPaths compares the walk with its shortcuts and
// without on the table cases of the package and on shortcutSources.
func TestShortcutsMatchSlowPaths(t *testing.T) {
	srcs := append([]string{}, shortcutSources...)
	srcs = append(srcs, benchCommands...)
	for _, cases := range [][]parseCase{constructCases, wordCases, wrapperCases, nestedCases, inlineCases, redirectCases, dirCases, dataCases, bypassCases} {
		for _, c := range cases {
			srcs = append(srcs, c.src)
		}
	}
	for _, src := range srcs {
		checkShortcuts(t, src)
	}
}

// TestShortcutsMatchSlowPathsCorpus compares the walk with its shortcuts
// and without on every command of the peer corpora.
func TestShortcutsMatchSlowPathsCorpus(t *testing.T) {
	n := 0
	for _, cmds := range corpusCommands(t) {
		for _, src := range cmds {
			if len(src) <= 4096 {
				checkShortcuts(t, src)
				n++
			}
		}
	}
	t.Logf("%d corpus commands", n)
}

// TestQuotedLit pins which words take the quoted-literal shortcut.
func TestQuotedLit(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string
		ok   bool
	}{
		{`"a b"`, "a b", true},
		{`'a b'`, "a b", true},
		{`x"a b"'c'`, "xa bc", true},
		{`""`, "", true},
		{`plain`, "", false},
		{`"$x"`, "", false},
		{`"a\"b"`, "", false},
		{`$'a'`, "", false},
		{`$"a"`, "", false},
		{`~"a"`, "", false},
		{`*"a"`, "", false},
		{`{a,b}"c"`, "", false},
		{`a\ "b"`, "", false},
		{`"$(x)"`, "", false},
	} {
		word := secondWord(t, "echo "+tc.src)
		got, ok := quotedLit(word)
		if got != tc.want || ok != tc.ok {
			t.Errorf("quotedLit(%s) = %q, %v; want %q, %v", tc.src, got, ok, tc.want, tc.ok)
		}
	}
}

// secondWord is the second word of the first simple command of src.
func secondWord(t *testing.T, src string) *syntax.Word {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	return f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
}

// FuzzShortcuts: the walk's shortcuts never change what Parse returns or
// the work it is charged.
func FuzzShortcuts(f *testing.F) {
	for _, src := range shortcutSources {
		f.Add(src)
	}
	for _, src := range benchCommands {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 2048 {
			return
		}
		checkShortcuts(t, src)
	})
}

// TestWordSliceApart: slices from one block never share elements, even
// when one is appended to past its capacity.
func TestWordSliceApart(t *testing.T) {
	var a Arena // a used one: blocks come back from its spares
	a.prepare()
	for _, n := range []int{60, 3, 80, 1} {
		a.words.slice(n)
	}
	a.Reset()
	for _, w := range []*walker{{}, {al: &a}} {
		if w.al == nil {
			w.al = new(Arena)
		}
		wordSliceApart(t, w)
	}
}

func wordSliceApart(t *testing.T, w *walker) {
	var got [][]Word
	for i, n := range []int{2, 3, 1, 0, 5, 40, 4, 4} {
		s := w.wordSlice(n)
		if len(s) != 0 || cap(s) != n {
			t.Fatalf("wordSlice(%d) #%d: len %d cap %d", n, i, len(s), cap(s))
		}
		for j := 0; j < n+1; j++ { // one past the capacity
			s = append(s, Word{Value: itoa(i)})
		}
		got = append(got, s)
	}
	for i, s := range got {
		for _, word := range s {
			if word.Value != itoa(i) {
				t.Fatalf("slice %d holds %q: another slice wrote into it", i, word.Value)
			}
		}
	}
}

func TestBlockSize(t *testing.T) {
	for made, want := range []int{1, 1, 2, 4, 8, 16, 16, 16} {
		if got := blockSize(made, 16); got != want {
			t.Errorf("blockSize(%d, 16) = %d, want %d", made, got, want)
		}
	}
	if got := blockSize(1000, 16); got != 16 {
		t.Errorf("blockSize(1000, 16) = %d, want 16", got)
	}
}

// TestTextIsJoinedValues: Text is strings.Join(Values(), " ").
func TestTextIsJoinedValues(t *testing.T) {
	for _, argv := range [][]string{nil, {""}, {"true"}, {"git", "status"}, {"a", "", "b c", ""}, {"", ""}} {
		c := &Command{}
		for _, v := range argv {
			c.Argv = append(c.Argv, Word{Value: v, Known: true})
		}
		if got, want := c.Text(), strings.Join(c.Values(), " "); got != want {
			t.Errorf("Text() of %q = %q, want %q", argv, got, want)
		}
	}
}
