package budget

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Bounds are the dimensions of a policy that a sub-agent must not exceed,
// as in ZeroClaw's escalation guard. The integrator fills them from a
// compiled policy, defaults resolved.
type Bounds struct {
	// Mode ranks the autonomy: a higher rank allows more (for example
	// readonly 0 < strict 1 < supervised 2 < trusted 3 < full 4).
	Mode int
	// ModeName is shown in errors; empty shows the rank.
	ModeName string
	// Roots are read-write roots (the workspace included); ReadOnlyRoots
	// and WriteOnlyRoots the other tiers. Absolute, cleaned paths.
	Roots, ReadOnlyRoots, WriteOnlyRoots []string
	// Commands is the allowed_commands list; "*" allows every command and
	// an empty list means no allow-list (every command may be considered).
	Commands []string
	// WorkspaceOnly confines file access to the roots.
	WorkspaceOnly bool
	// ForbiddenPaths are the denied path prefixes.
	ForbiddenPaths []string
	// EnvPassthrough names the environment variables passed to commands.
	EnvPassthrough []string
	// MaxActionsPerHour and MaxCostPerDayCents are the budgets; zero means
	// no limit.
	MaxActionsPerHour, MaxCostPerDayCents int
	// ShellTimeout bounds a command; zero means no timeout.
	ShellTimeout time.Duration
	// BlockHighRisk denies high-risk commands; RequireApproval asks for
	// medium-risk ones.
	BlockHighRisk, RequireApproval bool
}

// EscalationError names the first dimension on which a child policy
// exceeds its parent.
type EscalationError struct {
	// Dimension is one of the ZeroClaw violation names, e.g.
	// "AutonomyAboveParent" or "CommandNotInParent".
	Dimension string
	// Detail is the sentence shown to a person.
	Detail string
}

// Error names the dimension and the violation.
func (e *EscalationError) Error() string {
	return "sub-agent policy exceeds its parent (" + e.Dimension + "): " + e.Detail
}

// CheckEscalation returns nil when child stays within parent on every
// dimension, else an *[EscalationError] for the first violation in
// ZeroClaw's order: mode, read-write roots, read-only roots, write-only
// roots, commands, workspace_only, forbidden paths, env passthrough,
// actions per hour, cost per day, shell timeout, high-risk blocking,
// approval requirement. Narrowing is allowed: a root inside a parent root,
// a read-write root downgraded to read-only, fewer commands, more forbidden
// paths, lower budgets.
func CheckEscalation(parent, child Bounds) error {
	checks := []func(p, c Bounds) *EscalationError{
		checkMode, checkRoots, checkReadOnlyRoots, checkWriteOnlyRoots, checkCommands,
		checkWorkspaceOnly, checkForbidden, checkEnv, checkActions, checkCost,
		checkTimeout, checkBlockHighRisk, checkRequireApproval,
	}
	for _, check := range checks {
		if err := check(parent, child); err != nil {
			return err
		}
	}
	return nil
}

func checkMode(p, c Bounds) *EscalationError {
	if c.Mode > p.Mode {
		return &EscalationError{"AutonomyAboveParent", fmt.Sprintf("mode %s allows more than the parent's %s", modeName(c), modeName(p))}
	}
	return nil
}

func modeName(b Bounds) string {
	if b.ModeName != "" {
		return b.ModeName
	}
	return fmt.Sprintf("rank %d", b.Mode)
}

func checkRoots(p, c Bounds) *EscalationError {
	return rootsWithin("ReadWriteRootNotInParent", "read-write", c.Roots, p.Roots)
}

func checkReadOnlyRoots(p, c Bounds) *EscalationError {
	return rootsWithin("ReadOnlyRootNotInParent", "read-only", c.ReadOnlyRoots, concat(p.Roots, p.ReadOnlyRoots))
}

func checkWriteOnlyRoots(p, c Bounds) *EscalationError {
	return rootsWithin("WriteOnlyRootNotInParent", "write-only", c.WriteOnlyRoots, concat(p.Roots, p.WriteOnlyRoots))
}

func concat(a, b []string) []string { return append(append([]string(nil), a...), b...) }

func rootsWithin(dim, tier string, child, parent []string) *EscalationError {
	for _, r := range child {
		if !slices.ContainsFunc(parent, func(p string) bool { return within(r, p) }) {
			return &EscalationError{dim, fmt.Sprintf("%s root %s is not inside a parent root that allows it", tier, r)}
		}
	}
	return nil
}

