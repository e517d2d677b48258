package approval

import (
	"fmt"
	"strings"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Grant is a remembered approval: calls of Tool (and, when CommandPrefix is
// set, shell commands starting with it) that would ask are allowed.
type Grant struct {
	// Tool is the tool name as the agent sends it ("Bash", "Write") or a
	// tool kind ("shell", "write"); compared case-insensitively. Required.
	Tool string `json:"tool"`
	// CommandPrefix limits the grant to commands starting with it (see
	// [Grant.Matches]); empty means every call of the tool.
	CommandPrefix string `json:"command_prefix,omitempty"`
	// Scope is Session or Always (Once is never stored).
	Scope Scope `json:"scope"`
	// Session is the agent session a Session grant belongs to; empty for
	// Always grants.
	Session string `json:"session,omitempty"`
	// Created is when the grant was made.
	Created time.Time `json:"created"`
}

// Pattern renders the grant as "Tool" or "Tool(prefix:*)", the form
// [ParseGrantPattern] reads and decisions name in their rule
// ("grant:Bash(npm test:*)").
func (g Grant) Pattern() string {
	if g.CommandPrefix == "" {
		return g.Tool
	}
	return g.Tool + "(" + g.CommandPrefix + ":*)"
}

// ParseGrantPattern parses "Tool" or "Tool(prefix:*)" (for example
// "Bash(npm test:*)") into a Grant with Scope Once and no session; the
// caller sets those. "Tool(cmd)" without ":*" is rejected rather than read
// as an exact match, so that nobody grants more than they meant.
func ParseGrantPattern(s string) (Grant, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return validGrant(Grant{Tool: s}, s)
	}
	if !strings.HasSuffix(s, ":*)") {
		return Grant{}, fmt.Errorf("grant pattern %q: write Tool or Tool(command prefix:*), e.g. Bash(npm test:*)", s)
	}
	g := Grant{Tool: strings.TrimSpace(s[:open]), CommandPrefix: strings.TrimSpace(s[open+1 : len(s)-3])}
	if g.CommandPrefix == "" {
		return Grant{}, fmt.Errorf("grant pattern %q: the command prefix is empty; write just %q to grant the whole tool", s, g.Tool)
	}
	return validGrant(g, s)
}

func validGrant(g Grant, s string) (Grant, error) {
	if g.Tool == "" || strings.ContainsAny(g.Tool, "() \t\n\"'") {
		return Grant{}, fmt.Errorf("grant pattern %q: the tool name must be a non-empty word, e.g. Bash or Write", s)
	}
	if i := strings.IndexAny(g.CommandPrefix, controlChars); i >= 0 {
		return Grant{}, fmt.Errorf("grant pattern %q: the command prefix may not contain %q (shell control characters)", s, g.CommandPrefix[i])
	}
	return g, nil
}

// controlChars may appear neither in a command prefix nor after it in a
// command a prefix grant covers: they would chain, redirect or substitute
// another command.
const controlChars = ";&|<>$`\n\r\\()"

// Matches reports whether the grant covers call c:
//   - the tool name (or kind) equals Tool, case-insensitively;
//   - a Session grant belongs to c's session (a call without a session
//     matches no Session grant);
//   - with a CommandPrefix, c.Command with surrounding blanks trimmed starts
//     with the prefix, followed by the end or a blank, and the whole command
//     contains none of ; & | < > $ ` \ ( ) or a line break. So "npm test"
//     covers "npm test --watch" but not "npm testx", "npm test; rm -rf ~",
//     "npm test $(curl x)" or "npm test > out". This is deliberately
//     stricter than a shell parse: a command a prefix cannot vouch for stays
//     an ask.
func (g Grant) Matches(c call.Call) bool {
	if !strings.EqualFold(g.Tool, c.Tool) && !strings.EqualFold(g.Tool, string(c.Kind)) {
		return false
	}
	if g.Scope == Session && (g.Session == "" || g.Session != c.Who.Session) {
		return false
	}
	return g.CommandPrefix == "" || prefixCovers(g.CommandPrefix, c.Command)
}

func prefixCovers(prefix, command string) bool {
	cmd := strings.Trim(command, " \t")
	if !strings.HasPrefix(cmd, prefix) || strings.ContainsAny(cmd, controlChars) {
		return false
	}
	rest := cmd[len(prefix):]
	return rest == "" || rest[0] == ' ' || rest[0] == '\t'
}

// ApplyGrants returns d with its ask turned into allow when one of grants
// matches c. Only a plain ask can be granted: deny stays deny, allow stays
// allow, and an unverifiable ask (part of the call could not be known
// statically) stays ask — a grant made for a command someone saw cannot
// vouch for one nobody can see. The allowed decision names the grant in its
// rule ("grant:Bash(npm test:*)") and keeps the findings.
func ApplyGrants(d policy.Decision, c call.Call, grants []Grant) policy.Decision {
	if d.Verdict != risk.Ask || d.Unverifiable {
		return d
	}
	for _, g := range grants {
		if g.Matches(c) {
			d.Verdict = risk.Allow
			d.Rule = "grant:" + g.Pattern()
			d.Reason = fmt.Sprintf("allowed by the %s grant %s (it would otherwise ask: %s)", g.Scope, g.Pattern(), d.Reason)
			return d
		}
	}
	return d
}

// GrantFor returns the grant that an approval of r with scope s records:
// for a shell call, the whole command as a prefix (so approving
// "rm -rf build" does not approve every rm), for other tools the tool. It
// reports false when the answer cannot be remembered: scope Once, a Session
// scope without a session id, a shell command with control characters
// (which no prefix grant could match), or an unverifiable decision.
func GrantFor(r Request, s Scope, now time.Time) (Grant, bool) {
	c := r.Call
	if s == Once || r.Decision.Unverifiable || (s == Session && c.Who.Session == "") {
		return Grant{}, false
	}
	g := Grant{Tool: c.Tool, Scope: s, Created: now.UTC()}
	if s == Session {
		g.Session = c.Who.Session
	}
	if c.Kind == call.Shell || c.Command != "" {
		g.CommandPrefix = strings.Trim(c.Command, " \t")
		if g.CommandPrefix == "" || strings.ContainsAny(g.CommandPrefix, controlChars) {
			return Grant{}, false
		}
	}
	return g, g.Tool != ""
}
