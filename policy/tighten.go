package policy

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolguard/toolguard/internal/lazyre"
	"github.com/toolguard/toolguard/internal/tree"
	"github.com/toolguard/toolguard/risk"
)

// tightenCheck reports why a project value loosens base ("" when it does
// not). Keys are field paths without list indices.
type tightenCheck func(base, proj *Config) string

var alwaysTightens = func(*Config, *Config) string { return "" }

func mustBeTrue(get func(*Config) bool, what string) tightenCheck {
	return func(_, p *Config) string {
		if get(p) {
			return ""
		}
		return what + " can only be switched on"
	}
}

// wrapNotLooser: [sandbox] wrap may only wrap more calls (off < execute <
// all).
func wrapNotLooser(b, p *Config) string {
	rank := map[string]int{"": 0, "off": 0, "execute": 1, "all": 2}
	if rank[p.Sandbox.Wrap] >= rank[b.Sandbox.Wrap] {
		return ""
	}
	return fmt.Sprintf("wrap %q would run fewer calls in the sandbox than %q", p.Sandbox.Wrap, b.Sandbox.Wrap)
}

func mustBeTruePtr(get func(*Config) *bool, what string) tightenCheck {
	return mustBeTrue(func(c *Config) bool { b := get(c); return b != nil && *b }, what)
}

func notLooserMode(get func(*Config) string) tightenCheck {
	return func(b, p *Config) string {
		name := get(p)
		if m, ok := alias(name); ok {
			name = m
		}
		if modeRank(name) <= modeRank(b.modeName()) {
			return ""
		}
		return fmt.Sprintf("mode %q is looser than %q", name, b.modeName())
	}
}

func tierAction(t risk.Tier) tightenCheck {
	return func(b, p *Config) string {
		base, _, _ := b.table()
		v := parseVerdictOr(p.ModeTable.values()[t], risk.Allow)
		if v >= base[t] {
			return ""
		}
		return fmt.Sprintf("%s for %s-tier calls is looser than %s", v, t, base[t])
	}
}

func verdictNotLooser(get func(*Config) string, def risk.Verdict) tightenCheck {
	return func(b, p *Config) string {
		if parseVerdictOr(get(p), def) >= parseVerdictOr(get(b), def) {
			return ""
		}
		return fmt.Sprintf("%q is looser than %q", get(p), get(b))
	}
}

func subsetOf(get func(*Config) []string) tightenCheck {
	return func(b, p *Config) string {
		base := get(b)
		if len(base) == 0 {
			return ""
		}
		for _, s := range get(p) {
			if !slices.Contains(base, s) {
				return fmt.Sprintf("%q is not in the list it would narrow", s)
			}
		}
		return ""
	}
}

func lowerLimit(get func(*Config) int64, def int64) tightenCheck {
	return func(b, p *Config) string {
		base, proj := get(b), get(p)
		if base == 0 {
			base = def
		}
		if proj > 0 && (base == 0 || proj <= base) {
			return ""
		}
		return fmt.Sprintf("%d would raise the limit of %d", proj, base)
	}
}

func dur(f func(*Config) time.Duration) func(*Config) int64 {
	return func(c *Config) int64 { return int64(f(c)) }
}

func num(f func(*Config) int) func(*Config) int64 {
	return func(c *Config) int64 { return int64(f(c)) }
}

// netRank orders network settings by permissiveness ("", "deny" and
// unknown values rank lowest).
func netRank(v string) int {
	switch v {
	case "ask":
		return 1
	case "allow":
		return 2
	}
	return 0
}

func netNotLooser(get func(*Config) string) tightenCheck {
	return func(b, p *Config) string {
		if netRank(get(p)) <= netRank(get(b)) {
			return ""
		}
		return fmt.Sprintf("%q is looser than %q", get(p), get(b))
	}
}

func noAllowRules(_, p *Config) string {
	for _, r := range p.Rules {
		if r.Action == "allow" {
			return fmt.Sprintf("rule %q allows calls", r.ID)
		}
	}
	return ""
}