// within reports whether path is root or below it, comparing cleaned paths
// by whole components.
func within(path, root string) bool {
	path, root = filepath.Clean(path), filepath.Clean(root)
	if path == root || root == "/" {
		return true
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}

func checkCommands(p, c Bounds) *EscalationError {
	if len(p.Commands) == 0 || slices.Contains(p.Commands, "*") {
		return nil
	}
	if len(c.Commands) == 0 {
		return &EscalationError{"CommandNotInParent", "the child has no command allow-list but the parent allows only " + strings.Join(p.Commands, ", ")}
	}
	for _, cmd := range c.Commands {
		if !slices.ContainsFunc(p.Commands, func(pc string) bool { return sameCommand(cmd, pc) }) {
			return &EscalationError{"CommandNotInParent", fmt.Sprintf("command %q is not allowed by the parent", cmd)}
		}
	}
	return nil
}

// sameCommand compares bare names case-insensitively and paths exactly.
func sameCommand(a, b string) bool {
	if strings.ContainsRune(a, '/') || strings.ContainsRune(b, '/') {
		return a == b
	}
	return strings.EqualFold(a, b)
}

func checkWorkspaceOnly(p, c Bounds) *EscalationError {
	if p.WorkspaceOnly && !c.WorkspaceOnly {
		return &EscalationError{"WorkspaceOnlyDisabledByChild", "the parent confines file access to its roots (workspace_only) and the child does not"}
	}
	return nil
}

func checkForbidden(p, c Bounds) *EscalationError {
	for _, fp := range p.ForbiddenPaths {
		if !slices.ContainsFunc(c.ForbiddenPaths, func(cp string) bool { return within(fp, cp) }) {
			return &EscalationError{"ForbiddenPathDroppedByChild", fmt.Sprintf("the parent forbids %s and the child does not", fp)}
		}
	}
	return nil
}

func checkEnv(p, c Bounds) *EscalationError {
	for _, name := range c.EnvPassthrough {
		if !slices.Contains(p.EnvPassthrough, name) {
			return &EscalationError{"ShellEnvPassthroughExpanded", fmt.Sprintf("the child passes %s to commands and the parent does not", name)}
		}
	}
	return nil
}

func checkActions(p, c Bounds) *EscalationError {
	if exceedsLimit(c.MaxActionsPerHour, p.MaxActionsPerHour) {
		return &EscalationError{"MaxActionsExceeded", fmt.Sprintf("max_actions_per_hour %s is above the parent's %s", limitText(c.MaxActionsPerHour), limitText(p.MaxActionsPerHour))}
	}
	return nil
}

func checkCost(p, c Bounds) *EscalationError {
	if exceedsLimit(c.MaxCostPerDayCents, p.MaxCostPerDayCents) {
		return &EscalationError{"MaxCostExceeded", fmt.Sprintf("max_cost_per_day_cents %s is above the parent's %s", limitText(c.MaxCostPerDayCents), limitText(p.MaxCostPerDayCents))}
	}
	return nil
}

// exceedsLimit compares limits where zero means no limit.
func exceedsLimit(child, parent int) bool {
	if parent == 0 {
		return false
	}
	return child == 0 || child > parent
}

func limitText(n int) string {
	if n == 0 {
		return "unlimited"
	}
	return fmt.Sprint(n)
}

func checkTimeout(p, c Bounds) *EscalationError {
	if p.ShellTimeout != 0 && (c.ShellTimeout == 0 || c.ShellTimeout > p.ShellTimeout) {
		return &EscalationError{"ShellTimeoutExceeded", fmt.Sprintf("shell timeout %s is above the parent's %s", durText(c.ShellTimeout), p.ShellTimeout)}
	}
	return nil
}

func durText(d time.Duration) string {
	if d == 0 {
		return "none"
	}
	return d.String()
}

func checkBlockHighRisk(p, c Bounds) *EscalationError {
	if p.BlockHighRisk && !c.BlockHighRisk {
		return &EscalationError{"BlockHighRiskCommandsDisabledByChild", "the parent blocks high-risk commands and the child does not"}
	}
	return nil
}

func checkRequireApproval(p, c Bounds) *EscalationError {
	if p.RequireApproval && !c.RequireApproval {
		return &EscalationError{"RequireApprovalDisabledByChild", "the parent asks before medium-risk commands and the child does not"}
	}
	return nil
}
