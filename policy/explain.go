package policy

import (
	"context"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// Explanation is the full reasoning behind a decision: the parse of a
// shell command, what the rule packs said of each simple command, and the
// decision itself.
type Explanation struct {
	// Script is the parse of the command; nil for non-shell calls.
	Script *shell.Script `json:"-"`
	// Commands holds each simple command after unwrapping with the rule
	// packs' result for it.
	Commands []ExplainedCommand `json:"commands,omitempty"`
	// Decision is what Decide returns for the call.
	Decision Decision `json:"decision"`
}

// ExplainedCommand is one simple command and its classification.
type ExplainedCommand struct {
	Command *shell.Command `json:"-"`
	Result  rules.Result   `json:"-"`
	// Tier is the command's tier as the decision counts it: the rule
	// packs' tier, raised to execute for a high-risk program (rm, curl,
	// ssh, …) that does more than print its help.
	Tier risk.Tier `json:"-"`
	// Raised names the high-risk program that raised Tier; empty when
	// nothing did.
	Raised string `json:"-"`
}

// Explain decides the call and returns the reasoning.
func (p *Policy) Explain(ctx context.Context, c call.Call) Explanation {
	p = p.ForAgent(c.Who.Agent)
	x := Explanation{Decision: p.Decide(ctx, c)}
	if c.Kind != call.Shell {
		return x
	}
	work := shell.NewBudget(workLimit) // the same bound as Decide's
	x.Script, _ = shell.Parse(c.Command, shell.Options{Home: p.home, Env: map[string]string{"HOME": p.home, "PWD": c.Dir()}, Budget: work})
	if x.Script == nil {
		return x
	}
	for _, cmd := range x.Script.Commands {
		r, ok := analysis.Classify(p.rules, cmd, work)
		if !ok {
			break // the decision says the command is too complex
		}
		ec := ExplainedCommand{Command: cmd, Result: r}
		ec.Tier = ec.Result.Tier
		if p.highRisk[cmd.Name] && ec.Tier < risk.Execute && !ec.Result.HelpOnly {
			ec.Tier, ec.Raised = risk.Execute, cmd.Name
		}
		x.Commands = append(x.Commands, ec)
	}
	return x
}
