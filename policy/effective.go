package policy

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/pelletier/go-toml/v2"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
)

// Effective returns the configuration as it is enforced: the mode
// resolved, the built-in lists included and defaults filled in. It is a
// copy; changing it does not change the policy.
func (p *Policy) Effective() *Config {
	c := *p.doc
	c.Mode, c.ReadOnly, c.ApprovalMode, c.Autonomy = p.modeName(), false, "", ""
	c.Paths.Denied = append(paths.DefaultDenied(), c.Paths.Denied...)
	c.Paths.Sensitive = append(paths.DefaultSensitive(), c.Paths.Sensitive...)
	c.Paths.SensitiveWrite = append(paths.DefaultSensitiveWrite(), c.Paths.SensitiveWrite...)
	ws := p.workspaceOnly()
	c.Paths.WorkspaceOnly = &ws
	c.Paths.ReadOutside = parseVerdictOr(c.Paths.ReadOutside, risk.Allow).String()
	c.Paths.WriteOutside = parseVerdictOr(c.Paths.WriteOutside, risk.Ask).String()
	c.Commands.Denied = append(DefaultDeniedCommands(), c.Commands.Denied...)
	c.Approval.Timeout = ClampApprovalTimeout(c.Approval.Timeout)
	c.ModeTable = ModeTable{p.table[0].String(), p.table[1].String(), p.table[2].String(), p.table[3].String()}
	return &c
}

// modeName is the preset part of the mode's display name.
func (p *Policy) modeName() string { return p.cfg.modeName() }

// Render encodes a configuration as "toml" or "json".
func Render(c *Config, format string) ([]byte, error) {
	switch format {
	case "toml":
		var b bytes.Buffer
		enc := toml.NewEncoder(&b)
		enc.SetIndentTables(true)
		err := enc.Encode(c)
		return b.Bytes(), err
	case "json":
		var m map[string]any
		raw, err := toml.Marshal(c)
		if err == nil {
			err = toml.Unmarshal(raw, &m)
		}
		if err != nil {
			return nil, err
		}
		return json.MarshalIndent(m, "", "  ")
	}
	return nil, fmt.Errorf("unknown format %q (valid: toml, json)", format)
}

//go:embed schema.json
var schemaJSON string

//go:embed reference.md
var referenceMD string

// JSONSchema returns the JSON Schema (draft 2020-12) of policy files.
func JSONSchema() string { return schemaJSON }

// ReferenceMarkdown returns the reference of every policy key, generated
// from the documentation of the Config fields.
func ReferenceMarkdown() string { return referenceMD }
