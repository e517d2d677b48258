package policy_test

import (
	"context"
	"github.com/google/go-cmp/cmp"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// TestSummaryMatchesDecide checks every sentence of the summary against
// Decide, in every preset, attended and unattended: the summary goes into
// agents' system prompts, and it once said force pushes were refused
// whatever the mode while supervised asked and full allowed them.
func TestSummaryMatchesDecide(t *testing.T) {
	for _, mode := range policy.Modes() {
		for _, unattended := range []bool{false, true} {
			p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: mode, Unattended: unattended}}, policy.Options{Home: "/home/ada"})
			if err != nil {
				t.Fatal(err)
			}
			name := mode
			if unattended {
				name += "/unattended"
			}
			t.Run(name, func(t *testing.T) { checkSummary(t, p) })
		}
	}
}

func checkSummary(t *testing.T, p *policy.Policy) {
	ws := p.SummaryWorkspace()
	decideIn := func(c call.Call) risk.Verdict {
		c.Cwd, c.Workspace = ws, ws
		return p.Decide(context.Background(), c).Verdict
	}
	verdictOf := map[string]risk.Verdict{
		"run without asking": risk.Allow, "need a person's approval": risk.Ask, "refused": risk.Deny,
		"refused (no one can approve in this session)": risk.Deny,
		"Refused in this mode":                         risk.Deny, "Need a person's approval in this mode": risk.Ask, "Allowed in this mode": risk.Allow,
	}
	tierCalls := map[string]call.Call{
		"read":        {Kind: call.Read, Tool: "Read", Paths: []string{ws + "/README.md"}},
		"write":       {Kind: call.Write, Tool: "Write", Paths: []string{ws + "/notes.md"}},
		"execute":     {Kind: call.Shell, Tool: "Bash", Command: "python3 tool.py"},
		"destructive": {Kind: call.Shell, Tool: "Bash", Command: "git clean -fdx"},
	}
	seen := map[string]int{}
	for _, line := range strings.Split(p.Summary(), "\n") {
		item, ok := strings.CutPrefix(line, "- ")
		if !ok {
			continue
		}
		head, rest, _ := strings.Cut(item, ": ")
		rest = strings.TrimSuffix(rest, ".")
		switch {
		case strings.HasSuffix(head, " actions"):
			tier := strings.TrimSuffix(head, " actions")
			want, ok := verdictOf[rest]
			if !ok {
				t.Errorf("unknown action text %q", rest)
				continue
			}
			if got := decideIn(tierCalls[tier]); got != want {
				t.Errorf("%q, but Decide(%s call) = %s", line, tier, got)
			}
		case strings.HasSuffix(head, "in this mode"):
			want := verdictOf[head]
			for _, what := range strings.Split(rest, "; ") {
				ex, ok := example(what)
				if !ok {
					t.Errorf("%q names %q, which is not a summary example", line, what)
					continue
				}
				seen[what]++
				if got := p.Decide(context.Background(), p.SummaryCall(ex)).Verdict; got != want {
					t.Errorf("%q, but Decide(%s) = %s", head+": "+what, ex.Command, got)
				}
			}
		case head == "Never read or write":
			for _, c := range []call.Call{
				{Kind: call.Read, Tool: "Read", Paths: []string{"/home/ada/.ssh/id_rsa"}},
				{Kind: call.Read, Tool: "Read", Paths: []string{"/home/ada/.aws/credentials"}},
				{Kind: call.Write, Tool: "Write", Paths: []string{ws + "/.env"}},
				{Kind: call.Write, Tool: "Write", Paths: []string{ws + "/server.key"}},
			} {
				if got := decideIn(c); got != risk.Deny {
					t.Errorf("%q, but Decide(%s %s) = %s", head, c.Tool, c.Paths[0], got)
				}
			}
		case strings.HasPrefix(item, "Files may only be written inside the workspace"):
			for _, path := range []string{"/etc/hosts", "/home/ada/notes.md"} {
				if got := decideIn(call.Call{Kind: call.Write, Tool: "Write", Paths: []string{path}}); got != risk.Deny {
					t.Errorf("%q, but Decide(Write %s) = %s", item, path, got)
				}
			}
		}
	}
	for _, ex := range policy.SummaryExamples {
		if seen[ex.What] != 1 {
			t.Errorf("the summary names %q %d times, want once", ex.What, seen[ex.What])
		}
	}
}

func example(what string) (policy.SummaryExample, bool) {
	for _, ex := range policy.SummaryExamples {
		if ex.What == what {
			return ex, true
		}
	}
	return policy.SummaryExample{}, false
}

// TestSummaryListsUserRules: the summary names the user's rules, so that
// a model told "tests need approval" is also told which ones the user
// allowed, and what the user refuses.
func TestSummaryListsUserRules(t *testing.T) {
	p := mustCompile(t, &policy.Settings{Rules: []policy.Rule{
		{ID: "no-prod", Action: "deny", Argv: []string{"kubectl", "**"}, When: `any(commands, # matches "--context[= ]prod")`, Reason: "Production is changed through the deploy pipeline."},
		{ID: "tests", Action: "allow", Argv: []string{"go", "test", "**"}},
		{ID: "fetch-docs", Action: "allow", Tools: []string{"WebFetch"}, Hosts: []string{"pkg.go.dev"}},
		{ID: "npm", Action: "ask", Command: "Bash(npm publish:*)"},
	}})
	var got []string
	for _, line := range strings.Split(p.Summary(), "\n") {
		if strings.HasPrefix(line, "  - ") || strings.HasPrefix(line, "- Rules") || strings.Contains(line, "own code and tests") {
			got = append(got, line)
		}
	}
	want := []string{
		"- Need a person's approval in this mode: force pushes; discarding uncommitted work; commands whose parts cannot be known before they run (eval of variables, command substitution as a command name); running the project's own code and tests (such as make test).",
		"- Rules of this policy, which take precedence over the lines above (a refusal stays refused):",
		`  - Commands kubectl … when any(commands, # matches "--context[= ]prod") are refused (rule no-prod): Production is changed through the deploy pipeline.`,
		"  - Commands go test … run without asking (in a compound command, only those commands: the others are judged as usual) (rule tests).",
		"  - Tools WebFetch, hosts pkg.go.dev run without asking (rule fetch-docs).",
		"  - Tools Bash, commands npm publish:* need a person's approval (rule npm).",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
}
