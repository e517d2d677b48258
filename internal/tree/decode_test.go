package tree

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const fullTOML = `comment = "top"
mode = "strict"
level = "high"
color = "blue"
enabled = true
workers = 4
small = -12
count = 65535
ratio = 0.25
timeout = "1m30s"
max_depth = 7
extra = { a = 1, b = ["x", true] }

[paths]
denied = ["~/.ssh", "/etc/shadow"]
roots = []

[profiles.public]
comment = "for the web"
mode = "full"
levels = ["low", "medium"]
budget = 10

[profiles.ci]
budget = 0

[[rules]]
tool = "Bash"
action = "deny"

[[rules]]
action = "ask"

[labels]
"team.name" = "core"
`

const fullYAML = `comment: top
mode: strict
level: high
color: blue
enabled: true
workers: 4
small: -12
count: 65535
ratio: 0.25
timeout: 1m30s
max_depth: 7
extra: {a: 1, b: [x, true]}
paths:
  denied: [~/.ssh, /etc/shadow]
  roots: []
profiles:
  public:
    comment: for the web
    mode: full
    levels: [low, medium]
    budget: 10
  ci:
    budget: 0
rules:
  - tool: Bash
    action: deny
  - action: ask
labels:
  team.name: core
`

const fullJSON = `{
  "comment": "top",
  "mode": "strict",
  "level": "high",
  "color": "blue",
  "enabled": true,
  "workers": 4,
  "small": -12,
  "count": 65535,
  "ratio": 0.25,
  "timeout": "1m30s",
  "max_depth": 7,
  "extra": {"a": 1, "b": ["x", true]},
  "paths": {"denied": ["~/.ssh", "/etc/shadow"], "roots": []},
  "profiles": {
    "public": {"comment": "for the web", "mode": "full", "levels": ["low", "medium"], "budget": 10},
    "ci": {"budget": 0}
  },
  "rules": [{"tool": "Bash", "action": "deny"}, {"action": "ask"}],
  "labels": {"team.name": "core"}
}`

func fullWant() TestConfig {
	return TestConfig{
		Common:   Common{Comment: "top"},
		Mode:     "strict",
		Level:    2,
		Color:    "blue",
		Enabled:  true,
		Workers:  4,
		Small:    -12,
		Count:    65535,
		Ratio:    0.25,
		Timeout:  90 * time.Second,
		MaxDepth: ptr(7),
		Extra:    map[string]any{"a": int64(1), "b": []any{"x", true}},
		Paths:    PathConfig{Denied: []string{"~/.ssh", "/etc/shadow"}, Roots: []string{}},
		Profiles: map[string]Profile{
			"public": {Common: Common{Comment: "for the web"}, Mode: "full", Levels: []Level{0, 1}, Budget: ptr(10)},
			"ci":     {Budget: ptr(0)},
		},
		Rules:  []Rule{{Tool: "Bash", Action: "deny"}, {Action: "ask"}},
		Labels: map[string]string{"team.name": "core"},
	}
}

var cmpOpts = cmp.AllowUnexported(TestConfig{})

