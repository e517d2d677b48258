package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkHomeJoinMatches fails when homeJoinMatches finds other matches than
// the expression run over the whole text.
func checkHomeJoinMatches(t *testing.T, code string) {
	t.Helper()
	want := homeJoinRE.Get().FindAllStringSubmatch(code, 32)
	if diff := cmp.Diff(want, homeJoinMatches(code)); diff != "" {
		t.Errorf("homeJoinMatches(%q) differs from homeJoinRE (-want +got):\n%s", code, diff)
	}
}

func TestHomeJoinMatches(t *testing.T) {
	for _, tc := range []struct {
		code string
		want [][]string
	}{
		{"", nil},
		{"print('home')", nil},
		{`path.join(os.homedir(), ".gemini", "settings.json")`,
			[][]string{{`path.join(os.homedir(), ".gemini", "settings.json")`, "os.homedir()", `".gemini", "settings.json"`, ""}}},
		{`x = OS.PATH.JOIN(home, '.ssh', 'id_rsa'); y = Path.home() / ".aws" / "credentials"`,
			[][]string{
				{`OS.PATH.JOIN(home, '.ssh', 'id_rsa')`, "home", `'.ssh', 'id_rsa'`, ""},
				{`Path.home() / ".aws" / "credentials"`, "", "", ` / ".aws" / "credentials"`},
			}},
		{`File.join(Dir.home, ".netrc")`, [][]string{{`File.join(Dir.home, ".netrc")`, "Dir.home", `".netrc"`, ""}}},
		{`join_paths(home, "a")filepath.Join(h, "b")`,
			[][]string{{`join_paths(home, "a")`, "home", `"a"`, ""}, {`filepath.Join(h, "b")`, "h", `"b"`, ""}}},
		{`pathlib.Path("~").expanduser() / ".config"`,
			[][]string{{`Path("~").expanduser() / ".config"`, "", "", ` / ".config"`}}},
		{"paths.get(home, \"a\"\n)", [][]string{{"paths.get(home, \"a\"\n)", "home", "\"a\"\n", ""}}},
		{`path.join(home, "ſ")`, [][]string{{`path.join(home, "ſ")`, "home", `"ſ"`, ""}}}, // outside ASCII: the expression runs whole
	} {
		if diff := cmp.Diff(tc.want, homeJoinMatches(tc.code)); diff != "" {
			t.Errorf("homeJoinMatches(%q) (-want +got):\n%s", tc.code, diff)
		}
		checkHomeJoinMatches(t, tc.code)
	}
}

// TestHomeJoinMatchesAsExpression builds many texts from the pieces the
// expression is made of and checks homeJoinMatches against it.
func TestHomeJoinMatchesAsExpression(t *testing.T) {
	pieces := []string{"path", "PATH", "Path", ".join", ".resolve", "os.", "file", "File", ".JOIN", "paths", ".get",
		".of", "join_", "_paths", ".home()", "(", ")", "home", "os.homedir()", "expanduser", ".expanduser()",
		"(\"~\")", "'~'", "\"", "'", ",", " ", "\t", "\n", "/", ".ssh", "x", "$", "_", ".", "ſ", "\u212A"}
	forPiecedTexts(t, pieces, 14, 3, 4, 200000, func(code string) { checkHomeJoinMatches(t, code) })
}

func FuzzHomeJoinMatches(f *testing.F) {
	for _, s := range []string{`path.join(os.homedir(), ".gemini")`, `Path.home() / "x" / 'y'`,
		`os.path.join(os.path.expanduser("~"), ".ssh", "id_rsa")path.of(home,"a")`, `File.join(Dir.home, ".netrc")`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) { checkHomeJoinMatches(t, code) })
}