func noAllowPathRules(_, p *Config) string {
	for _, r := range p.Paths.Rules {
		if parseVerdictOr(r.Read, risk.Allow) == risk.Allow || parseVerdictOr(r.Write, risk.Allow) == risk.Allow {
			return fmt.Sprintf("path rule %q allows access", r.Pattern)
		}
	}
	return ""
}

func tierNotLower(b, p *Config) string {
	tools := compileToolsOrDefault(b)
	for name, t := range p.Tools.Tiers {
		tr, _ := risk.ParseTier(t)
		if m, ok := tools.Lookup(name); ok && tr < mappingTier(m) {
			return fmt.Sprintf("tier %s of %s is lower than %s", tr, name, mappingTier(m))
		}
	}
	return ""
}

var (
	tightenChecksOnce  sync.Once
	tightenChecksTable map[string]tightenCheck
)

// tightenChecks lists every key an untrusted project file may set. The
// table is built on first use, not at start-up.
func tightenChecks() map[string]tightenCheck {
	tightenChecksOnce.Do(func() { tightenChecksTable = buildTightenChecks() })
	return tightenChecksTable
}

func buildTightenChecks() map[string]tightenCheck {
	return map[string]tightenCheck{
		"mode":                         notLooserMode(func(c *Config) string { return c.Mode }),
		"approval_mode":                notLooserMode(func(c *Config) string { return c.ApprovalMode }),
		"autonomy":                     notLooserMode(func(c *Config) string { return c.Autonomy }),
		"unattended":                   mustBeTrue(func(c *Config) bool { return c.Unattended }, "unattended"),
		"read_only":                    mustBeTrue(func(c *Config) bool { return c.ReadOnly }, "read_only"),
		"require_approval_for_writes":  mustBeTruePtr(func(c *Config) *bool { return c.RequireApprovalForWrites }, "require_approval_for_writes"),
		"require_approval_for_execute": mustBeTruePtr(func(c *Config) *bool { return c.RequireApprovalForExecute }, "require_approval_for_execute"),
		"mode_table.read":              tierAction(risk.Read),
		"mode_table.write":             tierAction(risk.Write),
		"mode_table.execute":           tierAction(risk.Execute),
		"mode_table.destructive":       tierAction(risk.Destructive),
		"tools.allowed":                subsetOf(func(c *Config) []string { return c.Tools.Allowed }),
		"tools.excluded":               alwaysTightens,
		"tools.always_ask":             alwaysTightens,
		"tools.tiers":                  tierNotLower,
		"paths.denied":                 alwaysTightens,
		"paths.sensitive":              alwaysTightens,
		"paths.sensitive_write":        alwaysTightens,
		"paths.rules":                  noAllowPathRules,
		"paths.workspace_only":         mustBeTruePtr(func(c *Config) *bool { return c.Paths.WorkspaceOnly }, "workspace_only"),
		"paths.read_outside":           verdictNotLooser(func(c *Config) string { return c.Paths.ReadOutside }, risk.Allow),
		"paths.write_outside":          verdictNotLooser(func(c *Config) string { return c.Paths.WriteOutside }, risk.Ask),
		"commands.denied":              alwaysTightens,
		"commands.custom_patterns":     alwaysTightens,
		"commands.allowed":             subsetOf(func(c *Config) []string { return c.Commands.Allowed }),
		"commands.block_high_risk":     mustBeTruePtr(func(c *Config) *bool { return c.Commands.BlockHighRisk }, "block_high_risk"),
		"commands.require_approval_for_medium_risk": mustBeTruePtr(func(c *Config) *bool { return c.Commands.RequireApprovalForMediumRisk }, "require_approval_for_medium_risk"),
		"network.denied_domains":                    alwaysTightens,
		"network.allowed_domains":                   subsetOf(func(c *Config) []string { return c.Network.AllowedDomains }),
		"network.private":                           netNotLooser(func(c *Config) string { return c.Network.Private }),
		"network.loopback":                          netNotLooser(func(c *Config) string { return c.Network.Loopback }),
		"network.ask_fetch":                         mustBeTruePtr(func(c *Config) *bool { return c.Network.AskFetch }, "ask_fetch"),
		"rules":                                     noAllowRules,
		"budget.max_actions_per_hour":               lowerLimit(num(func(c *Config) int { return c.Budget.MaxActionsPerHour }), 0),
		"budget.max_cost_per_day_cents":             lowerLimit(num(func(c *Config) int { return c.Budget.MaxCostPerDayCents }), 0),
		"subagents.allow":                           mustBeTrue(func(c *Config) bool { return !boolOr(c.SubAgents.Allow, true) }, "forbidding sub-agents"),
		"subagents.max_concurrent":                  lowerLimit(num(func(c *Config) int { return c.SubAgents.MaxConcurrent }), 5),
		"subagents.max_total":                       lowerLimit(num(func(c *Config) int { return c.SubAgents.MaxTotal }), 10),
		"subagents.max_depth":                       lowerLimit(num(func(c *Config) int { return c.SubAgents.MaxDepth }), 3),
		"subagents.max_prompt_chars":                lowerLimit(num(func(c *Config) int { return c.SubAgents.MaxPromptChars }), 32000),
		"subagents.max_output_chars":                lowerLimit(num(func(c *Config) int { return c.SubAgents.MaxOutputChars }), 4000),
		"subagents.timeout":                         lowerLimit(dur(func(c *Config) time.Duration { return c.SubAgents.Timeout }), int64(120*time.Second)),
		"approval.timeout":                          lowerLimit(dur(func(c *Config) time.Duration { return c.Approval.Timeout }), int64(DefaultApprovalTimeout)),
		"sandbox.wrap":                              wrapNotLooser,
		"sandbox.require":                           mustBeTrue(func(c *Config) bool { return c.Sandbox.Require }, "sandbox.require"),
		"sandbox.allow_network":                     mustBeTrue(func(c *Config) bool { return !c.Sandbox.AllowNetwork }, "blocking the network"),
		"sandbox.timeout":                           lowerLimit(dur(func(c *Config) time.Duration { return c.Sandbox.Timeout }), int64(10*time.Minute)),
		"sandbox.max_memory_mb":                     lowerLimit(num(func(c *Config) int { return c.Sandbox.MaxMemoryMB }), 2048),
	}
}

