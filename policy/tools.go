package policy

import (
	"errors"
	"fmt"
	"path"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
)

// toolGate holds the name-based tool lists, each a set of names or globs.
type toolGate struct {
	allowed, excluded, autoApprove, alwaysAsk nameSet
}

// nameSet matches tool names exactly or by path.Match glob; "*" matches all.
type nameSet struct {
	exact map[string]bool
	globs []string
}

func newNameSet(names []string) (nameSet, error) {
	s := nameSet{exact: map[string]bool{}}
	var errs []error
	for _, n := range names {
		if _, err := path.Match(n, ""); err != nil {
			errs = append(errs, fmt.Errorf("bad tool pattern %q: %w", n, err))
			continue
		}
		if hasGlob(n) {
			s.globs = append(s.globs, n)
		} else {
			s.exact[n] = true
		}
	}
	return s, errors.Join(errs...)
}

func hasGlob(s string) bool {
	for _, r := range s {
		if r == '*' || r == '?' || r == '[' {
			return true
		}
	}
	return false
}

func (s nameSet) empty() bool { return len(s.exact) == 0 && len(s.globs) == 0 }

func (s nameSet) has(name string) bool {
	if s.exact[name] {
		return true
	}
	for _, g := range s.globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}

func compileGate(t Tools) (toolGate, error) {
	var g toolGate
	var e1, e2, e3, e4 error
	g.allowed, e1 = newNameSet(t.Allowed)
	g.excluded, e2 = newNameSet(t.Excluded)
	g.autoApprove, e3 = newNameSet(t.AutoApprove)
	g.alwaysAsk, e4 = newNameSet(t.AlwaysAsk)
	return g, errors.Join(e1, e2, e3, e4)
}

// compileTools builds the tool table: built-ins, then [tools.map], then
// [tools.tiers] overrides.
func compileTools(t Tools) (*call.Table, error) {
	user := map[string]call.Mapping{}
	var errs []error
	for name, m := range t.Map {
		cm, err := toMapping(m)
		if err != nil {
			errs = append(errs, fmt.Errorf("map.%s: %w", name, err))
			continue
		}
		user[name] = cm
	}
	base := call.Default()
	for name, tier := range t.Tiers {
		tr, err := risk.ParseTier(tier)
		if err != nil {
			errs = append(errs, fmt.Errorf("tiers.%s: %w", name, err))
			continue
		}
		m, ok := user[name]
		if !ok {
			m, ok = base.Lookup(name)
		}
		if !ok {
			m = call.Mapping{Kind: call.Other}
		}
		m.Tier, m.TierSet = tr, true
		user[name] = m
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return base.With(user)
}

func toMapping(m ToolMapping) (call.Mapping, error) {
	k, err := call.ParseKind(m.Kind)
	if err != nil {
		return call.Mapping{}, fmt.Errorf("kind: %w", err)
	}
	cm := call.Mapping{Kind: k, CommandArgs: m.CommandArgs, PathArgs: m.PathArgs, URLArgs: m.URLArgs, CwdArgs: m.CwdArgs}
	if m.Tier != "" {
		t, err := risk.ParseTier(m.Tier)
		if err != nil {
			return cm, fmt.Errorf("tier: %w", err)
		}
		cm.Tier, cm.TierSet = t, true
	}
	return cm, nil
}

// gateFinding applies excluded/allowed tools (DESIGN §4 step 2).
func (g toolGate) finding(c *call.Call) *risk.Finding {
	switch {
	case g.excluded.has(c.Tool):
		return gateDeny(c, "tools.excluded", fmt.Sprintf("The tool %s is excluded by the policy.", c.Tool))
	case !g.allowed.empty() && !g.allowed.has(c.Tool):
		return gateDeny(c, "tools.not-allowed", fmt.Sprintf("The tool %s is not in the policy's allowed tools.", c.Tool))
	}
	return nil
}

func gateDeny(c *call.Call, rule, reason string) *risk.Finding {
	return &risk.Finding{Rule: rule, Category: risk.CatToolGate, Tier: c.BaseTier(), Blast: risk.BlastNone,
		Verdict: risk.Deny, Reason: reason, Subject: c.Tool,
		Suggestion: "use a tool the policy allows, or change [tools] in your user policy"}
}

func compileToolsOrDefault(c *Config) *call.Table {
	if t, err := compileTools(c.Tools); err == nil {
		return t
	}
	return call.Default()
}

func mappingTier(m call.Mapping) risk.Tier {
	if m.TierSet {
		return m.Tier
	}
	return m.Kind.DefaultTier()
}
