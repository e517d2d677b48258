package policy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/policy"
)

// TestPackageRunnerStartsItsCommand: npx, bunx, pnpm dlx, yarn dlx and npm
// exec start the package's program with the words after it, judged as if
// typed; -c code is shell code.
func TestPackageRunnerStartsItsCommand(t *testing.T) {
	p := mustCompile(t, &policy.Settings{Mode: policy.ModeFull})
	tests := []struct {
		cmd  string
		want string
	}{
		{"npx rimraf ~", "deny"},
		{"npx --yes rimraf ~/", "deny"},
		{"bunx del-cli ~", "deny"},
		{"pnpm dlx shx rm -rf ~", "deny"},
		{"yarn dlx rimraf $HOME", "deny"},
		{"npm exec -- rimraf ~", "deny"},
		{"npm x rimraf ~", "deny"},
		{"npx -c 'rm -rf ~'", "deny"},
		{"npx -p rimraf -c 'rimraf ~'", "deny"},
		// near misses
		{"npx rimraf dist", "allow"},
		{"npx tsc --noEmit", "allow"},
		{"pnpm dlx create-vite app --template react", "allow"},
		{"npm exec -- eslint .", "allow"},
		{"npm test", "allow"},
	}
	for _, tc := range tests {
		got := decide(t, p, "Bash", bash(tc.cmd))
		if diff := cmp.Diff(tc.want, got.Verdict); diff != "" {
			t.Errorf("%s: %v (-want +got):\n%s", tc.cmd, got, diff)
		}
	}
}