// indexRE matches list indices in field paths; compiled on first use so
// that processes that never load a project file do not pay for it.
var indexRE = lazyre.Regexp{Expr: `\[\d+\]`}

// checkTightens verifies that an untrusted layer only tightens base.
func checkTightens(base, proj *Config, meta tree.Meta, file string, doc *tree.Node) error {
	var errs tree.Errors
	reported := map[string]bool{}
	for _, p := range meta.Paths() {
		key := indexRE.Get().ReplaceAllString(p, "")
		if reported[key] || isTablePrefix(key) {
			continue
		}
		reported[key] = true
		if why := tightenWhy(key, base, proj); why != "" {
			errs = append(errs, positioned(file, doc, p, "an untrusted policy (project file, request override, sub-agent) may only tighten: "+why+
				"; a project file can be trusted by listing its directory in trusted_projects of the user policy"))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

func tightenWhy(key string, base, proj *Config) string {
	if check, ok := tightenChecks()[key]; ok {
		return check(base, proj)
	}
	for _, list := range []string{"rules", "paths.rules"} {
		if strings.HasPrefix(key, list+".") {
			return "" // the fields of a list's entries: the list's own check judges them
		}
	}
	if strings.HasPrefix(key, "tools.tiers.") {
		return ""
	}
	return key + " cannot be set by a project file"
}

// isTablePrefix reports whether key is a table that contains checked keys
// (its own leaves are judged separately).
func isTablePrefix(key string) bool {
	for k := range tightenChecks() {
		if strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}
