package policy_test

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/toolguard/toolguard/policy"
)

// TestFilledBuildOutputDelete: a recursive delete of a build-output name
// (out, dist, build, tmp/*, node_modules) is let through in trusted unless
// the same call first moves, copies or links files into it, the directory
// is a link rm follows, or it holds a direct entry older than itself
// (moved in across calls); real build outputs stay allowed.
func TestFilledBuildOutputDelete(t *testing.T) {
	type result struct{ Verdict, Tier, Rule string }
	filled := result{"ask", "destructive", "fs.rm-filled-output"}
	allowed := result{"allow", "execute", "mode.trusted"}
	cases := []sessionCase[result]{
		{"one call: mkdir, move in, delete", []string{"src/app.py"}, nothing,
			"mkdir out && mv src out/ && rm -rf out", false, filled},
		{"one call: rename to a build name", []string{"src/app.py"}, nothing,
			"mv src dist && rm -rf dist", false, filled},
		{"one call: git mv in", []string{"src/app.py"}, nothing,
			"mkdir out && git mv src out/ && rm -rf out", false, filled},
		{"one call: git -C . mv, renamed to a build name", []string{"src/app.py"}, nothing,
			"git -C . mv -k src dist && rm -rf dist", false, filled},
		{"one call: copy in", []string{"src/app.py"}, nothing,
			"cp -r src build/ && rm -rf build", false, filled},
		{"one call: move below, delete the parent", []string{"src/app.py"}, nothing,
			"mkdir -p build/x && mv src build/x/ && rm -rf build", false, filled},
		{"one call: move in, delete a glob of it", []string{"src/app.py"}, nothing,
			"mkdir -p tmp && mv src tmp/ ; rm -rf tmp/*", false, filled},
		{"one call: move in through cd", []string{"src/app.py"}, nothing,
			"mkdir out && cd out && mv ../src . && cd .. && rm -rf out", false, filled},
		{"one call: delete, then copy in", []string{"src/app.py", "dist/index.js"}, nothing,
			"rm -rf dist && mkdir dist && cp -r src dist/", false, allowed},
		{"one call: move out of dist, delete it", []string{"dist/app.js"}, nothing,
			"mkdir -p release && mv dist/app.js release/ && rm -rf dist", false, allowed},
		{"one call: move into another directory", []string{"src/app.py", "dist/app.js"}, nothing,
			"mkdir -p keep && mv src keep/ && rm -rf dist", false, allowed},
		{"one call: move into a session-made scratch tree", []string{"src/app.py"},
			lay("x/notes.txt"),
			"mv src x/ && rm -rf x", false, result{"ask", "destructive", "core.fs.rm-recursive"}},
		{"across calls: moved into out", []string{"src/app.py"}, move("src", "out/src"),
			"rm -rf out", false, filled},
		{"across calls: moved into node_modules", []string{"lib/index.js"},
			steps(lay("node_modules/left-pad/index.js"), move("lib", "node_modules/lib")), "rm -rf node_modules", false, filled},
		{"across calls: moved in within the slack, no session start", []string{"src/app.py"}, move("src", "out/src"),
			"rm -rf out", true, allowed},
		{"across calls: a session-made file moved in", nil,
			steps(lay("gen/a.txt"), move("gen", "out/gen")), "rm -rf out", false, allowed},
		{"a link named out to the sources, followed", []string{"src/app.py"},
			symlink("src", "out"), "rm -rf out/", false, filled},
		{"a link named out to the sources, removed", []string{"src/app.py"},
			symlink("src", "out"), "rm -rf out", false, allowed},
		{"dist a build made", []string{"src/index.ts"},
			lay("dist/index.html", "dist/assets/app.js"),
			"rm -rf dist", false, allowed},
		{"a build output from before the session", []string{"target/CACHEDIR.TAG", "target/debug/app"}, nothing,
			"rm -rf target", false, allowed},
		{"go build -o bin/app renames the binary in", []string{"main.go"},
			steps(lay(".work/exe/a.out"), move(".work/exe/a.out", "bin/app")), "rm -rf bin", false, allowed},
		{"pnpm: links at the top, old hard links deeper", []string{"store/f1"},
			steps(lay("node_modules/.modules.yaml", "node_modules/.pnpm/pkg@1/node_modules/pkg/"),
				hardLink("store/f1", "node_modules/.pnpm/pkg@1/node_modules/pkg/index.js"),
				symlink(".pnpm/pkg@1/node_modules/pkg", "node_modules/pkg")),
			"rm -rf node_modules", false, allowed},
		// the birth-time lookups of one call are bounded (5,000), shared
		// by its operands: past them, a build output is any recursive
		// delete
		{"a big build output within the call's lookups", entries("dist", 3000), nothing,
			"rm -rf dist", false, allowed},
		{"two big build outputs past the call's lookups", append(entries("dist", 3000), entries("build", 3000)...), nothing,
			"rm -rf dist build", false, filled},
	}
	runSessionCases(t, cases, func(d policy.Decision) result {
		return result{d.Verdict.String(), d.Tier.String(), d.Rule}
	})
}

// entries names n files in dir.
func entries(dir string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = filepath.Join(dir, "f"+strconv.Itoa(i))
	}
	return out
}
