package policy

import (
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Table is an action per tier, indexed by risk.Tier.
type Table [4]risk.Verdict

// Preset names, from most to least restrictive.
const (
	ModeReadonly   = "readonly"
	ModeStrict     = "strict"
	ModeSupervised = "supervised"
	ModeTrusted    = "trusted"
	ModeFull       = "full"
)

// presetTable returns the tier → action table of a preset mode (DESIGN §3).
func presetTable(name string) (Table, bool) {
	switch name {
	case ModeReadonly:
		return Table{risk.Allow, risk.Deny, risk.Deny, risk.Deny}, true
	case ModeStrict:
		return Table{risk.Ask, risk.Ask, risk.Ask, risk.Ask}, true
	case ModeSupervised:
		return Table{risk.Allow, risk.Ask, risk.Ask, risk.Ask}, true
	case ModeTrusted:
		return Table{risk.Allow, risk.Allow, risk.Allow, risk.Ask}, true
	case ModeFull:
		return Table{risk.Allow, risk.Allow, risk.Allow, risk.Allow}, true
	}
	return Table{}, false
}

// Modes lists the preset names from most to least restrictive.
func Modes() []string {
	return []string{ModeReadonly, ModeStrict, ModeSupervised, ModeTrusted, ModeFull}
}

// Preset returns the table of a preset mode.
func Preset(name string) (Table, error) {
	t, ok := presetTable(name)
	if !ok {
		return Table{}, fmt.Errorf("unknown mode %q (valid: %s)", name, strings.Join(Modes(), ", "))
	}
	return t, nil
}

// modeRank orders presets by permissiveness (higher = looser) for the
// tighten-only checks.
func modeRank(name string) int {
	for i, m := range Modes() {
		if m == name {
			return i
		}
	}
	return len(Modes())
}

// alias maps ai-chat approval modes and ZeroClaw autonomy levels onto
// presets; ok is false for other names.
func alias(name string) (mode string, ok bool) {
	switch name {
	case "auto":
		return ModeFull, true
	case "ask_for_dangerous":
		return ModeTrusted, true
	case "ask_for_writes", "ask":
		return ModeSupervised, true
	}
	return "", false
}

// modeName resolves which preset a config selects: read_only wins, then
// mode, then approval_mode, then autonomy, else supervised.
func (c *Settings) modeName() string {
	switch {
	case c.ReadOnly:
		return ModeReadonly
	case c.Mode != "":
		return c.Mode
	case c.ApprovalMode != "":
		m, _ := alias(c.ApprovalMode)
		return m
	case c.Autonomy != "":
		return c.Autonomy
	}
	return ModeSupervised
}

// table resolves the effective tier → action table and its display name.
func (c *Settings) table() (Table, string, error) {
	name := c.modeName()
	t, err := Preset(name)
	if err != nil {
		return t, name, err
	}
	if name == ModeReadonly {
		return t, name, nil // read_only cannot be loosened by other knobs
	}
	custom := false
	set := func(tier risk.Tier, v risk.Verdict) {
		if t[tier] != v {
			t[tier], custom = v, true
		}
	}
	if b := c.RequireApprovalForWrites; b != nil {
		set(risk.Write, askOrAllow(*b))
	}
	if b := c.RequireApprovalForExecute; b != nil {
		set(risk.Execute, askOrAllow(*b))
	}
	for tier, s := range c.ModeTable.values() {
		if s != "" {
			v, err := risk.ParseVerdict(s)
			if err != nil {
				return t, name, fmt.Errorf("mode_table.%s: %w", risk.Tier(tier), err)
			}
			set(risk.Tier(tier), v)
		}
	}
	if custom {
		name += "+custom"
	}
	return t, name, nil
}

func (m ModeTable) values() [4]string { return [4]string{m.Read, m.Write, m.Execute, m.Destructive} }

func askOrAllow(ask bool) risk.Verdict {
	if ask {
		return risk.Ask
	}
	return risk.Allow
}
