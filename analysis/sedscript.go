package analysis

import (
	"regexp"
	"strconv"
	"strings"
)

// A sed program applied statically: sed -i edits a file the call then
// runs, and what runs is the file after the edit. The subset modelled is
// what edits a line or a few: s/RE/REPL/FLAGS (flags g, a number, i/I),
// c\, a\, i\ and d, each with no address, a line number, $ or /RE/. Any
// other command (n, N, h, G, w, e, y, a branch, …), an option that
// changes what sed prints (-n, -z) or an expression that does not
// translate makes the edit unknown: the caller then judges the file as
// unverifiable, never as its old text.

// sedCmd is one command of a sed program.
type sedCmd struct {
	line  int            // address: a line number; 0 none
	last  bool           // address: $
	match *regexp.Regexp // address: /RE/
	op    byte           // 's', 'c', 'a', 'i' or 'd'
	re    *regexp.Regexp // s: the expression
	repl  string         // s: the replacement as written; c, a, i: the text
	all   bool           // s: g
	nth   int            // s: the occurrence replaced (1 by default)
}

// maxSedCommands bounds the commands of a program that is applied.
const maxSedCommands = 64

// parseSed reads a sed program; ok is false for one outside the subset.
func parseSed(prog string, ere bool) ([]sedCmd, bool) {
	var cmds []sedCmd
	i := 0
	for {
		for i < len(prog) && strings.IndexByte(" \t\n;", prog[i]) >= 0 {
			i++
		}
		if i == len(prog) {
			return cmds, len(cmds) > 0
		}
		if len(cmds) == maxSedCommands {
			return nil, false
		}
		var c sedCmd
		// the address
		switch {
		case prog[i] >= '0' && prog[i] <= '9':
			j := i
			for j < len(prog) && prog[j] >= '0' && prog[j] <= '9' {
				j++
			}
			n, err := strconv.Atoi(prog[i:j])
			if err != nil || n == 0 {
				return nil, false
			}
			c.line, i = n, j
		case prog[i] == '$':
			c.last = true
			i++
		case prog[i] == '/':
			re, j, ok := sedPart(prog, i+1, '/')
			if !ok {
				return nil, false
			}
			rx, ok := sedRegexp(re, '/', ere, false)
			if !ok {
				return nil, false
			}
			c.match, i = rx, j
		}
		for i < len(prog) && (prog[i] == ' ' || prog[i] == '\t') {
			i++
		}
		if i == len(prog) {
			return nil, false
		}
		c.op = prog[i]
		i++
		switch c.op {
		case 's':
			if i == len(prog) || strings.IndexByte("\\\n ", prog[i]) >= 0 {
				return nil, false
			}
			d := prog[i]
			re, j, ok := sedPart(prog, i+1, d)
			if !ok {
				return nil, false
			}
			repl, k, ok := sedPart(prog, j, d)
			if !ok {
				return nil, false
			}
			i = k
			fold := false
			c.nth = 1
		flags:
			for i < len(prog) {
				switch f := prog[i]; {
				case f == 'g':
					c.all = true
				case f == 'i' || f == 'I':
					fold = true
				case f >= '1' && f <= '9':
					j := i
					for j < len(prog) && prog[j] >= '0' && prog[j] <= '9' {
						j++
					}
					n, err := strconv.Atoi(prog[i:j])
					if err != nil {
						return nil, false
					}
					c.nth, i = n, j-1
				case f == ';' || f == '\n' || f == ' ' || f == '\t' || f == '}':
					break flags
				default:
					return nil, false // p, w FILE, e (runs the line), m
				}
				i++
			}
			rx, ok := sedRegexp(re, d, ere, fold)
			if !ok || !sedReplacementKnown(repl) {
				return nil, false
			}
			c.re, c.repl = rx, repl
		case 'd':
		case 'c', 'a', 'i':
			// GNU's one-line form (c TEXT) or POSIX's (c\ NEWLINE TEXT);
			// the text runs to the end of the line
			for i < len(prog) && (prog[i] == ' ' || prog[i] == '\t') {
				i++
			}
			if i < len(prog) && prog[i] == '\\' {
				i++
				if i < len(prog) && prog[i] == '\n' {
					i++
				}
			}
			var sb strings.Builder
			for ; i < len(prog) && prog[i] != '\n'; i++ {
				if prog[i] == '\\' && i+1 < len(prog) {
					i++
					if prog[i] == '\n' {
						sb.WriteByte('\n') // a text of several lines
						continue
					}
				}
				sb.WriteByte(prog[i])
			}
			c.repl = sb.String()
		default:
			return nil, false
		}
		cmds = append(cmds, c)
	}
}

// sedPart reads up to the unescaped delimiter d from i: the part as
// written (escapes kept) and the index after the delimiter.
func sedPart(prog string, i int, d byte) (string, int, bool) {
	for j := i; j < len(prog); j++ {
		switch prog[j] {
		case '\\':
			j++
		case '\n':
			return "", 0, false
		case d:
			return prog[i:j], j + 1, true
		}
	}
	return "", 0, false
}

