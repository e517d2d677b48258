package policy

import (
	"context"
	"fmt"

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
	// AllowedBy is the id of the user allow rule that covers this command
	// (its own effects are then allowed; the call's other commands are
	// judged as usual); empty when none does.
	AllowedBy string `json:"-"`
	// NotCovered says why an allow rule that matched the command's words
	// does not cover it; empty when none did or one covers it.
	NotCovered string `json:"-"`
}

// Explain decides the call and returns the reasoning.
func (p *Policy) Explain(ctx context.Context, c call.Call) Explanation {
	p = p.ForAgent(c.Who.Agent)
	if c.Kind != call.Shell {
		return Explanation{Decision: p.Decide(ctx, c)}
	}
	var x Explanation
	func() {
		defer func() {
			if r := recover(); r != nil {
				x = Explanation{Decision: p.internalError(fmt.Errorf("%v", r))}
			}
		}()
		e := p.newEvaluation(ctx, &c, nil)
		e.run()
		x.Decision = e.decide()
		x.Script = e.script
		x.Commands = e.explained()
	}()
	return x
}

// explained lists the script's simple commands as the evaluation judged
// them (up to the first it had no budget for, or the first after the
// decision was settled: see Decision.Findings).
func (e *evaluation) explained() []ExplainedCommand {
	if e.script == nil {
		return nil
	}
	byCmd := make(map[*shell.Command]int, len(e.records))
	for i := range e.records {
		byCmd[e.records[i].cmd] = i
	}
	results := make(map[*shell.Command]rules.Result, len(e.records))
	for _, c := range e.an.Report(e.script).Commands {
		results[c.Cmd] = c.Result
	}
	var out []ExplainedCommand
	for _, cmd := range e.script.Commands {
		i, ok := byCmd[cmd]
		if !ok {
			break // the decision says the command is too complex
		}
		r := &e.records[i]
		ec := ExplainedCommand{Command: cmd, Result: results[cmd], AllowedBy: r.coveredBy}
		if r.coveredBy == "" {
			ec.NotCovered = r.uncoveredBy
		}
		ec.Tier = ec.Result.Tier
		if e.p.highRisk[cmd.Name] && ec.Tier < risk.Execute && !provenRead(&ec.Result) {
			ec.Tier, ec.Raised = risk.Execute, cmd.Name
		}
		out = append(out, ec)
	}
	return out
}
