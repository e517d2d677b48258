package audit

import "strings"

// tolerant splits text[start:end] into simple commands the way a shell
// would, but never fails: an unterminated quote or expansion runs to the
// end, and unknown syntax only separates commands. It understands quotes,
// escapes, expansions, ; & && || | |& ( ) $( ` separators, redirections,
// here-strings, here-documents and leading NAME=value assignments.
func (a *analyzer) tolerant(start, end, depth int) []*simpleCmd {
	l := &lexer{a: a, s: a.text, i: start, end: end, depth: depth, cur: &simpleCmd{}}
	l.run()
	return l.cmds
}

type lexer struct {
	a      *analyzer
	s      string
	i, end int
	depth  int

	cmds     []*simpleCmd
	cur      *simpleCmd
	lastUnit []*simpleCmd  // the last command, or the last ( … ) group
	pipeFrom []*simpleCmd  // producers for the next command, after |
	groups   []int         // len(cmds) at each open (
	redirect byte          // what the next word is: 0 an argument, 't' a target, 's' a here-string, 'h' a here-document delimiter
	hdocs    []pendingHdoc // here-documents whose bodies start after the next newline
}

type pendingHdoc struct {
	delim string
	dash  bool // <<- strips leading tabs
	cmd   *simpleCmd
}

func (l *lexer) run() {
	for l.i < l.end {
		c := l.s[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.i++
		case c == '\n':
			l.finish()
			l.i++
			l.bodies()
		case c == '#':
			for l.i < l.end && l.s[l.i] != '\n' {
				l.i++
			}
		case c == ';' || c == '`':
			l.finish()
			l.i++
		case c == '&':
			if l.peek(1) == '>' { // &> file
				l.i += 2
				l.redirect = 't'
				continue
			}
			l.finish()
			l.i++
			if l.peek(0) == '&' {
				l.i++
			}
		case c == '|':
			l.finish()
			l.i++
			switch l.peek(0) {
			case '|':
				l.i++
			case '&':
				l.i++
				l.pipeFrom = l.lastUnit
			default:
				l.pipeFrom = l.lastUnit
			}
		case c == '(':
			l.finish()
			l.groups = append(l.groups, len(l.cmds))
			l.i++
		case c == ')':
			l.finish()
			if n := len(l.groups); n > 0 {
				l.lastUnit = l.cmds[l.groups[n-1]:]
				l.groups = l.groups[:n-1]
			}
			l.i++
		case c == '$' && l.peek(1) == '(' && l.peek(2) != '(':
			l.finish()
			l.groups = append(l.groups, len(l.cmds))
			l.i += 2
		case c == '<' || c == '>':
			l.operator()
		default:
			l.word()
		}
	}
	l.finish()
}

func (l *lexer) peek(k int) byte {
	if l.i+k < l.end {
		return l.s[l.i+k]
	}
	return 0
}

// operator reads a redirection operator.
func (l *lexer) operator() {
	switch {
	case strings.HasPrefix(l.s[l.i:l.end], "<<<"):
		l.i += 3
		l.redirect = 's'
	case strings.HasPrefix(l.s[l.i:l.end], "<<-"):
		l.i += 3
		l.redirect = 'H'
	case strings.HasPrefix(l.s[l.i:l.end], "<<"):
		l.i += 2
		l.redirect = 'h'
	default:
		l.i++
		for l.i < l.end && strings.IndexByte(">&|", l.s[l.i]) >= 0 {
			l.i++
		}
		l.redirect = 't'
	}
}

// finish ends the current command.
func (l *lexer) finish() {
	l.redirect = 0 // a redirection without its target ends here
	c := l.cur
	if len(c.args) == 0 && len(c.assigns) == 0 && len(c.stdin) == 0 {
		return
	}
	if l.pipeFrom != nil {
		c.from = l.pipeFrom
		l.pipeFrom = nil
	}
	l.cmds = append(l.cmds, c)
	l.lastUnit = []*simpleCmd{c}
	l.cur = &simpleCmd{}
	l.redirect = 0
}

// bodies reads the here-document bodies that start at the current line.
func (l *lexer) bodies() {
	for _, h := range l.hdocs {
		start := l.i
		for l.i < l.end {
			eol := strings.IndexByte(l.s[l.i:l.end], '\n')
			line := l.s[l.i:l.end]
			if eol >= 0 {
				line = l.s[l.i : l.i+eol]
			}
			check := strings.TrimSuffix(line, "\r")
			if h.dash {
				check = strings.TrimLeft(check, "\t")
			}
			if check == h.delim {
				if l.i > start {
					body := l.s[start : l.i-1] // without the newline before the delimiter
					h.cmd.stdin = append(h.cmd.stdin, word{start: start, end: start + len(body), val: body, raw: true})
					l.a.nested(start, start+len(body), l.depth)
				}
				l.i += len(line)
				if eol >= 0 {
					l.i++
				}
				break
			}
			if eol < 0 { // no delimiter: the body runs to the end
				l.i = l.end
				if body := strings.TrimRight(l.s[start:l.end], "\r\n"); body != "" {
					h.cmd.stdin = append(h.cmd.stdin, word{start: start, end: start + len(body), val: body, raw: true})
					l.a.nested(start, start+len(body), l.depth)
				}
				break
			}
			l.i += eol + 1
		}
	}
	l.hdocs = nil
}

