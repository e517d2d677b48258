package paths

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

func TestComponentsMeet(t *testing.T) {
	for _, c := range []struct {
		shell, pattern string
		want           bool
	}{
		{"*", "id_rsa", true},
		{"*", ".env", false}, // a wildcard never matches a leading dot
		{".*", ".env", true},
		{".??*", ".env", true},
		{".[!.]*", ".env", true},
		{"?env", ".env", false},
		{"id_*", "id_rsa", true},
		{"id_*", "*.pub", true},
		{"*.log", "*.pem", false},
		{"*.pem", "*.pem", true},
		{"serve.t*", "*.token", true},
		{"serve.t?", "*.pem", false},
		{"[a-c]*", "credentials*", true},
		{"[!c]*", "credentials", false},
		{"*", "*", true},
		{"x", "*", true},
		{"*.go", "*_test.go", true},
	} {
		a := parseGlob(c.shell, true)[0]
		b := parseGlob(c.pattern, false)[0]
		if got := componentsMeet(a, b); got != c.want {
			t.Errorf("componentsMeet(%q, %q) = %v, want %v", c.shell, c.pattern, got, c.want)
		}
	}
}

// TestByteSets checks the counting and literal helpers every glob
// judgement calls once per atom and pattern (they used to loop over all
// 256 bytes each time).
func TestByteSets(t *testing.T) {
	for _, c := range []struct {
		glob    string
		sizes   []int
		literal string
	}{
		{"abc", []int{1, 1, 1}, "abc"},
		{"a?c", []int{1, 255, 1}, "a\x00c"}, // ? is every byte but '/'; its first is NUL
		{"[xyz]é", []int{3, 1, 1}, "xé"},
		{"[!a]\xff", []int{254, 1}, "\x00\xff"},
	} {
		comp := parseGlob(c.glob, false)[0]
		var sizes []int
		for _, a := range comp.atoms {
			sizes = append(sizes, setSize(a.set))
		}
		if len(sizes) != len(c.sizes) {
			t.Errorf("%q: %d atoms, want %d", c.glob, len(sizes), len(c.sizes))
			continue
		}
		for i := range sizes {
			if sizes[i] != c.sizes[i] {
				t.Errorf("%q: atom %d has %d bytes, want %d", c.glob, i, sizes[i], c.sizes[i])
			}
		}
		if got := literalText(comp); got != c.literal {
			t.Errorf("literalText(%q) = %q, want %q", c.glob, got, c.literal)
		}
	}
}

func TestGlobsMeet(t *testing.T) {
	for _, c := range []struct {
		a, b string
		tree bool // a is a tree
		want bool
	}{
		{"/home/dev/.ssh/id_*", "/home/dev/.ssh/**", false, true},
		{"/home/dev/*", "/home/dev/.ssh/**", false, false},
		{"/home/dev/.*", "/home/dev/.ssh/**", false, true},
		{"/home/dev", "/home/dev/.ssh/**", true, true},
		{"/home/dev/project", "/home/dev/.ssh/**", true, false},
		{"/home/dev/.local/state", "/home/dev/.local/state/toolguard/*.token", true, true},
		{"/home/dev/.local/state/toolguard/serve.t*", "/home/dev/.local/state/toolguard/*.token", false, true},
		{"/home/dev/x/*/config", "/**/.git/config", false, false},
		{"/home/dev/*/config", "/home/dev/.aws/config", false, false},
		{"/home/dev/*/hosts.yml", "/home/dev/.config/gh/hosts.yml", false, false},
		{"/home/dev/.config/*/hosts.yml", "/home/dev/.config/gh/hosts.yml", false, true},
	} {
		a := parseGlob(c.a, true)
		if c.tree {
			a = append(a, deepTail)
		}
		b := append(parseGlob(c.b, false), deepTail)
		if got := globsMeet(a, b); got != c.want {
			t.Errorf("globsMeet(%q tree=%v, %q) = %v, want %v", c.a, c.tree, c.b, got, c.want)
		}
	}
}

