package policy

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// hashSource is one way of arriving at a policy: a policy file (its name
// gives the format) and TOOLGUARD_* variables.
type hashSource struct {
	file, text string
	env        []string
}

// loadHash loads src as `toolguard` does (a --config file and the
// environment) and returns the policy's hash.
func loadHash(t *testing.T, src hashSource, opts Options) string {
	t.Helper()
	lo := LoadOptions{Environ: src.env}
	if src.file != "" {
		lo.ConfigFile = filepath.Join(t.TempDir(), src.file)
		if err := os.WriteFile(lo.ConfigFile, []byte(src.text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	loaded, err := Load(lo)
	if err != nil {
		t.Fatalf("load %+v: %v", src, err)
	}
	p, err := Compile(loaded.Config, opts)
	if err != nil {
		t.Fatalf("compile %+v: %v", src, err)
	}
	return p.Hash()
}

var hashForm = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// TestHash: two loads of the same settings, however they are written, have
// one hash; a changed setting has another.
func TestHash(t *testing.T) {
	const base = "mode = \"trusted\"\n[paths]\ndenied = [\"~/secret/**\"]\n"
	for _, tc := range []struct {
		name string
		a, b hashSource
		same bool
	}{
		{"the same file loaded twice",
			hashSource{file: "p.toml", text: base}, hashSource{file: "p.toml", text: base}, true},
		{"comments and layout only",
			hashSource{file: "p.toml", text: base},
			hashSource{file: "q.toml", text: "# mine\nmode   =   \"trusted\"   # trusted\n\n[paths]\n  denied = [\n    \"~/secret/**\",\n  ]\n"}, true},
		{"TOML and JSON of the same settings",
			hashSource{file: "p.toml", text: base},
			hashSource{file: "p.json", text: `{"paths": {"denied": ["~/secret/**"]}, "mode": "trusted"}`}, true},
		{"a file setting and the same setting from the environment",
			hashSource{file: "p.toml", text: base},
			hashSource{file: "p.toml", text: "[paths]\ndenied = [\"~/secret/**\"]\n", env: []string{"TOOLGUARD_MODE=trusted"}}, true},
		{"a default spelled out (workspace_only, write_outside)",
			hashSource{},
			hashSource{file: "p.toml", text: "mode = \"supervised\"\n[paths]\nwrite_outside = \"ask\"\n"}, true},
		{"no file and an empty file",
			hashSource{}, hashSource{file: "p.toml", text: ""}, true},
		{"the mode",
			hashSource{file: "p.toml", text: base},
			hashSource{file: "p.toml", text: "mode = \"strict\"\n[paths]\ndenied = [\"~/secret/**\"]\n"}, false},
		{"one more denied path",
			hashSource{file: "p.toml", text: base},
			hashSource{file: "p.toml", text: "mode = \"trusted\"\n[paths]\ndenied = [\"~/secret/**\", \"~/other\"]\n"}, false},
		{"the order of a list",
			hashSource{file: "p.toml", text: "[network]\nallowed_domains = [\"a.example\", \"b.example\"]\n"},
			hashSource{file: "p.toml", text: "[network]\nallowed_domains = [\"b.example\", \"a.example\"]\n"}, false},
		{"the approval timeout",
			hashSource{}, hashSource{file: "p.toml", text: "[approval]\ntimeout = \"300s\"\n"}, false},
		{"unattended from the environment",
			hashSource{}, hashSource{env: []string{"TOOLGUARD_UNATTENDED=true"}}, false},
		{"a user rule's reason",
			hashSource{file: "p.toml", text: "[[rules]]\nid = \"no-prod\"\naction = \"deny\"\ncommand = \"deploy prod\"\nreason = \"a\"\n"},
			hashSource{file: "p.toml", text: "[[rules]]\nid = \"no-prod\"\naction = \"deny\"\ncommand = \"deploy prod\"\nreason = \"b\"\n"}, false},
		{"a disabled rule",
			hashSource{}, hashSource{file: "p.toml", text: "[commands]\ndisable_rules = [\"git.push-force\"]\n"}, false},
		{"a profile's setting",
			hashSource{file: "p.toml", text: "[profiles.ci]\nmode = \"strict\"\n"},
			hashSource{file: "p.toml", text: "[profiles.ci]\nmode = \"readonly\"\n"}, false},
		{"which agent picks a profile",
			hashSource{file: "p.toml", text: "[profiles.ci]\nmode = \"strict\"\n[agents.codex]\nprofile = \"ci\"\n"},
			hashSource{file: "p.toml", text: "[profiles.ci]\nmode = \"strict\"\n[agents.cursor]\nprofile = \"ci\"\n"}, false},
		{"an audit setting",
			hashSource{}, hashSource{file: "p.toml", text: "[audit]\nkeep = 9\n"}, false},
		{"the [state] of two replicas of one fleet",
			hashSource{file: "p.toml", text: "[state]\nurl = \"postgres://a@db1/tg\"\nreplica = \"r1\"\n"},
			hashSource{file: "p.toml", text: "[state]\nurl = \"postgres://b@db2/tg\"\nreplica = \"r2\"\n"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := loadHash(t, tc.a, Options{}), loadHash(t, tc.b, Options{})
			for _, h := range []string{a, b} {
				if !hashForm.MatchString(h) {
					t.Fatalf("hash %q does not have the form sha256:<64 hex digits>", h)
				}
			}
			if diff := cmp.Diff(tc.same, a == b); diff != "" {
				t.Errorf("same hash (-want +got):\n%s\n%s\n%s", diff, a, b)
			}
		})
	}
}

// TestHashLeavesOutTheMachine: what Options supplies (the home directory,
// toolguard's own files, approval ports) is where the process runs, not
// the policy.
func TestHashLeavesOutTheMachine(t *testing.T) {
	src := hashSource{file: "p.toml", text: "mode = \"strict\"\n"}
	want := loadHash(t, src, Options{})
	got := loadHash(t, src, Options{Home: "/home/other", Protected: []string{"/etc/toolguard/**"}, Denied: []string{"/run/token"}, ApprovalPorts: []int{9999}, Programs: []string{"/opt/toolguard"}})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hash (-plain options +other machine):\n%s", diff)
	}
}

// TestHashProfilesAndTighten: each profile, and each tightened copy, has a
// hash of its own; the same profile or tightening has the same hash.
func TestHashProfilesAndTighten(t *testing.T) {
	cfg := func() *Config {
		c := &Config{Profiles: map[string]*Settings{"ci": {Mode: "strict"}, "ro": {Mode: "readonly"}, "ci2": {Mode: "strict"}},
			Agents: map[string]AgentConfig{"codex": {Profile: "ci"}, "cursor": {Profile: "ro"}}}
		c.Mode = "trusted"
		return c
	}
	p, err := Compile(cfg(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := Compile(cfg(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	layer := Layer{Name: "request policy", Format: "json", Data: []byte(`{"paths":{"denied":["/srv/**"]}}`)}
	tp, err := p.Tighten(layer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tq, err := q.Tighten(layer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := func(p *Policy) string { return p.Hash() }
	for _, tc := range []struct {
		name string
		a, b string
		same bool
	}{
		{"two compilations", h(p), h(q), true},
		{"an agent without a profile", h(p.ForAgent("claude-code")), h(p), true},
		{"an agent's profile and the top level", h(p.ForAgent("codex")), h(p), false},
		{"ForAgent and Profile of one profile", h(p.ForAgent("codex")), h(q.Profile("ci")), true},
		{"two agents' different profiles", h(p.ForAgent("codex")), h(p.ForAgent("cursor")), false},
		{"two profiles with the same settings and different names", h(p.Profile("ci")), h(p.Profile("ci2")), false},
		{"a tightened copy and its policy", h(tp), h(p), false},
		{"the same tightening twice", h(tp), h(tq), true},
	} {
		if diff := cmp.Diff(tc.same, tc.a == tc.b); diff != "" {
			t.Errorf("%s: same hash (-want +got):\n%s", tc.name, diff)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = p.Hash() }); n != 0 {
		t.Errorf("Hash allocates %v times once computed, want 0", n)
	}
}

// TestHashEncodesEveryConfigField: every field of Config has a kind the
// canonical encoder writes (Hash would panic on a func, channel, complex
// number or interface).
func TestHashEncodesEveryConfigField(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type, path string) []string
	walk = func(typ reflect.Type, path string) []string {
		if seen[typ] || typ == timeType {
			return nil
		}
		seen[typ] = true
		switch typ.Kind() {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return nil
		case reflect.Pointer, reflect.Slice, reflect.Array:
			return walk(typ.Elem(), path+"[]")
		case reflect.Map:
			return append(walk(typ.Key(), path+"{key}"), walk(typ.Elem(), path+"{}")...)
		case reflect.Struct:
			var bad []string
			for i := range typ.NumField() {
				if f := typ.Field(i); f.IsExported() {
					bad = append(bad, walk(f.Type, path+"."+f.Name)...)
				}
			}
			return bad
		}
		return []string{path + ": " + typ.String()}
	}
	if diff := cmp.Diff([]string(nil), walk(reflect.TypeFor[Config](), "Config")); diff != "" {
		t.Errorf("fields the hash cannot encode (-want +got):\n%s", diff)
	}
}

// BenchmarkHash measures hashing the default policy (done once per
// process, for the audit records).
func BenchmarkHash(b *testing.B) {
	loaded, err := Load(LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	p, err := Compile(loaded.Config, Options{Home: "/home/u"})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = p.computeHash()
	}
}