// word reads one word and files it as an argument, an assignment, a
// redirection target or a here-string.
func (l *lexer) word() {
	w := word{start: l.i}
	var val strings.Builder
	dynamic := func(from int) {
		s := l.s[from:l.i]
		w.dyn = append(w.dyn, span{val.Len(), val.Len() + len(s)})
		val.WriteString(s)
	}
	for l.i < l.end {
		c := l.s[l.i]
		if strings.IndexByte(" \t\r\n;&|()<>`", c) >= 0 {
			break
		}
		switch {
		case c == '\'' || c == '$' && l.peek(1) == '\'':
			if c == '$' {
				l.i++
			}
			from := l.i + 1
			to := strings.IndexByte(l.s[from:l.end], '\'')
			if to < 0 {
				to = l.end - from
			}
			val.WriteString(l.s[from : from+to])
			l.a.nested(from, from+to, l.depth)
			l.i = min(from+to+1, l.end)
		case c == '"':
			l.i++
			from := l.i
			for l.i < l.end && l.s[l.i] != '"' {
				switch d := l.s[l.i]; {
				case d == '\\' && l.i+1 < l.end:
					if strings.IndexByte("$`\"\\\n", l.s[l.i+1]) >= 0 {
						if l.s[l.i+1] != '\n' {
							val.WriteByte(l.s[l.i+1])
						}
					} else {
						val.WriteString(l.s[l.i : l.i+2])
					}
					l.i += 2
				case d == '$' || d == '`':
					at := l.i
					l.expansion()
					dynamic(at)
				default:
					val.WriteByte(d)
					l.i++
				}
			}
			l.a.nested(from, l.i, l.depth)
			if l.i < l.end {
				l.i++
			}
		case c == '\\':
			if l.i+1 < l.end {
				if l.s[l.i+1] != '\n' {
					val.WriteByte(l.s[l.i+1])
				}
				l.i += 2
			} else {
				l.i++
			}
		case c == '$':
			at := l.i
			l.expansion()
			dynamic(at)
		default:
			val.WriteByte(c)
			l.i++
		}
	}
	w.end, w.val = l.i, val.String()
	l.file(w)
}

// expansion skips $NAME, ${…}, $(…), $((…)) or `…` at l.i; the code of
// a command substitution is read as commands too.
func (l *lexer) expansion() {
	s := l.s
	if s[l.i] == '`' {
		to := strings.IndexByte(s[l.i+1:l.end], '`')
		if to < 0 {
			to = l.end - l.i - 1
		}
		l.a.reread(l.i+1, l.i+1+to, l.depth)
		l.i = min(l.i+to+2, l.end)
		return
	}
	if strings.HasPrefix(s[l.i:l.end], "$(") && !strings.HasPrefix(s[l.i:l.end], "$((") {
		defer func(from int) { l.a.reread(from, max(from, l.i-1), l.depth) }(l.i + 2)
	}
	l.i++ // $
	if l.i >= l.end {
		return
	}
	switch open := s[l.i]; open {
	case '{', '(':
		closing := byte('}')
		if open == '(' {
			closing = ')'
		}
		depth := 0
		for ; l.i < l.end; l.i++ {
			switch s[l.i] {
			case open:
				depth++
			case closing:
				depth--
				if depth == 0 {
					l.i++
					return
				}
			}
		}
	default:
		if c := s[l.i]; c >= '0' && c <= '9' || strings.IndexByte("@*#?$!-", c) >= 0 {
			l.i++
			return
		}
		for l.i < l.end {
			c := s[l.i]
			if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
				l.i++
				continue
			}
			break
		}
	}
}

// file puts a word where it belongs.
func (l *lexer) file(w word) {
	c := l.cur
	switch l.redirect {
	case 't':
		l.redirect = 0
		return
	case 's':
		l.redirect = 0
		c.stdin = append(c.stdin, w)
		return
	case 'h', 'H':
		l.hdocs = append(l.hdocs, pendingHdoc{delim: w.val, dash: l.redirect == 'H', cmd: c})
		l.redirect = 0
		return
	}
	if l.i < l.end && (l.s[l.i] == '<' || l.s[l.i] == '>') && isDigits(w.val) && w.dyn == nil {
		return // the file descriptor of 2>file
	}
	if len(c.args) == 0 {
		if eq := strings.IndexByte(w.val, '='); eq > 0 && isName(w.val[:eq]) && l.s[w.start+eq] == '=' {
			v := w
			v.start += eq + 1
			v.val = w.val[eq+1:]
			v.dyn = shiftSpans(w.dyn, eq+1)
			c.assigns = append(c.assigns, assign{name: w.val[:eq], val: v})
			return
		}
	}
	c.args = append(c.args, w)
}

func shiftSpans(spans []span, by int) []span {
	var out []span
	for _, s := range spans {
		if s.end > by {
			out = append(out, span{max(s.start-by, 0), s.end - by})
		}
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isName reports whether s is a shell variable name.
func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
