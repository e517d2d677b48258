package policy

import (
	"cmp"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolguard/toolguard/internal/tree"
	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/risk"
)

// validate checks what the schema's types cannot (globs, regexes, rule
// fields, references) and reports every problem with its position.
func (c *Config) validate(file string, doc *tree.Node) error {
	var errs tree.Errors
	c.Settings.collect(file, doc, "", &errs)
	for _, name := range sortedKeys(c.Profiles) {
		if p := c.Profiles[name]; p != nil {
			p.collect(file, doc, "profiles."+name+".", &errs)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

func (c *Settings) collect(file string, doc *tree.Node, prefix string, errs *tree.Errors) {
	bad := func(path, msg string, valid ...string) {
		*errs = append(*errs, positioned(file, doc, prefix+path, msg, valid...))
	}
	c.checkGlobs(bad)
	c.checkRules(bad, func(path string) bool { return doc != nil && doc.At(prefix+path) != nil })
	c.checkCommands(bad)
	c.checkTools(bad)
	c.checkMisc(bad)
}

type reporter func(path, msg string, valid ...string)

// checkDomains reports each bad domain at its own entry and whether it
// found any.
func (c *Settings) checkDomains(bad reporter) bool {
	found := false
	for _, list := range []struct {
		key     string
		domains []string
	}{{"network.allowed_domains", c.Network.AllowedDomains}, {"network.denied_domains", c.Network.DeniedDomains}} {
		for i, d := range list.domains {
			one := Network{AllowedDomains: []string{d}}
			if _, err := netguard.Compile(networkConfig(one)); err != nil {
				msg := err.Error()
				if _, after, ok := strings.Cut(msg, "): "); ok {
					msg = fmt.Sprintf("%q: %s", d, after)
				}
				bad(fmt.Sprintf("%s[%d]", list.key, i), strings.TrimPrefix(msg, "netguard: "))
				found = true
			}
		}
	}
	return found
}

func (c *Settings) checkGlobs(bad reporter) {
	lists := map[string][]string{"paths.denied": c.Paths.Denied, "paths.allowed": c.Paths.Allowed,
		"paths.sensitive": c.Paths.Sensitive, "paths.sensitive_write": c.Paths.SensitiveWrite}
	for _, name := range sortedKeys(lists) {
		for i, g := range lists[name] {
			if g == "" || !doublestar.ValidatePattern(g) {
				bad(fmt.Sprintf("%s[%d]", name, i), fmt.Sprintf("%q is not a valid glob", g))
			}
		}
	}
	for i, r := range c.Paths.Rules {
		if r.Pattern == "" || !doublestar.ValidatePattern(r.Pattern) {
			bad(fmt.Sprintf("paths.rules[%d].pattern", i), fmt.Sprintf("%q is not a valid glob", r.Pattern))
		}
	}
}

// checkRules checks the user rules and grants; written reports whether
// the document sets a path (a value it set but could not decode is
// reported by the decoder, not again as missing).
func (c *Settings) checkRules(bad reporter, written func(path string) bool) {
	seen := map[string]bool{}
	for i, r := range c.Rules {
		at := fmt.Sprintf("rules[%d]", i)
		switch {
		case r.ID == "" && !written(at+".id"):
			bad(at+".id", "a rule needs an id")
		case seen[r.ID]:
			bad(at+".id", fmt.Sprintf("duplicate rule id %q", r.ID))
		}
		seen[r.ID] = true
		if r.Action == "" && !written(at+".action") {
			bad(at+".action", "a rule needs an action", risk.VerdictNames()...)
		}
		for j, w := range r.Argv {
			if _, err := path.Match(w, ""); err != nil {
				bad(fmt.Sprintf("%s.argv[%d]", at, j), fmt.Sprintf("%q is not a valid glob (a '[' needs its ']'; write \\[ for a literal one)", w))
			}
		}
		for j, g := range r.Paths {
			if g == "" || !doublestar.ValidatePattern(g) {
				bad(fmt.Sprintf("%s.paths[%d]", at, j), fmt.Sprintf("%q is not a valid glob", g))
			}
		}
		checked := r // the rest of the rule is checked even when its id or action is missing
		checked.ID, checked.Action = cmp.Or(r.ID, "unnamed"), cmp.Or(r.Action, "ask")
		if _, err := compileUserRule(checked); err != nil {
			field, msg, ok := strings.Cut(err.Error(), ": ")
			if !ok || strings.ContainsAny(field, " \"") {
				field, msg = "", err.Error()
			}
			bad(strings.TrimSuffix(at+"."+field, "."), msg)
		}
	}
	for i, g := range c.Grants {
		if g.Tool == "" {
			bad(fmt.Sprintf("grants[%d].tool", i), "a grant needs a tool")
		}
	}
}

func (c *Settings) checkCommands(bad reporter) {
	for i, s := range c.Commands.CustomPatterns {
		if _, err := regexp.Compile("(?i)" + s); err != nil {
			bad(fmt.Sprintf("commands.custom_patterns[%d]", i), "invalid regular expression: "+err.Error())
		}
	}
	for i, s := range c.Commands.Denied {
		if _, err := parseDenied(s); err != nil {
			bad(fmt.Sprintf("commands.denied[%d]", i), err.Error())
		}
	}
}

func (c *Settings) checkTools(bad reporter) {
	for _, name := range sortedKeys(c.Tools.Tiers) {
		if _, err := risk.ParseTier(c.Tools.Tiers[name]); err != nil {
			bad("tools.tiers."+name, fmt.Sprintf("unknown tier %q", c.Tools.Tiers[name]), risk.TierNames()...)
		}
	}
	for _, name := range sortedKeys(c.Tools.Map) {
		if c.Tools.Map[name].Kind == "" {
			bad("tools.map."+name+".kind", "a tool mapping needs a kind", "shell", "read", "write", "fetch", "search", "mcp", "agent", "other")
		}
	}
	lists := map[string][]string{"tools.allowed": c.Tools.Allowed, "tools.excluded": c.Tools.Excluded,
		"tools.auto_approve": c.Tools.AutoApprove, "tools.always_ask": c.Tools.AlwaysAsk}
	for _, name := range sortedKeys(lists) {
		if _, err := newNameSet(lists[name]); err != nil {
			bad(name, err.Error())
		}
	}
}

func (c *Settings) checkMisc(bad reporter) {
	if _, err := netguard.Compile(networkConfig(c.Network)); err != nil && !c.checkDomains(bad) {
		bad("network", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	for name, d := range map[string]time.Duration{"approval.timeout": c.Approval.Timeout,
		"audit.rotate_every": c.Audit.RotateEvery, "audit.max_age": c.Audit.MaxAge, "state.timeout": c.State.Timeout} {
		if d < 0 {
			bad(name, "must not be negative")
		}
	}
	for name, n := range map[string]int{"budget.max_actions_per_hour": c.Budget.MaxActionsPerHour,
		"budget.max_cost_per_day_cents": c.Budget.MaxCostPerDayCents, "subagents.max_depth": c.SubAgents.MaxDepth,
		"subagents.max_total": c.SubAgents.MaxTotal, "subagents.max_concurrent": c.SubAgents.MaxConcurrent,
		"sandbox.max_memory_mb": c.Sandbox.MaxMemoryMB, "audit.max_size_mb": c.Audit.MaxSizeMB, "audit.keep": c.Audit.Keep} {
		if n < 0 {
			bad(name, "must not be negative")
		}
	}
}