func TestExpandBraces(t *testing.T) {
	got, ok := expandBraces("/a/{b,c}/{d,e}.txt")
	if !ok || len(got) != 4 || got[0] != "/a/b/d.txt" || got[3] != "/a/c/e.txt" {
		t.Errorf("expandBraces = %v, %v", got, ok)
	}
	many := ""
	for range 8 {
		many += "{a,b}"
	}
	if _, ok := expandBraces(many); ok {
		t.Error("256 alternatives were expanded; want a refusal")
	}
}

// A glob or a directory tree is judged by the paths it stands for.
func TestExtensionOnlyAndSubtree(t *testing.T) {
	for _, tc := range []struct {
		glob, pattern string
		ext, subtree  bool
	}{
		{"*.json", "**/kilo.json", true, false},
		{"*.json", "**/.claude/settings.json", true, false},
		{"kilo*", "**/kilo.json", false, false},
		{"*o.json", "**/kilo.json", false, false},
		{".env*", "**/.env", false, false},
		{"*.pem", "**/*.pem", false, false},
		{"*", "**/.husky/**", false, true},
		{"pre-*", "**/.git/refs/**", false, true},
		{"*", "**/*/**", false, false},
		{"*", "~/.ssh/**", false, true},
	} {
		if got := runsOf(parseGlob(tc.glob, true)[0]).extensionOnly(tc.pattern); got != tc.ext {
			t.Errorf("extensionOnly(%q, %q) = %v, want %v", tc.glob, tc.pattern, got, tc.ext)
		}
		if got := subtreePattern(tc.pattern); got != tc.subtree {
			t.Errorf("subtreePattern(%q) = %v, want %v", tc.pattern, got, tc.subtree)
		}
	}
}

