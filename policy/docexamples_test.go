package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

var tomlBlock = regexp.MustCompile("(?s)```toml\n(.*?)```")

// docExample is the first TOML block of a Markdown file, validated as a
// policy file on its own.
func docExample(t *testing.T, file string) *policy.Policy {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m := tomlBlock.FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s has no TOML example", file)
	}
	path := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(path, m[1], 0o600); err != nil {
		t.Fatal(err)
	}
	if err := policy.ValidateFile(path); err != nil {
		t.Fatalf("the example in %s is not a valid policy:\n%v", file, err)
	}
	l, err := policy.Load(policy.LoadOptions{ConfigFile: path})
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile(l.Config, policy.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDocExamplesDoWhatTheySay: the policy examples of the README and of
// the reference are valid and decide as the text around them says (the
// README's no-prod rule used to miss `kubectl --context prod …`, and its
// tests rule every compound command).
func TestDocExamplesDoWhatTheySay(t *testing.T) {
	for _, file := range []string{"../README.md", "reference_intro.md"} {
		p := docExample(t, file)
		for cmd, want := range map[string]outcome{
			"kubectl --context prod delete pod web-1":     {"deny", "user:no-prod"},
			"kubectl --context=prod get pods":             {"deny", "user:no-prod"},
			"kubectl --context=prod-eu apply -f k8s.yaml": {"deny", "user:no-prod"},
			"kubectl --context staging get pods":          {"allow", "mode.supervised"}, // a remote read (issue 31)
			"kubectl --context staging delete pod web-1":  {"ask", "k8s.delete"},
			"go test ./...":                   {"allow", "user:tests"},
			"go test ./... 2>&1 | tail -20":   {"allow", "user:tests"},
			"cd pkg && go test ./...":         {"allow", "user:tests"},
			"go test ./... && rm -rf build":   {"ask", "mode.supervised"},
			"cat ~/work/customer-data/q3.csv": {"deny", "paths.denied"},
		} {
			c := call.Call{Kind: call.Shell, Tool: "Bash", Command: cmd, Cwd: ws, Workspace: ws}
			d := p.Decide(context.Background(), c)
			if got := (outcome{d.Verdict.String(), d.Rule}); got != want {
				t.Errorf("%s: %s: %v, want %v", file, cmd, got, want)
			}
		}
	}
}
