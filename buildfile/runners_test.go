package buildfile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunnersAreResolveCases keeps runners, which lets Resolve return at
// once for any other program, the list of the names its switch handles.
func TestRunnersAreResolveCases(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "plan.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]bool{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "Resolve" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok || sw.Tag == nil {
				return true
			}
			if id, ok := sw.Tag.(*ast.Ident); !ok || id.Name != "name" {
				return true
			}
			for _, s := range sw.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					v, err := strconv.Unquote(e.(*ast.BasicLit).Value)
					if err != nil {
						t.Fatal(err)
					}
					cases[v] = true
				}
			}
			return false
		})
	}
	if len(cases) == 0 {
		t.Fatal("no switch on name found in Resolve")
	}
	if diff := cmp.Diff(cases, runners); diff != "" {
		t.Errorf("runners differ from Resolve's cases (-cases +runners):\n%s", diff)
	}
}

// TestRunsOnlyRunners: Resolve returns an empty Plan for every program
// Runs says it does not run, whatever the arguments and files.
func TestRunsOnlyRunners(t *testing.T) {
	files := fakeFiles{"/w/Makefile": "all:\n\techo hi\n", "/w/package.json": `{"scripts":{"test":"echo hi"}}`}
	for _, name := range []string{"make", "/usr/bin/make", "make.exe", "npm", "python3", "python", "go", "git", "cp", "echo", "[", "true", "grep", "pythonic", "/bin/cp"} {
		for _, args := range [][]string{nil, {"test"}, {"-m", "pytest"}, {"generate", "./..."}, {"status"}} {
			plan := Resolve(Invocation{Name: name, Args: args, Dir: "/w", Home: "/h"}, files)
			if !Runs(name) && !cmp.Equal(plan, Plan{}) {
				t.Errorf("Runs(%q) is false, but Resolve(%q %q) = %+v", name, name, args, plan)
			}
		}
	}
}
