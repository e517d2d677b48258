package lazyre_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/toolguard/toolguard/internal/lazyre"
)

func ExampleRegexp() {
	var version = lazyre.Regexp{Expr: `^v([0-9]+)$`} // compiled by the first Get
	fmt.Println(version.Get().FindStringSubmatch("v2")[1])
	// Output: 2
}

func TestGetConcurrent(t *testing.T) {
	re := lazyre.Regexp{Expr: `a+b`}
	var wg sync.WaitGroup
	got := make([]*regexp.Regexp, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = re.Get() }()
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] || !g.MatchString("aab") {
			t.Fatalf("Get gave %p and %p, or a wrong expression", g, got[0])
		}
	}
}

// TestEveryExpressionCompiles reads every lazyre.Regexp literal of the
// module's packages and compiles its Expr: Get panics on a bad expression,
// and a program only reaches some of them, so the tests must reach all.
// An Expr this test cannot work out (not string literals joined by +, or
// another such variable's Expr) fails it, so no expression goes unchecked.
func TestEveryExpressionCompiles(t *testing.T) {
	if n := len(moduleExpressions(t)); n < 20 {
		t.Fatalf("found %d lazyre.Regexp literals; the module declares more than 20", n)
	}
}

// moduleExpressions returns the Expr of every lazyre.Regexp literal of
// the module's packages, each compiled (checkFile).
func moduleExpressions(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var exprs []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		exprs = append(exprs, checkFile(t, path)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return exprs
}

// checkFile compiles the Expr of each lazyre.Regexp literal in one file
// and returns those it compiled.
func checkFile(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	exprs := map[string]string{} // variables' Exprs, for one built on another
	var out []string
	ast.Inspect(f, func(node ast.Node) bool {
		spec, ok := node.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, v := range spec.Values {
			lit, ok := v.(*ast.CompositeLit)
			if !ok || !isRegexpType(lit.Type) {
				continue
			}
			expr, ok := literalExpr(lit, exprs)
			if !ok {
				t.Errorf("%s: %s: cannot work out its Expr; write it as string literals joined by +", path, spec.Names[i].Name)
				continue
			}
			if _, err := regexp.Compile(expr); err != nil {
				t.Errorf("%s: %s: %v", path, spec.Names[i].Name, err)
			}
			exprs[spec.Names[i].Name] = expr
			out = append(out, expr)
		}
		return false
	})
	return out
}

func isRegexpType(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "lazyre" && sel.Sel.Name == "Regexp"
}

func literalExpr(lit *ast.CompositeLit, vars map[string]string) (string, bool) {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if key, isIdent := kv.Key.(*ast.Ident); ok && isIdent && key.Name == "Expr" {
			return stringValue(kv.Value, vars)
		}
	}
	return "", false
}

func stringValue(e ast.Expr, vars map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		a, okA := stringValue(e.X, vars)
		b, okB := stringValue(e.Y, vars)
		return a + b, okA && okB && e.Op == token.ADD
	case *ast.ParenExpr:
		return stringValue(e.X, vars)
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok || e.Sel.Name != "Expr" {
			return "", false
		}
		s, ok := vars[x.Name]
		return s, ok
	}
	return "", false
}
