package guard

import (
	"path/filepath"
	"time"

	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/policy"
)

// CheckChildPolicy reports whether a sub-agent's policy stays within its
// parent's on every dimension (mode, roots, commands, workspace_only,
// denied paths, environment passthrough, budgets, timeouts, high-risk
// blocking, approvals). The error names the first violation, in ZeroClaw's
// order. workspace is the parent's workspace, a read-write root of both.
func CheckChildPolicy(parent, child *policy.Policy, workspace string) error {
	return budget.CheckEscalation(BoundsOf(parent, workspace), BoundsOf(child, workspace))
}

// BoundsOf describes a compiled policy as escalation bounds, defaults
// resolved.
func BoundsOf(p *policy.Policy, workspace string) budget.Bounds {
	c := p.Effective()
	return budget.Bounds{
		Mode:               modeRank(p),
		ModeName:           p.Mode(),
		Roots:              absAll(append([]string{workspace}, c.Paths.Roots...), workspace),
		ReadOnlyRoots:      absAll(c.Paths.ReadOnlyRoots, workspace),
		WriteOnlyRoots:     absAll(c.Paths.WriteOnlyRoots, workspace),
		Commands:           c.Commands.Allowed,
		WorkspaceOnly:      c.Paths.WorkspaceOnly != nil && *c.Paths.WorkspaceOnly,
		ForbiddenPaths:     c.Paths.Denied,
		EnvPassthrough:     c.Sandbox.EnvPassthrough,
		MaxActionsPerHour:  c.Budget.MaxActionsPerHour,
		MaxCostPerDayCents: c.Budget.MaxCostPerDayCents,
		ShellTimeout:       shellTimeout(c.Sandbox.Timeout),
		BlockHighRisk:      c.Commands.BlockHighRisk != nil && *c.Commands.BlockHighRisk,
		RequireApproval:    c.Commands.RequireApprovalForMediumRisk != nil && *c.Commands.RequireApprovalForMediumRisk,
	}
}

// modeRank ranks the effective tier table by permissiveness: the sum of
// the actions (deny 0, ask 1, allow 2) over the four tiers, so a custom
// table compares correctly with the presets.
func modeRank(p *policy.Policy) int {
	t := p.Effective().ModeTable
	rank := 0
	for _, a := range []string{t.Read, t.Write, t.Execute, t.Destructive} {
		switch a {
		case "allow":
			rank += 2
		case "ask":
			rank++
		}
	}
	return rank
}

func absAll(dirs []string, workspace string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			d = filepath.Join(workspace, d)
		}
		out = append(out, filepath.Clean(d))
	}
	return out
}

// shellTimeout is the sandbox timeout in force: the default when unset.
func shellTimeout(d time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return policy.Defaults().Sandbox.Timeout
}