// sedRegexp translates a POSIX basic (or, with ere, extended) regular
// expression into Go's syntax, matched leftmost-longest as POSIX does. An
// escaped delimiter is the delimiter itself.
func sedRegexp(re string, d byte, ere, fold bool) (*regexp.Regexp, bool) {
	var sb strings.Builder
	if fold {
		sb.WriteString("(?i)")
	}
	for i := 0; i < len(re); i++ {
		c := re[i]
		switch {
		case c == '\\' && i+1 < len(re):
			i++
			e := re[i]
			switch {
			case e == d:
				sb.WriteString(regexp.QuoteMeta(string(d)))
			case e == 'n':
				sb.WriteString(`\n`)
			case e == 't':
				sb.WriteString(`\t`)
			case !ere && strings.IndexByte("(){}|+?", e) >= 0:
				sb.WriteByte(e) // BRE's \( \) \{ \} and GNU's \| \+ \?
			case e >= '1' && e <= '9':
				return nil, false // a back-reference: no RE2 equivalent
			case e == 'w' || e == 'W' || e == 's' || e == 'S' || e == 'b' || e == 'B':
				sb.WriteByte('\\')
				sb.WriteByte(e)
			case e == '<' || e == '>' || e == '`' || e == '\'':
				return nil, false
			default:
				sb.WriteString(regexp.QuoteMeta(string(e)))
			}
		case c == '[':
			j := i + 1
			if j < len(re) && re[j] == '^' {
				j++
			}
			if j < len(re) && re[j] == ']' {
				j++
			}
			for j < len(re) && re[j] != ']' {
				if re[j] == '[' && j+1 < len(re) && strings.IndexByte(":.=", re[j+1]) >= 0 {
					k := strings.Index(re[j+2:], string(re[j+1])+"]")
					if k < 0 {
						return nil, false
					}
					j += k + 4
					continue
				}
				j++
			}
			if j >= len(re) {
				return nil, false
			}
			class := re[i : j+1]
			if strings.Contains(class, `\`) {
				class = strings.ReplaceAll(class, `\`, `\\`) // a backslash is itself in a POSIX bracket
			}
			sb.WriteString(class)
			i = j
		case !ere && strings.IndexByte("(){}|+?", c) >= 0:
			sb.WriteString(regexp.QuoteMeta(string(c)))
		case c == '*' && (i == 0 || !ere && (re[i-1] == '^' && i == 1)):
			sb.WriteString(`\*`) // a leading * is literal
		default:
			sb.WriteByte(c)
		}
	}
	rx, err := regexp.Compile(sb.String())
	if err != nil {
		return nil, false
	}
	rx.Longest()
	return rx, true
}

// sedReplacementKnown reports a replacement without GNU's case
// conversions (\L, \U, \l, \u, \E), which are not modelled.
func sedReplacementKnown(repl string) bool {
	for i := 0; i+1 < len(repl); i++ {
		if repl[i] == '\\' {
			if strings.IndexByte("LUluE", repl[i+1]) >= 0 {
				return false
			}
			i++
		}
	}
	return true
}

// expand writes the replacement for the match m (submatch indexes) of
// line.
func (c *sedCmd) expand(sb *strings.Builder, line string, m []int) {
	r := c.repl
	for i := 0; i < len(r); i++ {
		switch ch := r[i]; {
		case ch == '&':
			sb.WriteString(line[m[0]:m[1]])
		case ch == '\\' && i+1 < len(r):
			i++
			switch e := r[i]; {
			case e >= '0' && e <= '9':
				if k := int(e-'0') * 2; k+1 < len(m) && m[k] >= 0 {
					sb.WriteString(line[m[k]:m[k+1]])
				}
			case e == 'n':
				sb.WriteByte('\n')
			case e == 't':
				sb.WriteByte('\t')
			case e == '\n':
				sb.WriteByte('\n')
			default:
				sb.WriteByte(e) // \& \\ and the escaped delimiter
			}
		default:
			sb.WriteByte(ch)
		}
	}
}

// substitute applies an s command to one line.
func (c *sedCmd) substitute(line string) string {
	ms := c.re.FindAllStringSubmatchIndex(line, -1)
	if len(ms) == 0 {
		return line
	}
	var sb strings.Builder
	prev := 0
	for k, m := range ms {
		if !c.all && k+1 != c.nth || c.all && k+1 < c.nth {
			continue
		}
		sb.WriteString(line[prev:m[0]])
		c.expand(&sb, line, m)
		prev = m[1]
		if !c.all {
			break
		}
	}
	sb.WriteString(line[prev:])
	return sb.String()
}

// applySed returns text as the sed program cmds leaves it (sed's cycle:
// each line through every command, in order).
func applySed(cmds []sedCmd, text string) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out strings.Builder
	for n, raw := range lines {
		line, nl := strings.CutSuffix(raw, "\n")
		var after strings.Builder
		deleted := false
	cycle:
		for i := range cmds {
			c := &cmds[i]
			switch {
			case c.line > 0 && c.line != n+1, c.last && n != len(lines)-1, c.match != nil && !c.match.MatchString(line):
				continue
			}
			switch c.op {
			case 's':
				line = c.substitute(line)
			case 'd':
				deleted = true
				break cycle
			case 'c':
				out.WriteString(c.repl + "\n")
				deleted = true
				break cycle
			case 'i':
				out.WriteString(c.repl + "\n")
			case 'a':
				after.WriteString(c.repl + "\n")
			}
		}
		if !deleted {
			out.WriteString(line)
			if nl || after.Len() > 0 {
				out.WriteByte('\n')
			}
		}
		out.WriteString(after.String())
	}
	return out.String()
}
