package policy_test

import (
	"github.com/toolguard/toolguard/internal/fielddoc"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/tree"
	"github.com/toolguard/toolguard/policy"
)

// generated lists the files produced from the Config type and its doc
// comments; TestGeneratedFiles fails when one is stale (regenerate with
// `go test ./policy -run TestGeneratedFiles -update`).
func generated(t *testing.T) map[string][]byte {
	t.Helper()
	docs, err := fielddoc.Read("config.go")
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[policy.Config]()
	schema, err := tree.JSONSchema(typ, docs, policy.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	intro, err := os.ReadFile("reference_intro.md")
	if err != nil {
		t.Fatal(err)
	}
	md := append(intro, tree.Markdown(typ, docs, policy.Defaults())...)
	return map[string][]byte{
		"schema.json":       schema,
		"reference.md":      md,
		"../docs/config.md": md,
	}
}

func TestGeneratedFiles(t *testing.T) {
	for name, want := range generated(t) {
		if *update {
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%v (regenerate with -update)", err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s is stale; run `go test ./policy -run TestGeneratedFiles -update` (-want +got):\n%s", name, diff)
		}
	}
}