// TestHomeMethodJoins: literals joined to a home expression by a method
// are a home path; joined to anything else they are not.
func TestHomeMethodJoins(t *testing.T) {
	for _, tc := range []struct {
		code string
		want []string
	}{
		{`dirs::home_dir().unwrap().join(".ssh").join("id_rsa")`, []string{"~/.ssh/id_rsa"}},
		{`let p = std::env::home_dir()?.join(".aws/credentials");`, []string{"~/.aws/credentials"}},
		{`Path::new(&home).join(".kube/config")`, []string{"~/.kube/config"}},
		{`Path.home().joinpath(".netrc")`, []string{"~/.netrc"}},
		{`pathlib.Path.home().joinpath('.cursor','hooks.json').write_text('{}')`, []string{"~/.cursor/hooks.json"}},
		{`Path.home().joinpath(".codex", "hooks.json")`, []string{"~/.codex/hooks.json"}},
		{`Path.home().joinpath(".config", "gh").joinpath("hosts.yml")`, []string{"~/.config/gh/hosts.yml"}},
		{`Path.home().joinpath(".cache", "..", "..")`, []string{"~/.cache"}},
		{`Path("build").joinpath(".cursor", "hooks.json")`, nil},
		{`FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".ssh/id_ed25519")`, []string{"~/.ssh/id_ed25519"}},
		{`Path::new(&out_dir).join("gen.rs")`, nil},
		{`home_dir().unwrap().join("../etc")`, nil},
	} {
		if diff := cmp.Diff(tc.want, homeMethodJoins(tc.code)); diff != "" {
			t.Errorf("homeMethodJoins(%q) (-want +got):\n%s", tc.code, diff)
		}
	}
}

// TestHomeTemplates: a formatted literal that starts with a home
// placeholder is a home path; a bare placeholder only when the code names
// the home directory elsewhere.
func TestHomeTemplates(t *testing.T) {
	for _, tc := range []struct {
		code      string
		namesHome bool
		want      []string
	}{
		{`format!("{}/.ssh/id_ed25519", home)`, true, []string{"~/.ssh/id_ed25519"}},
		{`format!("{}/.ssh/id_ed25519", dir)`, false, nil},
		{`f"{os.path.expanduser('~')}/.aws/credentials"`, false, nil}, // the quote inside ends the literal early
		{`f"{Path.home()}/.aws/credentials"`, false, []string{"~/.aws/credentials"}},
		{`"#{Dir.home}/.netrc"`, false, []string{"~/.netrc"}},
		{"`${os.homedir()}/.npmrc`", false, []string{"~/.npmrc"}},
		{`"\(home)/.ssh/config"`, true, []string{"~/.ssh/config"}},
		{`"%s/.netrc" % h`, true, []string{"~/.netrc"}},
		{`"{}/../etc/passwd"`, true, nil},
		{`"{}/out"`, false, nil},
		{`"{a + b}/x"`, true, nil},
	} {
		if diff := cmp.Diff(tc.want, homeTemplates(tc.code, tc.namesHome)); diff != "" {
			t.Errorf("homeTemplates(%q, %v) (-want +got):\n%s", tc.code, tc.namesHome, diff)
		}
	}
}

// TestHomeVarParts: code that joins a variable part to the home directory
// may reach each dotfile path among its literals; code that joins a
// variable to anything else, or names no dotfile, reaches none.
func TestHomeVarParts(t *testing.T) {
	for _, tc := range []struct {
		name, code string
		want       []string
	}{
		{"js template with a parameter",
			"const grab = (p) => readFileSync(`${homedir()}/${p}`, \"utf8\");\nsend({ a: grab(\".npmrc\"), b: grab(\".aws/credentials\") });",
			[]string{"~/.npmrc", "~/.aws/credentials"}},
		{"node path.join with a name", `for (const f of [".netrc", ".docker/config.json"]) out.push(fs.readFileSync(path.join(os.homedir(), f)))`,
			[]string{"~/.netrc", "~/.docker/config.json"}},
		{"python f-string", `for n in (".pypirc", ".config/gh/hosts.yml"):\n    open(f"{Path.home()}/{n}").read()`,
			[]string{"~/.pypirc", "~/.config/gh/hosts.yml"}},
		{"python os.path.join", `name = ".git-credentials"\nopen(os.path.join(os.path.expanduser("~"), name))`, []string{"~/.git-credentials"}},
		{"expanduser of a template", `p = os.path.expanduser(f"~/{rel}")\nrel = ".ssh/id_ed25519"`, []string{"~/.ssh/id_ed25519"}},
		{"pathlib divided by a name", `f = Path.home() / name\nname = ".vault-token"`, []string{"~/.vault-token"}},
		{"extensions are no files", "const p = `${os.homedir()}/${f}`;\nif (f.endsWith(\".json\") || f.endsWith(\".js\")) load(p);", nil},
		{"a variable joined to the project", `for f in (".eslintrc", ".prettierrc"):\n    open(os.path.join(root, f))`, nil},
		{"a home join of literals only", "readFileSync(`${homedir()}/.cache/x`); const e = \".eslintrc.json\";", nil},
		{"parent parts are no dotfile paths", "read(`${homedir()}/${p}`); p = \"../.ssh/id_rsa\"; q = \".a/../b\"", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, homeVarParts(tc.code)); diff != "" {
				t.Errorf("homeVarParts(%q) (-want +got):\n%s", tc.code, diff)
			}
		})
	}
}

