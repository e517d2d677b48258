package approval

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/risk"
)

// ANSI sequences used when colour is on.
const (
	ansiReset     = "\x1b[0m"
	ansiBold      = "\x1b[1m"
	ansiUnderline = "\x1b[4m"
	ansiNoUnder   = "\x1b[24m"
)

// Span markers used without colour.
const (
	markOpen  = "[["
	markClose = "]]"
)

var blastColour = map[risk.Blast]string{
	risk.BlastNone:     "\x1b[30;47m",
	risk.BlastLow:      "\x1b[30;42m",
	risk.BlastMedium:   "\x1b[30;43m",
	risk.BlastHigh:     "\x1b[97;41m",
	risk.BlastCritical: "\x1b[97;41;1m",
	risk.BlastUnknown:  "\x1b[97;45m",
}

// Question returns the question shown under the warning block, offering
// only the scopes the answer can be remembered in (see [GrantFor]):
// [s]ession needs a session id, and neither [s]ession nor [a]lways is
// offered for a call no grant could cover.
func Question(r Request) string {
	q := "Allow? [y]es / [n]o"
	for _, s := range []Scope{Session, Always} {
		if offered(r, s) {
			q += " / [" + s.String()[:1] + "]" + s.String()[1:]
		}
	}
	return q
}

func offered(r Request, s Scope) bool {
	_, ok := GrantFor(r, s, time.Time{})
	return ok
}

// RenderWarning returns the warning block shown before the prompt: the
// tool, tier, blast radius (as a coloured badge when colour is true),
// category, the command with every finding's span marked (underlined in
// colour, else between [[ and ]]) or the redacted argument summary for
// other tools, then the reason, the suggestion and the rule. Control
// characters in any text are shown escaped, so a command cannot move the
// cursor or fake the prompt. Lines end in "\r\n" (the terminal may be in
// raw mode).
func RenderWarning(r Request, colour bool) string {
	grant, remembered := GrantFor(r, Always, time.Time{})
	r = Shown(r)
	d, c := r.Decision, r.Call
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\r\n", args...) }
	line("%s", bold("toolguard: this call needs your approval", colour))
	line("  tool:     %s (%s)%s", visible(c.Tool), visible(string(c.Kind)), who(c.Who.Agent, c.Who.Session))
	line("  risk:     %s, blast radius %s%s", d.Tier, badge(d.Blast, colour), category(d.Category))
	if c.Command != "" {
		line("  command:  %s", markSpans(c.Command, spans(d.Findings), colour))
	} else if s := audit.Summarize(c); s != "" {
		line("  input:    %s", visible(s))
	}
	if d.Reason != "" {
		line("  why:      %s", visible(d.Reason))
	}
	if d.Suggestion != "" {
		line("  instead:  %s", visible(d.Suggestion))
	}
	if d.Unverifiable {
		line("  note:     part of this call cannot be checked statically; it cannot be remembered")
	}
	line("  rule:     %s", visible(d.Rule))
	if remembered {
		line("  remember: %s (what [s]ession or [a]lways allows from now on)", visible(audit.RedactString(grant.Pattern())))
	}
	return b.String()
}

func bold(s string, colour bool) string {
	if !colour {
		return "=== " + s + " ==="
	}
	return ansiBold + s + ansiReset
}

func who(agent, session string) string {
	var parts []string
	if agent != "" {
		parts = append(parts, "agent "+visible(agent))
	}
	if session != "" {
		parts = append(parts, "session "+visible(session))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

func badge(b risk.Blast, colour bool) string {
	name := strings.ToUpper(b.String())
	if !colour {
		return name
	}
	return blastColour[b] + " " + name + " " + ansiReset
}

func category(c risk.Category) string {
	if c == "" {
		return ""
	}
	return ", category " + visible(string(c))
}

// spans returns the findings' spans, sorted and merged where they overlap.
func spans(fs []risk.Finding) []risk.Span {
	var out []risk.Span
	for _, f := range fs {
		if !f.Span.IsZero() && f.Span.Start < f.Span.End {
			out = append(out, f.Span)
		}
	}
	slices.SortFunc(out, func(a, b risk.Span) int { return a.Start - b.Start })
	merged := out[:0]
	for _, s := range out {
		if n := len(merged); n > 0 && s.Start <= merged[n-1].End {
			merged[n-1].End = max(merged[n-1].End, s.End)
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// markSpans renders cmd with the spans marked. Spans outside cmd are
// clipped; a span that does not fall on character boundaries is widened to
// them.
func markSpans(cmd string, ss []risk.Span, colour bool) string {
	open, closing := markOpen, markClose
	if colour {
		open, closing = ansiUnderline, ansiNoUnder
	}
	var b strings.Builder
	pos := 0
	for _, s := range ss {
		start, end := clip(cmd, s.Start), clip(cmd, s.End)
		if start < pos || start >= end {
			continue
		}
		b.WriteString(visible(cmd[pos:start]) + open + visible(cmd[start:end]) + closing)
		pos = end
	}
	b.WriteString(visible(cmd[pos:]))
	return b.String()
}

func clip(s string, i int) int {
	i = min(max(i, 0), len(s))
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// visible escapes control characters (C0, DEL, C1, and invalid UTF-8) so
// that text cannot drive the terminal; a newline is shown as ⏎.
func visible(s string) string {
	if !strings.ContainsFunc(s, needsEscape) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case r == '\n':
			b.WriteString("⏎")
		case needsEscape(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

func needsEscape(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || unicode.In(r, unicode.Bidi_Control)
}
