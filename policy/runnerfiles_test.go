package policy_test

import "testing"

// TestTreeDeletersInScripts checks the deletes package.json scripts run
// from node_modules/.bin (rimraf, del-cli) and through shx: a home in their
// operands denies in every mode, the build outputs they usually clean are
// allowed in trusted.
func TestTreeDeletersInScripts(t *testing.T) {
	pkg := func(script string) []corpusFileSpec {
		return []corpusFileSpec{{Path: "package.json", Content: `{"name":"w","scripts":{"clean":` + script + `}}`}}
	}
	runDiskCases(t, []diskCase{
		{"rimraf of the home after the outputs", "npm run clean", pkg(`"rimraf build $HOME"`),
			[3]string{"deny", "deny", "deny"}, "package.json"},
		{"rimraf of a home path with a tilde", "yarn clean", pkg(`"rimraf ~/ coverage"`),
			[3]string{"deny", "deny", "deny"}, ""},
		{"del-cli of the home", "npm run clean", pkg(`"del-cli lib ~"`),
			[3]string{"deny", "deny", "deny"}, ""},
		{"shx rm -rf of the home", "pnpm run clean", pkg(`"shx rm -rf out ~"`),
			[3]string{"deny", "deny", "deny"}, ""},
		{"rimraf of the outputs", "npm run clean", pkg(`"rimraf dist coverage .nyc_output && tsc -p ."`),
			[3]string{"ask", "allow", "allow"}, ""},
		{"del-cli of a glob of outputs", "npm run clean", pkg(`"del-cli \"packages/*/lib\""`),
			[3]string{"ask", "allow", "allow"}, ""},
		{"shx rm -rf of the outputs", "npm run clean", pkg(`"shx rm -rf dist"`),
			[3]string{"ask", "allow", "allow"}, ""},
	})
}
