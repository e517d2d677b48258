package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// userRule is a compiled [Rule].
type userRule struct {
	id     string
	action risk.Verdict
	tools  nameSet
	// toolNames are the names and globs tools was made of, in order.
	toolNames []string
	command   *commandPattern
	argv      []string
	paths     []string
	hosts     []string
	when      *condition
	reason    string
}

// commandPattern is "npm run test:*" (prefix), "npm*" (raw prefix) or an
// exact command, optionally wrapped as Tool(…).
type commandPattern struct {
	text   string
	prefix bool
	raw    bool
}

// ParseCommandPattern parses "Bash(npm run test:*)" or "npm run test:*"
// into a tool name (may be empty) and a pattern.
func ParseCommandPattern(s string) (tool string, pat *commandPattern, err error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '('); i > 0 && strings.HasSuffix(s, ")") {
		tool, s = s[:i], s[i+1:len(s)-1]
	}
	if s == "" {
		return tool, nil, errors.New("empty command pattern")
	}
	switch {
	case strings.HasSuffix(s, ":*"):
		return tool, &commandPattern{text: strings.TrimSpace(s[:len(s)-2]), prefix: true}, nil
	case strings.HasSuffix(s, "*"):
		return tool, &commandPattern{text: s[:len(s)-1], raw: true}, nil
	}
	return tool, &commandPattern{text: s}, nil
}

// String writes the pattern as a rule writes it, ":*" for a prefix.
func (p *commandPattern) String() string {
	switch {
	case p.prefix:
		return p.text + ":*"
	case p.raw:
		return p.text + "*"
	}
	return p.text
}

func (p *commandPattern) match(text string) bool {
	switch {
	case p.raw:
		return strings.HasPrefix(text, p.text)
	case p.prefix:
		return text == p.text || strings.HasPrefix(text, p.text+" ")
	}
	return text == p.text
}

func compileUserRules(rs []Rule) ([]*userRule, error) {
	var out []*userRule
	var errs []error
	seen := map[string]bool{}
	for i, r := range rs {
		u, err := compileUserRule(r)
		if err == nil && seen[r.ID] {
			err = fmt.Errorf("duplicate id %q", r.ID)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("[%d] (id %q): %w", i, r.ID, err))
			continue
		}
		seen[r.ID] = true
		out = append(out, u)
	}
	return out, errors.Join(errs...)
}

func compileUserRule(r Rule) (*userRule, error) {
	var errs []error
	u := &userRule{id: r.ID, argv: r.Argv, paths: r.Paths, hosts: r.Hosts, reason: r.Reason}
	if r.ID == "" {
		errs = append(errs, errors.New("id is required"))
	}
	v, err := risk.ParseVerdict(r.Action)
	if err != nil {
		errs = append(errs, fmt.Errorf("action: %w", err))
	}
	u.action = v
	tools := r.Tools
	if r.Command != "" {
		tool, pat, err := ParseCommandPattern(r.Command)
		if err != nil {
			errs = append(errs, fmt.Errorf("command: %w", err))
		}
		if tool != "" {
			tools = append(tools, tool)
		}
		u.command = pat
	}
	u.toolNames = tools
	if u.tools, err = newNameSet(tools); err != nil {
		errs = append(errs, err)
	}
	for _, g := range append(append([]string{}, r.Paths...), r.Hosts...) {
		if !doublestar.ValidatePattern(g) {
			errs = append(errs, fmt.Errorf("bad glob %q", g))
		}
	}
	if r.When != "" {
		if u.when, err = compileCondition(r.When); err != nil {
			errs = append(errs, fmt.Errorf("when: %w", err))
		}
	}
	return u, errors.Join(errs...)
}

// grantRule is a compiled [Grant]: exactly one of command, prefix,
// paths/urls and digest limits it, or none (the whole tool).
type grantRule struct {
	tool    string
	command string
	prefix  *commandPattern
	paths   []string
	urls    []string
	digest  string
	label   string
}

func compileGrants(gs []Grant) ([]grantRule, error) {
	var out []grantRule
	var errs []error
	for i, g := range gs {
		if g.Tool == "" {
			errs = append(errs, fmt.Errorf("[%d]: tool is required", i))
			continue
		}
		limits := 0
		for _, set := range []bool{g.Command != "", g.CommandPrefix != "", len(g.Paths)+len(g.URLs) > 0, g.Digest != ""} {
			if set {
				limits++
			}
		}
		if limits > 1 {
			errs = append(errs, fmt.Errorf("[%d]: set one of command, command_prefix, paths/urls and digest, not several", i))
			continue
		}
		out = append(out, compileGrant(g))
	}
	return out, errors.Join(errs...)
}

func compileGrant(g Grant) grantRule {
	gr := grantRule{tool: g.Tool, label: g.Label(), paths: g.Paths, urls: g.URLs, digest: g.Digest}
	switch {
	case g.Command != "":
		gr.command = strings.TrimSpace(g.Command)
	case g.CommandPrefix != "":
		gr.prefix = &commandPattern{text: strings.TrimSpace(strings.TrimSuffix(g.CommandPrefix, ":*")), prefix: true}
	}
	return gr
}

// Label is how decisions name the grant in their rule ("grant:LABEL"):
// "Tool(command)" for an exact command, "Tool(prefix:*)" for a prefix,
// "Tool(path P, url U)" for paths and URLs, "Tool(args sha256:…)" for an
// argument digest, and "Tool" for the whole tool.
func (g Grant) Label() string {
	switch {
	case g.Command != "":
		return g.Tool + "(" + strings.TrimSpace(g.Command) + ")"
	case g.CommandPrefix != "":
		return g.Tool + "(" + strings.TrimSpace(strings.TrimSuffix(g.CommandPrefix, ":*")) + ":*)"
	case len(g.Paths)+len(g.URLs) > 0:
		var parts []string
		for _, p := range g.Paths {
			parts = append(parts, "path "+p)
		}
		for _, u := range g.URLs {
			parts = append(parts, "url "+u)
		}
		return g.Tool + "(" + strings.Join(parts, ", ") + ")"
	case g.Digest != "":
		return g.Tool + "(args " + g.Digest[:min(len(g.Digest), len("sha256:")+12)] + ")"
	}
	return g.Tool
}

// matchesScript reports whether every simple command of a script (nested
// ones included) matches the pattern, so that `npm test; rm -rf /` or
// `npm test $(rm -rf /)` never ride on a grant or allow rule for `npm test`.
func (p *commandPattern) matchesScript(s *shell.Script) bool {
	if s == nil || len(s.Commands) == 0 || len(s.Problems) > 0 {
		return false
	}
	for _, c := range s.Commands {
		if !p.match(normalized(c)) {
			return false
		}
	}
	return true
}

// matchesAny reports whether some simple command matches.
func (p *commandPattern) matchesAny(s *shell.Script) bool {
	if s == nil {
		return false
	}
	for _, c := range s.Commands {
		if p.match(normalized(c)) {
			return true
		}
	}
	return false
}
