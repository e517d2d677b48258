package tree

import (
	"bytes"
	"encoding/json"
	"flag"
	"github.com/toolguard/toolguard/internal/fielddoc"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
// This is the check a generator's users run: it fails when the checked-in
// output is stale.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is stale; run go test -update (-want +got):\n%s", path, diff)
	}
}

func testDefaults() TestConfig {
	return TestConfig{
		Mode:     "supervised",
		Level:    1,
		Enabled:  true,
		Timeout:  30 * time.Second,
		MaxDepth: ptr(8),
		Paths:    PathConfig{Denied: []string{"~/.ssh", "/etc/shadow"}},
		Profiles: map[string]Profile{"ci": {Mode: "strict", Budget: ptr(100)}},
	}
}

func TestFieldDocs(t *testing.T) {
	got, err := fielddoc.Read("testdata/fielddocs_src.go")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Outer":          "Outer is documented above.",
		"Outer.A":        "A has a doc comment\non two lines.",
		"Outer.B":        "B has a line comment.",
		"Outer.C":        "C and D share one.",
		"Outer.D":        "C and D share one.",
		"Outer.Nested.X": "X is inside an anonymous struct.",
		"Inner":          "Inner is in a group.",
		"Ptr":            "Ptr is embedded by pointer.",
		"Alias":          "Alias is not a struct.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := fielddoc.Read("testdata/missing.go"); err == nil {
		t.Error("a missing file should be an error")
	}
}

// TestGeneratedReference is the generate-and-compare flow: docs come from
// the Go comments in types_test.go, defaults from a Go value, and the
// schema and reference page are compared with checked-in golden files.
func TestGeneratedReference(t *testing.T) {
	docs, err := fielddoc.Read("types_test.go")
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[TestConfig]()
	schema, err := JSONSchema(typ, docs, testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "schema.golden.json", schema)
	golden(t, "config.golden.md", []byte(Markdown(typ, docs, ptr(testDefaults()))))
}

func TestJSONSchemaShape(t *testing.T) {
	raw, err := JSONSchema(reflect.TypeFor[*TestConfig](), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	props := s["properties"].(map[string]any)
	got := map[string]any{
		"closed":   s["additionalProperties"],
		"mode":     props["mode"],
		"level":    props["level"],
		"small":    props["small"],
		"levels":   props["profiles"].(map[string]any)["additionalProperties"].(map[string]any)["properties"].(map[string]any)["levels"],
		"action":   props["rules"].(map[string]any)["items"].(map[string]any)["properties"].(map[string]any)["action"],
		"comment":  props["comment"],
		"internal": props["internal"],
	}
	want := map[string]any{
		"closed":   false,
		"mode":     map[string]any{"type": "string", "enum": []any{"strict", "supervised", "full"}},
		"level":    map[string]any{"type": "string", "enum": []any{"low", "medium", "high"}},
		"small":    map[string]any{"type": "integer", "minimum": -128.0, "maximum": 127.0},
		"levels":   map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": []any{"low", "medium", "high"}}},
		"action":   map[string]any{"type": "string", "enum": []any{"allow", "ask", "deny"}},
		"comment":  map[string]any{"type": "string"},
		"internal": nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestJSONSchemaErrors(t *testing.T) {
	type recursive struct {
		Next *recursive `toml:"next"`
	}
	type badField struct {
		C chan int `toml:"c"`
	}
	tests := []struct {
		typ      reflect.Type
		defaults any
		want     string
	}{
		{reflect.TypeFor[int](), nil, "tree: a schema needs a struct type, got int"},
		{reflect.TypeFor[TestConfig](), PathConfig{}, "tree: defaults have type tree.PathConfig, want tree.TestConfig"},
		{reflect.TypeFor[recursive](), nil, "tree: recursive type tree.recursive cannot be described as a table tree"},
		{reflect.TypeFor[badField](), nil, "tree: cannot describe Go type chan int"},
	}
	for _, tt := range tests {
		_, err := JSONSchema(tt.typ, nil, tt.defaults)
		if err == nil || err.Error() != tt.want {
			t.Errorf("JSONSchema(%v) error = %v, want %s", tt.typ, err, tt.want)
		}
	}
}

// The defaults written into the schema decode back into the same values.
func TestSchemaDefaultsRoundTrip(t *testing.T) {
	def := plainValue(reflect.ValueOf(testDefaults()))
	raw, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Parse("defaults.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	var got TestConfig
	if err := Decode(n, "defaults.json", &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(testDefaults(), got, cmpOpts); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !bytes.Contains(raw, []byte(`"timeout":"30s"`)) {
		t.Errorf("durations should be written as strings: %s", raw)
	}
}
