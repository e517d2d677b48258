package condition

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// emptyEnv gives every test variable its zero value.
func emptyEnv() env {
	e := env{}
	for name, t := range testVars() {
		switch t {
		case Bool:
			e[name] = false
		case Int:
			e[name] = 0
		case String:
			e[name] = ""
		case StringList:
			e[name] = []string(nil)
		}
	}
	return e
}

// FuzzCompile checks that Compile never panics, that its errors carry a
// position inside the source, and that whatever compiles evaluates
// without panicking, the same way twice. The seed corpus is in
// testdata/fuzz/FuzzCompile.
func FuzzCompile(f *testing.F) {
	f.Add(`"terraform" in names && any(paths, hasPrefix(#, "/srv"))`)
	vars := testVars()
	envs := []env{testEnv(), emptyEnv()}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := Compile(src, vars)
		if err != nil {
			var cerr *Error
			if !errors.As(err, &cerr) {
				t.Fatalf("Compile(%q) error %T %v is not an *Error", src, err, err)
			}
			lines := strings.Split(src, "\n")
			if cerr.Line < 1 || cerr.Line > len(lines) || cerr.Column < 1 ||
				cerr.Column > utf8.RuneCountInString(lines[cerr.Line-1])+1 || cerr.Msg == "" {
				t.Fatalf("Compile(%q) error %q has a position outside the source: line %d, column %d", src, err, cerr.Line, cerr.Column)
			}
			return
		}
		// The tree is a tree: no node is shared (shared operands made
		// nested comparison chains exponential) and none is over the limit.
		n, perr := parse(src)
		if perr != nil {
			t.Fatalf("parse(%q) = %v after Compile succeeded", src, perr)
		}
		seen := map[*node]bool{}
		var walk func(*node)
		walk = func(n *node) {
			if seen[n] {
				t.Fatalf("parse(%q) shares the node %s", src, sexpr(n))
			}
			seen[n] = true
			for _, a := range n.args {
				walk(a)
			}
		}
		walk(n)
		if len(seen) > MaxNodes {
			t.Fatalf("parse(%q) made %d nodes", src, len(seen))
		}
		for _, e := range envs {
			got, err := p.Eval(e)
			if err != nil && strings.Contains(err.Error(), "evaluation failed") {
				t.Fatalf("Eval(%q) panicked: %v", src, err)
			}
			if err != nil && got {
				t.Fatalf("Eval(%q) = true with error %v", src, err)
			}
			again, err2 := p.Eval(e)
			if again != got || fmt.Sprint(err) != fmt.Sprint(err2) {
				t.Fatalf("Eval(%q) = %v, %v then %v, %v", src, got, err, again, err2)
			}
		}
	})
}
