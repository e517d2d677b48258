package archtest

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/toolguard/toolguard"

type pkg struct {
	ImportPath string
	Dir        string
	Deps       []string
	Imports    []string
	GoFiles    []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", "-deps=false", module+"/...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// decisionPath are the library packages an embedding agent links: they
// must not pull in an HTTP server, a CLI framework or browser tooling.
var decisionPath = []string{"risk", "call", "shell", "rules", "script", "analysis", "paths", "netguard", "policy",
	"approval", "budget", "audit", "guard", "hook", "install", "sandbox", "state"}

// TestLibraryDependencies enforces DESIGN §1: library packages never
// import cobra, net/http servers or browser code; only the CLI uses cobra
// and only the server and its tests use HTTP serving and chromedp.
func TestLibraryDependencies(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		cli := strings.HasPrefix(rel, "cmd/") || strings.HasPrefix(rel, "internal/cli") || strings.HasPrefix(rel, "bench/")
		for _, d := range p.Deps {
			switch {
			case !cli && (strings.HasPrefix(d, "github.com/spf13/cobra") || strings.HasPrefix(d, "github.com/spf13/pflag")):
				t.Errorf("%s depends on %s; only the CLI may", rel, d)
			case strings.HasPrefix(d, "github.com/chromedp/"):
				t.Errorf("%s depends on %s; browser code belongs in tests only", rel, d)
			case slices.Contains(decisionPath, rel) && (d == "net/http" || strings.HasPrefix(d, "github.com/prometheus/")):
				t.Errorf("%s depends on %s; the decision path must stay free of HTTP serving", rel, d)
			}
		}
	}
}

// TestPackageDocs checks that every package has a package doc comment.
func TestPackageDocs(t *testing.T) {
	for _, p := range listPackages(t) {
		if !hasPackageDoc(t, p) {
			t.Errorf("%s has no package doc comment (add a doc.go)", p.ImportPath)
		}
	}
}

func hasPackageDoc(t *testing.T, p pkg) bool {
	fset := token.NewFileSet()
	for _, f := range p.GoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if file.Doc != nil && strings.TrimSpace(file.Doc.Text()) != "" {
			return true
		}
	}
	return false
}
