package policy

import (
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Summary is the text an agent puts in its system prompt so the model knows
// the rules before it acts (as ZeroClaw's prompt_summary): the mode, the
// workspace boundary, roots, command lists, denied paths and limits.
func (p *Policy) Summary() string {
	var b strings.Builder
	c := p.cfg
	fmt.Fprintf(&b, "Tool calls are checked by toolguard in the %q mode:\n", p.mode)
	for t := risk.Read; t <= risk.Destructive; t++ {
		fmt.Fprintf(&b, "- %s actions: %s\n", t, actionText(p.table[t], c.Unattended))
	}
	p.summaryPaths(&b)
	p.summaryCommands(&b)
	p.summaryTools(&b)
	if c.Budget.MaxActionsPerHour > 0 {
		fmt.Fprintf(&b, "- At most %d actions per hour (reads are not counted).\n", c.Budget.MaxActionsPerHour)
	}
	if c.Budget.MaxCostPerDayCents > 0 {
		fmt.Fprintf(&b, "- At most %d cents of cost per day.\n", c.Budget.MaxCostPerDayCents)
	}
	b.WriteString("Destructive commands (recursive deletes of important directories, force pushes, disk writes, " +
		"piping downloads into a shell, reading credentials) are refused whatever the mode. " +
		"Commands whose parts cannot be known before they run (command substitution as a command name, eval of variables) need approval. " +
		"When a call is refused, the reason says what would be allowed instead; do not try to work around it.\n")
	return b.String()
}

func actionText(v risk.Verdict, unattended bool) string {
	switch {
	case v == risk.Allow:
		return "run without asking"
	case v == risk.Ask && unattended:
		return "refused (no one can approve in this session)"
	case v == risk.Ask:
		return "need a person's approval"
	}
	return "refused"
}

func (p *Policy) summaryPaths(b *strings.Builder) {
	c := p.cfg.Paths
	if p.workspaceOnly() {
		b.WriteString("- Files may only be written inside the workspace (the project directory)")
		if len(c.Roots) > 0 {
			fmt.Fprintf(b, " and %s", strings.Join(c.Roots, ", "))
		}
		b.WriteString(".\n")
	}
	if len(c.ReadOnlyRoots) > 0 {
		fmt.Fprintf(b, "- Read-only directories: %s.\n", strings.Join(c.ReadOnlyRoots, ", "))
	}
	denied := append([]string{"credentials, keys and secrets (~/.ssh, ~/.aws, .env files, *.pem, *.key, …)"}, c.Denied...)
	fmt.Fprintf(b, "- Never read or write: %s.\n", strings.Join(denied, ", "))
}

func (p *Policy) summaryCommands(b *strings.Builder) {
	c := p.cfg.Commands
	if len(c.Allowed) > 0 {
		fmt.Fprintf(b, "- Only these commands may run: %s.\n", strings.Join(c.Allowed, ", "))
	}
	if len(c.Denied) > 0 {
		fmt.Fprintf(b, "- Denied commands: %s.\n", strings.Join(c.Denied, "; "))
	}
}

func (p *Policy) summaryTools(b *strings.Builder) {
	t := p.cfg.Tools
	if len(t.Allowed) > 0 {
		fmt.Fprintf(b, "- Only these tools may be used: %s.\n", strings.Join(t.Allowed, ", "))
	}
	if len(t.Excluded) > 0 {
		fmt.Fprintf(b, "- These tools are not available: %s.\n", strings.Join(t.Excluded, ", "))
	}
	if len(t.AlwaysAsk) > 0 {
		fmt.Fprintf(b, "- These tools always need approval: %s.\n", strings.Join(t.AlwaysAsk, ", "))
	}
}