// TestGlobEntries: the entries a glob of one name matches by the shell's
// rules (no leading dot from a wildcard), sorted; not for a longer glob.
func TestGlobEntries(t *testing.T) {
	d := t.TempDir()
	for _, f := range []string{".claude/settings.json", ".cache/x", ".env", "cmd/main.go", "config.toml"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(d, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Compile(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	at := Path{Literal: d, Resolved: d}
	for glob, want := range map[string][]string{
		".c*":    {".cache", ".claude"},
		"c*":     {"cmd", "config.toml"},
		"*":      {"cmd", "config.toml"},
		".[!.]*": {".cache", ".claude", ".env"},
		"x*":     nil,
	} {
		got, ok := c.GlobEntries(at, glob, Env{Workspace: d})
		if diff := cmp.Diff(want, got); !ok || diff != "" {
			t.Errorf("GlobEntries(%q) ok=%v (-want +got):\n%s", glob, ok, diff)
		}
	}
	if _, ok := c.GlobEntries(at, "*/main.go", Env{Workspace: d}); ok {
		t.Errorf("GlobEntries of two names: ok")
	}
}

func TestCheckGlobAndTree(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".env"), []byte("K=v"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".claude", "settings.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".husky/pre-commit", ".git/refs/heads/main", ".git/objects/pack/p.pack", ".git/index.lock", "reports/run.json",
		"build/.cache/a", "build/.stamp", "build/app", "empty/.keep/x"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(project, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cfg := DefaultConfig()
	cfg.Home = home
	cfg.UserDenied = []string{"~/.local/state/toolguard/*.token"}
	cfg.Protected = append(cfg.Protected, "~/.local/state/toolguard/**")
	c, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Cwd: project, Workspace: project}
	at := func(p string) Path { return Path{Literal: p, Resolved: p} }
	for _, tc := range []struct {
		name       string
		got        []risk.Finding
		wantVerdit risk.Verdict
		wantRule   string
	}{
		{"token by glob", c.CheckGlob(at(home+"/.local/state/toolguard"), "serve.t*", Read, env), risk.Deny, RuleDenied},
		{"private key by glob", c.CheckGlob(at(home+"/.ssh"), "id_*", Read, env), risk.Deny, RuleDenied},
		{"public keys by glob", c.CheckGlob(at(home+"/.ssh"), "*.pub", Read, env), risk.Allow, ""},
		{"public keys by glob, written", c.CheckGlob(at(home+"/.ssh"), "*.pub", Write, env), risk.Deny, RuleDenied},
		{"dot env by glob", c.CheckGlob(at(project), ".env*", Read, env), risk.Deny, RuleDenied},
		{"logs by glob", c.CheckGlob(at(project), "*.log", Read, env), risk.Allow, ""},
		{"home tree", c.CheckTree(at(home), Read, env), risk.Deny, RuleDenied},
		{"state tree", c.CheckTree(at(home+"/.local/state"), Read, env), risk.Deny, RuleDenied},
		{"state tree written", c.CheckTree(at(home+"/.local/state/toolguard"), Write, env), risk.Deny, RuleSelf},
		{"claude dir moved", c.CheckTree(at(home+"/.claude"), Delete, env), risk.Deny, RuleSelf},
		{"project tree with a .env", c.CheckTree(at(project), Read, env), risk.Deny, RuleDenied},
		{"source tree", c.CheckTree(at(project+"/src"), Read, env), risk.Allow, ""},
		{"project hook dir moved", c.CheckTree(at(project+"/.claude"), Delete, env), risk.Deny, RuleSelf},
		{"project moved", c.CheckTree(at(project), Delete, env), risk.Deny, RuleSelf},
		{"source tree deleted", c.CheckTree(at(project+"/src"), Delete, env), risk.Allow, ""},
		{"the root by an empty glob, deleted", c.CheckGlob(at("/"), "", Delete, env), risk.Deny, RuleOutside},
		{"the root by an empty glob, read", c.CheckGlob(at("/"), "", Read, env), risk.Allow, ""},
		{"hooks by glob, written", c.CheckGlob(at(project+"/.husky"), "pre-*", Write, env), risk.Ask, RuleEscapeHatch},
		{"hooks by bare wildcard, deleted", c.CheckGlob(at(project+"/.husky"), "*", Delete, env), risk.Ask, RuleEscapeHatch},
		{"hooks by glob, read", c.CheckGlob(at(project+"/.husky"), "*", Read, env), risk.Allow, ""},
		{"agent commands by glob, written", c.CheckGlob(at(project), ".claude/*/*.md", Write, env), risk.Ask, RuleEscapeHatch},
		{"branch refs by glob, deleted", c.CheckGlob(at(project+"/.git/refs/heads"), "*", Delete, env), risk.Ask, RuleSensitive},
		{"packs by glob, deleted", c.CheckGlob(at(project+"/.git/objects/pack"), "*.pack", Delete, env), risk.Ask, RuleSensitive},
		{"lock files by glob, deleted", c.CheckGlob(at(project+"/.git"), "*.lock", Delete, env), risk.Allow, ""},
		{"every top entry, deleted: no dot directory", c.CheckGlob(at(project), "*", Delete, env), risk.Allow, ""},
		{"json by glob beside no settings file", c.CheckGlob(at(project+"/reports"), "*.json", Write, env), risk.Allow, ""},
		{"json by glob beside the hook settings", c.CheckGlob(at(project+"/.claude"), "*.json", Write, env), risk.Deny, RuleSelf},
		// a glob of one name in a directory that exists names what it holds
		{"hidden entries of a build output, deleted", c.CheckGlob(at(project+"/build"), ".[!.]*", Delete, env), risk.Allow, ""},
		{"hidden entries beside git hooks, deleted", c.CheckGlob(at(project), ".[!.]*", Delete, env), risk.Ask, RuleEscapeHatch},
		{"a glob matching nothing, read", c.CheckGlob(at(project+"/build"), ".e*", Read, env), risk.Allow, ""},
		{"a glob matching .env, read", c.CheckGlob(at(project), ".e*", Read, env), risk.Deny, RuleDenied},
		{"a glob in a directory not there yet", c.CheckGlob(at(project+"/nothere"), ".[!.]*", Delete, env), risk.Deny, RuleSelf},
	} {
		v, rule := risk.Allow, ""
		for _, f := range tc.got {
			if f.Verdict > v {
				v, rule = f.Verdict, f.Rule
			}
		}
		if v != tc.wantVerdit || rule != tc.wantRule {
			t.Errorf("%s: %v (%s), want %v (%s): %+v", tc.name, v, rule, tc.wantVerdit, tc.wantRule, tc.got)
		}
	}
}