func TestDotfilePart(t *testing.T) {
	for lit, want := range map[string]bool{
		".npmrc": true, ".aws/credentials": true, ".ssh/id_rsa": true, ".vault-token": true, ".config/gh/hosts.yml": true,
		".js": false, ".json": false, ".yaml": false, ".ssh": false, "..": false, "../x/y": false, ".a/../b": false,
		".a//b": false, ".aws/": false, "npmrc": false, ".my file": false, ".1x/y": false, "": false, ".": false,
	} {
		if got := dotfilePart(lit); got != want {
			t.Errorf("dotfilePart(%q) = %v, want %v", lit, got, want)
		}
	}
}

// TestHomeVarJoinMatchesAsExpression compares homeVarJoinMatches with
// the expression on texts pieced from its parts: templates, join calls,
// "~/" after quotes, pathlib's home, in any case, with letters the regexp
// package folds with ASCII ones.
func TestHomeVarJoinMatchesAsExpression(t *testing.T) {
	pieces := []string{"{", "}", "${", "#{", "}/", "/", "home", "HOME", "os.homedir()", "path.join", "Path.Resolve",
		"os.path.join", "filepath.Join", "paths.get", "path.of", "File.join", "join_paths", "path.home()", "Path.home()",
		"(", ")", ",", " ", "\n", "name", "p", "_x", ".", "$", `"`, "'", "`", "~/", ".joinpath(", "ſ", "\u212A", "\\(",
		"${home}/", "#{Dir.home}/", "{os.homedir()}/", "{p}", "${name}", "#{x}", "{}"}
	forPiecedTexts(t, pieces, 14, 15, 26, 100000, func(code string) {
		if diff := cmp.Diff(homeVarJoinRE.Get().FindAllStringSubmatch(code, 8), homeVarJoinMatches(code)); diff != "" {
			t.Fatalf("homeVarJoinMatches(%q) differs from homeVarJoinRE (-want +got):\n%s", code, diff)
		}
	})
}

func TestHomeVarJoin(t *testing.T) {
	for _, tc := range []struct {
		code string
		want bool
	}{
		{"`${os.homedir()}/${name}`", true},
		{`f"{home}/{p}"`, true},
		{`path.join(os.homedir(), name)`, true},
		{`File.join(Dir.home, ".claude", "settings.json")`, false}, // literals only: homeJoins reads it
		{`"~/{name}"`, true},
		{`Path.home() / name`, true},
		{`path.join(root, name)`, false},
	} {
		if got := homeVarJoin(tc.code); got != tc.want {
			t.Errorf("homeVarJoin(%q) = %v, want %v", tc.code, got, tc.want)
		}
	}
}

// TestHomeTemplateMatchesAsExpression compares homeTemplateMatches with
// the expression on texts pieced from quotes, placeholders and paths.
func TestHomeTemplateMatchesAsExpression(t *testing.T) {
	pieces := []string{`"`, "'", "`", "{", "}", "#{", "${", `\(`, ")", "%s", "home", "Dir.home", "os.homedir()",
		"/.ssh", "/", ".aws/credentials", " ", "\n", "x", "é", "$", "#", "%", "\\", `"{}/.npmrc"`, `'%s/.netrc'`}
	forPiecedTexts(t, pieces, 14, 15, 27, 100000, func(code string) {
		if diff := cmp.Diff(homeTemplateRE.Get().FindAllStringSubmatch(code, 16), homeTemplateMatches(code)); diff != "" {
			t.Fatalf("homeTemplateMatches(%q) differs from homeTemplateRE (-want +got):\n%s", code, diff)
		}
	})
}
