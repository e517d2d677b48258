package tree

import (
	"fmt"
	"slices"
	"time"
)

// This file holds the struct types the tests decode into. Their doc
// comments are read by fielddoc.Read in the schema tests, the way the policy
// package generates its reference from its own config types.

// Level is an enum that lists its names through EnumValues.
type Level uint8

var levelNames = []string{"low", "medium", "high"}

// EnumValues lists the valid levels.
func (Level) EnumValues() []string { return slices.Clone(levelNames) }

// MarshalText writes the level's name.
func (l Level) MarshalText() ([]byte, error) { return []byte(levelNames[l]), nil }

// UnmarshalText parses a level name.
func (l *Level) UnmarshalText(b []byte) error {
	if i := slices.Index(levelNames, string(b)); i >= 0 {
		*l = Level(i)
		return nil
	}
	return fmt.Errorf("unknown level %q", b)
}

// Color is a text type without EnumValues: its own error text is reported.
type Color string

// UnmarshalText accepts only red and blue.
func (c *Color) UnmarshalText(b []byte) error {
	if s := string(b); s == "red" || s == "blue" {
		*c = Color(s)
		return nil
	}
	return fmt.Errorf("unknown color %q (valid: red, blue)", b)
}

// Common holds keys shared by several tables; it is embedded and flattened.
type Common struct {
	// Comment is free text for people reading the file.
	Comment string `toml:"comment"`
}

// TestConfig is the root of the test configuration.
type TestConfig struct {
	Common
	// Mode picks the preset. Empty means supervised.
	Mode string `toml:"mode" enum:"strict,supervised,full"`
	// Level is the alert level. Zero means low.
	Level Level `toml:"level"`
	// Color tints the output. Empty means no colour.
	Color Color `toml:"color"`
	// Enabled turns the guard on. False disables it.
	Enabled bool `toml:"enabled"`
	// Workers is the number of workers; zero means one per CPU.
	Workers int `toml:"workers"`
	// Small is a range-checked byte-sized number; zero means none.
	Small int8 `toml:"small"`
	// Count is unsigned; zero means unlimited.
	Count uint16 `toml:"count"`
	// Ratio is a fraction between 0 and 1; zero means never.
	Ratio float64 `toml:"ratio"`
	// Timeout bounds each call; zero means no timeout.
	Timeout time.Duration `toml:"timeout"`
	// MaxDepth has no tag, so its key is max_depth; nil means the default.
	MaxDepth *int
	// Paths groups the path settings.
	Paths PathConfig `toml:"paths"`
	// Profiles are named overrides; empty means none.
	Profiles map[string]Profile `toml:"profiles"`
	// Rules are checked in order; empty means no user rules.
	Rules []Rule `toml:"rules"`
	// Labels are free-form; empty means none.
	Labels map[string]string `toml:"labels"`
	// Extra is passed through untouched; nil means none.
	Extra any `toml:"extra"`
	// Internal is not part of the file.
	Internal string `toml:"-"`
	//lint:ignore U1000 an unexported field the decoder must not fill (TestDecode's "hidden" key)
	hidden int
}

// PathConfig says which paths are off limits.
type PathConfig struct {
	// Denied paths are never touched. Empty means none.
	Denied []string `toml:"denied"`
	// Roots are the directories calls may use. Empty means the workspace.
	Roots []string `toml:"roots"`
}

// Profile overrides settings for one agent.
type Profile struct {
	Common
	// Mode overrides the top-level mode; empty means inherit.
	Mode string `toml:"mode" enum:"strict,supervised,full"`
	// Levels are the levels that notify; empty means all.
	Levels []Level `toml:"levels"`
	// Budget is actions per hour; nil means unlimited.
	Budget *int `toml:"budget"`
}

// Rule is one user rule.
type Rule struct {
	// Tool is the tool name the rule matches; empty matches any tool.
	Tool string `toml:"tool"`
	// Action is what a match does.
	Action string `toml:"action" enum:"allow,ask,deny"`
}

func ptr[T any](v T) *T { return &v }
