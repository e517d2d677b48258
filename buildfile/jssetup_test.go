package buildfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestResolveJSSetup: the files a test runner's configuration names to run
// before the tests (vitest's globalSetup and setupFiles, jest's setup and
// teardown files with <rootDir>, Playwright's globalSetup, mocha's
// require) are steps after the configuration, in Node's language, found
// with the extension Node would try; a package's name, a name that is not
// a literal and a file that does not exist add nothing, and one that
// cannot be read is a problem.
func TestResolveJSSetup(t *testing.T) {
	const (
		vitestCfg = "export default defineConfig({\n  test: {\n    globalSetup: [\"./test/global-setup.ts\"],\n" +
			"    setupFiles: ['./test/setup', \"@testing-library/jest-dom\"],\n  },\n});\n"
		setup   = "export default function setup() { process.env.TZ = \"UTC\"; }\n"
		jestCfg = "module.exports = {\n  globalSetup: \"<rootDir>/scripts/jest-global.js\",\n" +
			"  setupFilesAfterEnv: [\"<rootDir>/jest.setup.js\"],\n  testEnvironment: \"node\",\n};\n"
		pwCfg    = "export default defineConfig({\n  globalSetup: require.resolve('./e2e/global-setup'),\n  use: {},\n});\n"
		mochaCfg = "module.exports = { require: ['test/hooks.js', 'ts-node/register'], spec: 'test/**/*.spec.js' };\n"
		varCfg   = "const s = './test/setup.ts';\nexport default { test: { setupFiles: [s, `./${dir}/x.ts`] } };\n"
	)
	node := func(file, text, dir string) Step { return Step{File: file, Text: text, Lang: "node", Dir: dir} }
	tests := []struct {
		name  string
		dir   string
		args  []string
		files fakeFiles
		want  Plan
	}{
		{name: "vitest: globalSetup and setupFiles, relative to the directory, the extension tried",
			dir: "/w/app", args: []string{"vitest", "run"},
			files: fakeFiles{"/w/app/vitest.config.ts": vitestCfg, "/w/app/test/global-setup.ts": setup, "/w/app/test/setup.js": setup},
			want: Plan{Runner: "vitest",
				Read: []string{"/w/app/vitest.config.ts", "/w/app/test/global-setup.ts", "/w/app/test/setup.js"},
				Steps: []Step{node("/w/app/vitest.config.ts", vitestCfg, "/w/app"), node("/w/app/test/global-setup.ts", setup, "/w/app"),
					node("/w/app/test/setup.js", setup, "/w/app")}}},
		{name: "pnpm vitest with no script of the name: the project's vitest",
			dir: "/w/app", args: []string{"pnpm", "vitest", "run", "--reporter=dot"},
			files: fakeFiles{"/w/app/package.json": `{"scripts": {"test": "vitest run"}}`, "/w/app/vitest.config.ts": vitestCfg,
				"/w/app/test/global-setup.ts": setup},
			want: Plan{Runner: "vitest", Read: []string{"/w/app/package.json", "/w/app/vitest.config.ts", "/w/app/test/global-setup.ts"},
				Steps: []Step{node("/w/app/vitest.config.ts", vitestCfg, "/w/app"), node("/w/app/test/global-setup.ts", setup, "/w/app")}}},
		{name: "yarn vitest when a script has the name: the script",
			dir: "/w/app", args: []string{"yarn", "vitest"},
			files: fakeFiles{"/w/app/package.json": `{"scripts": {"vitest": "vitest --watch=false"}}`, "/w/app/vitest.config.ts": vitestCfg},
			want: Plan{Runner: "yarn", Read: []string{"/w/app/package.json"},
				Steps: []Step{{File: "/w/app/package.json", Line: 1, Text: "vitest --watch=false", Lang: Shell, Dir: "/w/app"}}}},
		{name: "vitest --config elsewhere: still the command's directory",
			dir: "/w/app", args: []string{"vitest", "--config", "cfg/v.config.ts"},
			files: fakeFiles{"/w/app/cfg/v.config.ts": vitestCfg, "/w/app/test/global-setup.ts": setup},
			want: Plan{Runner: "vitest", Read: []string{"/w/app/cfg/v.config.ts", "/w/app/test/global-setup.ts"},
				Steps: []Step{node("/w/app/cfg/v.config.ts", vitestCfg, "/w/app"), node("/w/app/test/global-setup.ts", setup, "/w/app")}}},
		{name: "jest: <rootDir> is the configuration's directory",
			dir: "/w/app/pkg", args: []string{"jest", "-c", "../jest.config.js"},
			files: fakeFiles{"/w/app/jest.config.js": jestCfg, "/w/app/scripts/jest-global.js": setup, "/w/app/jest.setup.js": setup},
			want: Plan{Runner: "jest", Read: []string{"/w/app/jest.config.js", "/w/app/scripts/jest-global.js", "/w/app/jest.setup.js"},
				Steps: []Step{node("/w/app/jest.config.js", jestCfg, "/w/app/pkg"), node("/w/app/scripts/jest-global.js", setup, "/w/app/pkg"),
					node("/w/app/jest.setup.js", setup, "/w/app/pkg")}}},
		{name: "playwright: require.resolve's literal, relative to the configuration",
			dir: "/w/app", args: []string{"playwright", "test"},
			files: fakeFiles{"/w/app/playwright.config.ts": pwCfg, "/w/app/e2e/global-setup.ts": setup},
			want: Plan{Runner: "playwright", Read: []string{"/w/app/playwright.config.ts", "/w/app/e2e/global-setup.ts"},
				Steps: []Step{node("/w/app/playwright.config.ts", pwCfg, "/w/app"), node("/w/app/e2e/global-setup.ts", setup, "/w/app")}}},
		{name: "mocha: a project file required, a package left",
			dir: "/w/app", args: []string{"mocha"},
			files: fakeFiles{"/w/app/.mocharc.js": mochaCfg, "/w/app/test/hooks.js": setup},
			want: Plan{Runner: "mocha", Read: []string{"/w/app/.mocharc.js", "/w/app/test/hooks.js"},
				Steps: []Step{node("/w/app/.mocharc.js", mochaCfg, "/w/app"), node("/w/app/test/hooks.js", setup, "/w/app")}}},
		{name: "names that are no literals are not followed",
			dir: "/w/app", args: []string{"vitest"},
			files: fakeFiles{"/w/app/vitest.config.ts": varCfg, "/w/app/test/setup.ts": setup},
			want: Plan{Runner: "vitest", Read: []string{"/w/app/vitest.config.ts"},
				Steps: []Step{node("/w/app/vitest.config.ts", varCfg, "/w/app")}}},
		{name: "a setup file that does not exist adds nothing",
			dir: "/w/app", args: []string{"vitest"},
			files: fakeFiles{"/w/app/vitest.config.ts": vitestCfg},
			want: Plan{Runner: "vitest", Read: []string{"/w/app/vitest.config.ts"},
				Steps: []Step{node("/w/app/vitest.config.ts", vitestCfg, "/w/app")}}},
		{name: "a setup file that cannot be read is a problem",
			dir: "/w/app", args: []string{"vitest"},
			files: fakeFiles{"/w/app/vitest.config.ts": vitestCfg, "/w/app/test/global-setup.ts": "\x00"},
			want: Plan{Runner: "vitest", Read: []string{"/w/app/vitest.config.ts"},
				Steps:    []Step{node("/w/app/vitest.config.ts", vitestCfg, "/w/app")},
				Problems: []Problem{{File: "/w/app/test/global-setup.ts", Reason: "permission denied"}}}},
		{name: "vite runs no tests: no setup files",
			dir: "/w/app", args: []string{"vite", "build"},
			files: fakeFiles{"/w/app/vite.config.ts": vitestCfg, "/w/app/test/global-setup.ts": setup},
			want: Plan{Runner: "vite", Read: []string{"/w/app/vite.config.ts"},
				Steps: []Step{node("/w/app/vite.config.ts", vitestCfg, "/w/app")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(Invocation{Name: tt.args[0], Args: tt.args[1:], Dir: tt.dir, Home: "/h"}, tt.files)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Plan{}, "Size")); diff != "" {
				t.Errorf("Resolve(%q) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

// TestJSSetupNames checks the setup files read from a configuration's
// text: a string, a list, a call's literal, quoted keys, a longer key
// that only starts with one, and what is no path of the project.
func TestJSSetupNames(t *testing.T) {
	keys := []string{"globalSetup", "setupFiles"}
	for _, c := range []struct {
		text string
		want []string
	}{
		{`{ globalSetup: "./g.ts" }`, []string{"./g.ts"}},
		{`{ "globalSetup" : './g.ts', setupFiles: ["./a.ts", './b.ts'] }`, []string{"./g.ts", "./a.ts", "./b.ts"}},
		{"{ setupFiles: [\n  \"./a.ts\",\n  \"./b.ts\",\n] }", []string{"./a.ts", "./b.ts"}},
		{`{ globalSetup: path.join(__dirname, "test/g.ts") }`, []string{"test/g.ts"}},
		{`{ setupFilesAfterEnv: ["./x.ts"] }`, nil},
		{`{ setupFiles: ["dotenv/config", "@scope/pkg/setup.ts", "jsdom", "/abs/s.js"] }`, []string{"/abs/s.js"}},
		{`{ globalSetup: setupFile }`, nil},
		{"// globalSetup is not used\n{ globalSetup: \"./g.ts\", globalSetup: \"./g.ts\" }", []string{"./g.ts"}},
		{`{ globalSetup: "./unclosed`, nil},
	} {
		if diff := cmp.Diff(c.want, jsSetupNames(c.text, keys)); diff != "" {
			t.Errorf("jsSetupNames(%q) (-want +got):\n%s", c.text, diff)
		}
	}
}

// FuzzJSSetup: any configuration text gives a bounded list of setup names,
// each a path of the project, and a bounded plan.
func FuzzJSSetup(f *testing.F) {
	f.Add("export default { test: { globalSetup: ['./g.ts'], setupFiles: \"./s\" } }")
	f.Add("module.exports = { setupFilesAfterEnv: ['<rootDir>/x.js'], globalSetup: require.resolve(\"./y\") }")
	f.Add("{ globalSetup: `./${x}`, setupFiles: [ 'a\\'b', \"c\\\" ]")
	f.Fuzz(func(t *testing.T, text string) {
		names := jsSetupNames(text, jsTools["jest"].setup)
		if len(names) > maxSetupNames {
			t.Fatalf("%d names, more than maxSetupNames", len(names))
		}
		for _, n := range names {
			if !isSetupPath(n) {
				t.Fatalf("%q is no setup path", n)
			}
		}
		fs := fakeFiles{"/w/vitest.config.ts": text, "/w/g.ts": "x"}
		checkPlan(t, Resolve(Invocation{Name: "vitest", Dir: "/w"}, fs))
	})
}
