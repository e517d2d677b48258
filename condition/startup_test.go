package condition_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoInitAndStdlibOnly checks the package's start-up contract: no
// package-level variables or init functions (nothing runs when a program
// that links it starts) and only standard-library imports.
func TestNoInitAndStdlibOnly(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
				t.Errorf("%s imports %s; only the standard library is allowed", name, path)
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "init" {
					t.Errorf("%s: func init runs at start-up", fset.Position(d.Pos()))
				}
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					t.Errorf("%s: package-level var may run code at start-up; use a function or a const", fset.Position(d.Pos()))
				}
			}
		}
	}
}
