package call

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// builtinCases reads the case names of builtinTool from its source.
func builtinCases(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "builtin.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "builtinTool" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CaseClause); ok {
				for _, e := range cc.List {
					lit, ok := e.(*ast.BasicLit)
					if !ok {
						t.Fatalf("case %#v in builtinTool is not a string literal", e)
					}
					s, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatal(err)
					}
					names = append(names, s)
				}
			}
			return true
		})
	}
	if len(names) == 0 {
		t.Fatal("builtinTool has no cases (renamed?)")
	}
	slices.Sort(names)
	return names
}

// A name added to the switch but not to builtinNames would be looked up
// but missing from Names (and the other way round: listed, not found).
func TestBuiltinNamesMatchTheSwitch(t *testing.T) {
	cases := builtinCases(t)
	if diff := cmp.Diff(cases, builtinNames); diff != "" {
		t.Errorf("builtinNames differ from builtinTool's cases (-cases +builtinNames):\n%s", diff)
	}
	if !slices.IsSorted(builtinNames) || len(slices.Compact(slices.Clone(builtinNames))) != len(builtinNames) {
		t.Error("builtinNames must be sorted and without duplicates")
	}
	for _, n := range builtinNames {
		if _, ok := Default().Lookup(n); !ok {
			t.Errorf("Default().Lookup(%q) found nothing", n)
		}
	}
}

// Names lists the built-in names once, with the user's added ones, also
// when the user maps a built-in name again.
func TestNamesOfADerivedTable(t *testing.T) {
	tab, err := Default().With(map[string]Mapping{"Bash": {Kind: Read}, "my_tool": {Kind: Other}, "mcp__x__*": {Kind: Read}})
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Sorted(slices.Values(append(slices.Clone(builtinNames), "my_tool")))
	if diff := cmp.Diff(want, tab.Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"x"}, (&Table{exact: map[string]Mapping{"x": {}}}).Names()); diff != "" {
		t.Errorf("Names of a table without the built-in tools (-want +got):\n%s", diff)
	}
}

// Looking a built-in tool up allocates nothing: Normalize does it for
// every call a server decides.
func TestBuiltinLookupAllocatesNothing(t *testing.T) {
	allocs := testing.AllocsPerRun(10, func() {
		for _, n := range builtinNames {
			if _, ok := builtinTool(n); !ok {
				t.Fatalf("builtinTool(%q) not found", n)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("looking up every built-in tool allocated %v times, want 0", allocs)
	}
}