func TestDecodeSameDocumentInEveryFormat(t *testing.T) {
	for file, doc := range map[string]string{"c.toml": fullTOML, "c.yaml": fullYAML, "c.json": fullJSON} {
		t.Run(file, func(t *testing.T) {
			n, err := Parse(file, []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			var got TestConfig
			meta, err := DecodeMeta(n, file, &got)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(fullWant(), got, cmpOpts); diff != "" {
				t.Errorf("decoded config (-want +got):\n%s", diff)
			}
			wantPaths := []string{
				"color", "comment", "count", "enabled", "extra", "labels", `labels."team.name"`, "level",
				"max_depth", "mode", "paths", "paths.denied", "paths.denied[0]", "paths.denied[1]", "paths.roots",
				"profiles", "profiles.ci", "profiles.ci.budget", "profiles.public", "profiles.public.budget",
				"profiles.public.comment", "profiles.public.levels", "profiles.public.levels[0]",
				"profiles.public.levels[1]", "profiles.public.mode", "ratio", "rules", "rules[0]",
				"rules[0].action", "rules[0].tool", "rules[1]", "rules[1].action", "small", "timeout", "workers",
			}
			if diff := cmp.Diff(wantPaths, meta.Paths()); diff != "" {
				t.Errorf("meta paths (-want +got):\n%s", diff)
			}
			for _, p := range meta.Paths() {
				if n.At(p) == nil {
					t.Errorf("At(%q) = nil for a path Meta recorded", p)
				}
			}
		})
	}
}

func TestMetaHas(t *testing.T) {
	n, err := Parse("m.toml", []byte("[profiles.public]\nmode = \"full\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var c TestConfig
	meta, err := DecodeMeta(n, "m.toml", &c)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		"profiles": true, "profiles.public": true, "profiles.public.mode": true,
		"profiles.public.budget": false, "mode": false, "": false,
	} {
		if got := meta.Has(path); got != want {
			t.Errorf("Has(%q) = %v, want %v", path, got, want)
		}
	}
}

// Decoding over a value that already holds a lower layer changes only what
// the document sets.
func TestDecodeLayersOverExistingValues(t *testing.T) {
	base := TestConfig{
		Mode:     "supervised",
		Workers:  2,
		Paths:    PathConfig{Denied: []string{"/a", "/b"}, Roots: []string{"/w"}},
		Profiles: map[string]Profile{"public": {Mode: "strict", Budget: ptr(5)}, "ci": {Mode: "full"}},
	}
	doc := "workers = 8\n[paths]\ndenied = [\"/c\"]\n[profiles.public]\nmode = \"full\"\n"
	n, err := Parse("layer.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := Decode(n, "layer.toml", &base); err != nil {
		t.Fatal(err)
	}
	want := TestConfig{
		Mode:     "supervised",
		Workers:  8,
		Paths:    PathConfig{Denied: []string{"/c"}, Roots: []string{"/w"}},
		Profiles: map[string]Profile{"public": {Mode: "full", Budget: ptr(5)}, "ci": {Mode: "full"}},
	}
	if diff := cmp.Diff(want, base, cmpOpts); diff != "" {
		t.Errorf("layered config (-want +got):\n%s", diff)
	}
}

func TestDecodeNullClearsNillable(t *testing.T) {
	doc := `{"max_depth": null, "labels": null, "rules": null, "extra": null}`
	n, err := Parse("n.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := TestConfig{MaxDepth: ptr(3), Labels: map[string]string{"a": "b"}, Rules: []Rule{{}}, Extra: 1}
	if err := Decode(n, "n.json", &c); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(TestConfig{}, c, cmpOpts); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

var topKeys = []string{
	"color", "comment", "count", "enabled", "extra", "labels", "level", "max_depth", "mode",
	"paths", "profiles", "ratio", "rules", "small", "timeout", "workers",
}

func TestDecodeErrors(t *testing.T) {
	modes := []string{"strict", "supervised", "full"}
	levels := []string{"low", "medium", "high"}
	tests := []struct {
		name, file, doc string
		want            Errors
	}{
		{
			name: "unknown key with suggestion",
			file: "a.toml", doc: "mdoe = \"strict\"\n",
			want: Errors{{File: "a.toml", Line: 1, Col: 1, Path: "mdoe", Msg: `unknown key; did you mean "mode"?`, Valid: topKeys}},
		},
		{
			name: "unknown key without suggestion",
			file: "a.toml", doc: "[paths]\nxyzzy_quux = 1\n",
			want: Errors{{File: "a.toml", Line: 2, Col: 1, Path: "paths.xyzzy_quux", Msg: "unknown key", Valid: []string{"denied", "roots"}}},
		},
		{
			name: "case-insensitive suggestion",
			file: "a.yaml", doc: "Mode: strict\n",
			want: Errors{{File: "a.yaml", Line: 1, Col: 1, Path: "Mode", Msg: `unknown key; did you mean "mode"?`, Valid: topKeys}},
		},
		{
			name: "many errors at once in every table",
			file: "a.toml",
			doc: `mode = "supervise"
workers = "4"
enabled = 1
small = 300
count = -1
ratio = "half"
timeout = "3 minutes"
level = "hgh"
color = "green"

[paths]
denied = "/etc"
rootz = []

[profiles.public]
levels = ["low", 7]
budget = 1.5

[[rules]]
action = "forbid"
`,
			want: Errors{
				{File: "a.toml", Line: 1, Col: 8, Path: "mode", Msg: `invalid value "supervise"; did you mean "supervised"?`, Valid: modes},
				{File: "a.toml", Line: 2, Col: 11, Path: "workers", Msg: `expected integer, got string "4"`},
				{File: "a.toml", Line: 3, Col: 11, Path: "enabled", Msg: "expected bool, got integer 1"},
				{File: "a.toml", Line: 4, Col: 9, Path: "small", Msg: "300 is out of range for int8 (-128 to 127)"},
				{File: "a.toml", Line: 5, Col: 9, Path: "count", Msg: "-1 is out of range for uint16 (0 to 65535)"},
				{File: "a.toml", Line: 6, Col: 9, Path: "ratio", Msg: `expected float, got string "half"`},
				{File: "a.toml", Line: 7, Col: 11, Path: "timeout", Msg: `invalid duration "3 minutes": use a number with a unit, such as "30s", "2m" or "1h30m", or an integer number of seconds`},
				{File: "a.toml", Line: 8, Col: 9, Path: "level", Msg: `invalid value "hgh"; did you mean "high"?`, Valid: levels},
				{File: "a.toml", Line: 9, Col: 9, Path: "color", Msg: `unknown color "green" (valid: red, blue)`},
				{File: "a.toml", Line: 12, Col: 10, Path: "paths.denied", Msg: `expected list of string, got string "/etc"`},
				{File: "a.toml", Line: 13, Col: 1, Path: "paths.rootz", Msg: `unknown key; did you mean "roots"?`, Valid: []string{"denied", "roots"}},
				{File: "a.toml", Line: 16, Col: 18, Path: "profiles.public.levels[1]", Msg: "expected string, got integer 7", Valid: levels},
				{File: "a.toml", Line: 17, Col: 10, Path: "profiles.public.budget", Msg: "expected integer, got float 1.5"},
				{File: "a.toml", Line: 20, Col: 10, Path: "rules[0].action", Msg: `invalid value "forbid"`, Valid: []string{"allow", "ask", "deny"}},
			},
		},
		{
			name: "yaml positions and types",
			file: "a.yml",
			doc:  "paths:\n  denied:\n    - /etc\n    - {x: 1}\nprofiles: [a]\ntimeout: 2.5\n",
			want: Errors{
				{File: "a.yml", Line: 4, Col: 7, Path: "paths.denied[1]", Msg: "expected string, got table"},
				{File: "a.yml", Line: 5, Col: 11, Path: "profiles", Msg: "expected table of table, got list"},
				{File: "a.yml", Line: 6, Col: 10, Path: "timeout", Msg: "expected duration, got float 2.5"},
			},
		},
		{
			name: "json positions and null",
			file: "a.json",
			doc:  "{\n  \"mode\": null,\n  \"rules\": [{\"tool\": \"x\", \"actoin\": \"deny\"}]\n}",
			want: Errors{
				{File: "a.json", Line: 2, Col: 11, Path: "mode", Msg: "expected string, got null"},
				{File: "a.json", Line: 3, Col: 27, Path: "rules[0].actoin", Msg: `unknown key; did you mean "action"?`, Valid: []string{"action", "tool"}},
			},
		},
		{
			name: "quoted keys in paths",
			file: "a.toml", doc: "[profiles.\"my agent\"]\nmode = 1\n",
			want: Errors{{File: "a.toml", Line: 2, Col: 8, Path: `profiles."my agent".mode`, Msg: "expected string, got integer 1", Valid: modes}},
		},
		{
			name: "yaml 1.1 booleans are strings; long values are shortened",
			file: "a.yaml", doc: "enabled: yes\ncomment: 7\nworkers: " + strings.Repeat("é", 50) + "\n",
			want: Errors{
				{File: "a.yaml", Line: 1, Col: 10, Path: "enabled", Msg: `expected bool, got string "yes"`},
				{File: "a.yaml", Line: 2, Col: 10, Path: "comment", Msg: "expected string, got integer 7"},
				{File: "a.yaml", Line: 3, Col: 10, Path: "workers", Msg: `expected integer, got string "` + strings.Repeat("é", 37) + `..."`},
			},
		},
		{
			name: "unexported and skipped fields are not keys",
			file: "a.json", doc: `{"hidden": 1, "internal": "x"}`,
			want: Errors{
				{File: "a.json", Line: 1, Col: 2, Path: "hidden", Msg: "unknown key", Valid: topKeys},
				{File: "a.json", Line: 1, Col: 15, Path: "internal", Msg: "unknown key", Valid: topKeys},
			},
		},
		{
			name: "root must be a table",
			file: "a.json", doc: "[1]",
			want: Errors{{File: "a.json", Line: 1, Col: 1, Msg: "expected table, got list"}},
		},
		{
			name: "duration seconds out of range",
			file: "a.toml", doc: "timeout = 9223372036854775807\n",
			want: Errors{{File: "a.toml", Line: 1, Col: 11, Path: "timeout", Msg: "9223372036854775807 seconds is out of range for a duration"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := Parse(tt.file, []byte(tt.doc))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			var c TestConfig
			err = Decode(n, tt.file, &c)
			got, _ := err.(Errors)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s\ngot text:\n%v", diff, err)
			}
		})
	}
}

func TestDecodeDurationForms(t *testing.T) {
	for doc, want := range map[string]time.Duration{
		"timeout = 30":        30 * time.Second,
		"timeout = \"30s\"":   30 * time.Second,
		"timeout = \"2m\"":    2 * time.Minute,
		"timeout = \"250ms\"": 250 * time.Millisecond,
		"timeout = 0":         0,
	} {
		n, err := Parse("d.toml", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		var c TestConfig
		if err := Decode(n, "d.toml", &c); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if c.Timeout != want {
			t.Errorf("%s: got %v, want %v", doc, c.Timeout, want)
		}
	}
}

func TestDecodeNeedsPointer(t *testing.T) {
	n := &Node{Kind: Map}
	var c TestConfig
	err := Decode(n, "x.toml", c)
	want := "x.toml: internal error: Decode needs a non-nil pointer, got tree.TestConfig"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestErrorText(t *testing.T) {
	es := Errors{
		{File: "b.toml", Line: 2, Col: 1, Path: "x", Msg: "unknown key", Valid: []string{"a", "b"}},
		{File: "a.toml", Line: 9, Col: 3, Path: "y.z", Msg: "expected string, got integer"},
		{File: "a.toml", Line: 1, Msg: "invalid TOML: oops"},
		{File: "c.toml", Msg: "unknown config file extension"},
	}
	es.Sort()
	want := "a.toml:1: invalid TOML: oops\n" +
		"a.toml:9:3: y.z: expected string, got integer\n" +
		"b.toml:2:1: x: unknown key (valid: a, b)\n" +
		"c.toml: unknown config file extension"
	if got := es.Error(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestSuggest(t *testing.T) {
	keys := []string{"denied", "roots", "allowed_commands", "mode"}
	for word, want := range map[string]string{
		"denid": "denied", "DENIED": "denied", "root": "roots", "allowed_command": "allowed_commands",
		"mod": "mode", "zzzzzz": "", "": "", "allowedcommands": "allowed_commands",
	} {
		if got := Suggest(word, keys); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"MaxDepth": "max_depth", "HTTPProxy": "http_proxy", "ID": "id", "Mode": "mode", "V2Rules": "v2_rules",
	} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLoad(t *testing.T) {
	var c TestConfig
	meta, err := Load("l.yaml", []byte("workers: 3\n"), &c)
	if err != nil || c.Workers != 3 || !meta.Has("workers") {
		t.Errorf("Load = %v, %+v, %v", err, c, meta.Paths())
	}
	_, err = Load("l.yaml", []byte("workers: [\n"), &c)
	want := "l.yaml:2: invalid YAML: did not find expected node content"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	var bad map[int]string
	err = Decode(&Node{Kind: Map, Line: 1, Col: 1}, "k.toml", &bad)
	want = "k.toml:1:1: internal error: cannot decode into Go type map[int]string: map keys must be strings"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}
