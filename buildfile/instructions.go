package buildfile

import (
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// An agent's instruction files (CLAUDE.md, AGENTS.md, GEMINI.md, Cursor's
// rules, Copilot's instructions) are read at the start of every later
// session and obeyed: the commands they show (code spans, fenced blocks,
// the same inside HTML comments, which the user's preview hides) are
// commands the agent will run, and sentences that tell it to hide what it
// does, skip the user's confirmation, force-push to the main branch or
// send files out are standing orders no one reviewed.

// isInstructionFile reports whether the absolute path p is an agent's
// instruction file.
func isInstructionFile(p, base string) bool {
	switch base {
	case "CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "AGENT.md", "GEMINI.md", "QWEN.md", ".cursorrules",
		".windsurfrules", ".clinerules", "copilot-instructions.md", "CONVENTIONS.md":
		return base != "copilot-instructions.md" || strings.HasSuffix(p, "/.github/copilot-instructions.md")
	}
	return strings.Contains(p, "/.cursor/rules/") || strings.Contains(p, "/.windsurf/rules/") ||
		strings.Contains(p, "/.clinerules/") || strings.Contains(p, "/.github/instructions/") ||
		strings.Contains(p, "/.claude/commands/") || strings.Contains(p, "/.claude/agents/") ||
		strings.Contains(p, "/.gemini/commands/") || strings.Contains(p, "/.codex/prompts/")
}

// markdownCode returns the commands a markdown text shows: the contents of
// fenced blocks (``` or ~~~) and of code spans, whether or not they sit
// inside an HTML comment.
func markdownCode(text string) []string {
	var out []string
	lines := strings.Split(text, "\n")
	start := 0 // the first line of the prose since the last fenced block
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		fence := fenceOf(t)
		if fence == "" {
			continue
		}
		out = append(out, codeSpans(strings.Join(lines[start:i], "\n"))...) // no span crosses a fence
		var block []string
		for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), fence); i++ {
			block = append(block, lines[i])
		}
		if b := strings.TrimSpace(strings.Join(block, "\n")); b != "" {
			out = append(out, b)
		}
		start = i + 1
	}
	if start < len(lines) {
		out = append(out, codeSpans(strings.Join(lines[start:], "\n"))...)
	}
	return out
}

// fenceOf is the fence a line opens (``` or ~~~, of any length ≥ 3), or "".
func fenceOf(t string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// codeSpans are the contents of the code spans of prose: a run of n
// backticks up to the next run of exactly n.
func codeSpans(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		open := i + n
		j, found := open, false
		for j < len(s) {
			if s[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(s) && s[j+m] == '`' {
				m++
			}
			if m == n {
				found = true
				break
			}
			j += m
		}
		if !found {
			i = open
			continue
		}
		if c := strings.TrimSpace(s[open:j]); c != "" {
			out = append(out, c)
		}
		i = j + n
	}
	return out
}

// Standing orders that no one should give an agent unseen, each matched in
// one clause (a sentence, or its part between ; and ,) that carries no
// negation before it.
var (
	hideOrder = lazyre.Regexp{Expr: `(?i)\b(do not|don't|never|without) (mention|mentioning|tell|telling|inform|informing|reveal|revealing|report|reporting|disclose|disclosing)\b[^.;]*?\b(it|this|these|that|the user|anyone|them)\b|\b(silently|secretly|covertly|quietly) (run|send|execute|post|upload|install|download|push|delete)\b|\bhide (it|this|these|them) from\b`}
	askOrder  = lazyre.Regexp{Expr: `(?i)\b(never|do not|don't) (ask|prompt|wait)\b[^.;]*\b(confirm|confirmation|approval|permission|consent)\b`}
	skipOrder = lazyre.Regexp{Expr: `(?i)\b(skip|bypass|disable)\b[^.;]*\b(confirmation|approval|permission prompts?|permissions? checks?|code review|review)\b|--dangerously-skip-permissions|--no-verify`}
	forcePush = lazyre.Regexp{Expr: `(?i)\b(push\b[^.;]*(--force\b|-f\b|--mirror\b|\bforce)|force[- ]push)`}
	mainRef   = lazyre.Regexp{Expr: `(?i)\b(main|master|default branch|production)\b`}
	sendVerb  = lazyre.Regexp{Expr: `(?i)\b(send|sends|post|posts|upload|uploads|exfiltrate|forward|email|transmit|copy)\b`}
	secretRef = lazyre.Regexp{Expr: `(?i)(\.env\b|\bsecrets?\b|\btokens?\b|\bcredentials?\b|\bpasswords?\b|private key|\.ssh\b|id_rsa|id_ed25519|\.aws\b|api[_ ]?keys?\b)`}
	remoteRef = lazyre.Regexp{Expr: `(?i)(https?://|\bto (a |the )?(remote|server|host|webhook|endpoint)|@[a-z0-9-]+\.[a-z]{2,})`}
	negation  = lazyre.Regexp{Expr: `(?i)\b(never|not|don't|do not|avoid|must not|no)\b`}
)

// instructionHazards are the standing orders of an instruction file's
// text that are critical whoever wrote them.
func instructionHazards(text string) []Hazard {
	var out []Hazard
	add := func(rule, why string) {
		for _, h := range out {
			if h.Rule == rule {
				return
			}
		}
		out = append(out, Hazard{Rule: rule, Reason: why})
	}
	for _, sentence := range splitSentences(text) {
		if hideOrder.Get().MatchString(sentence) {
			add("persisted.instructions-conceal", "it tells the agent to hide what it does from the user")
		}
		if m := skipOrder.Get().FindStringIndex(sentence); askOrder.Get().MatchString(sentence) || m != nil && !negation.Get().MatchString(sentence[:m[0]]) {
			add("persisted.instructions-skip-confirmation", "it tells the agent to skip the user's confirmation or review")
		}
		if m := sendVerb.Get().FindStringIndex(sentence); m != nil && secretRef.Get().MatchString(sentence) &&
			remoteRef.Get().MatchString(sentence) && !negation.Get().MatchString(sentence[:m[0]]) {
			add("persisted.instructions-send-secrets", "it tells the agent to send secrets or private files out")
		}
		for _, clause := range strings.FieldsFunc(sentence, func(r rune) bool { return r == ';' || r == ',' }) {
			if m := forcePush.Get().FindStringIndex(clause); m != nil && mainRef.Get().MatchString(clause) &&
				!negation.Get().MatchString(clause[:m[0]]) {
				add("persisted.instructions-force-push", "it tells the agent to force-push to the main branch")
			}
		}
	}
	return out
}

// splitSentences splits text at sentence ends (., !, ? before a space or
// a line's end) and blank lines.
func splitSentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n') ||
			c == '\n' && i+1 < len(text) && text[i+1] == '\n'
		if end {
			out = append(out, text[start:i+1])
			start = i + 1
		}
	}
	return append(out, text[start:])
}
