package buildfile

import (
	"fmt"
	"strings"
)

// gitEntry is one variable of a git config file: Key is
// "section.key" or "section.subsection.key", section and key lower-cased
// (git compares them without case), the subsection as written.
type gitEntry struct {
	Key   string
	Value string
}

// maxGitEntries bounds the variables one config file may hold.
const maxGitEntries = 4096

// parseGitConfig reads git's config format: [section], [section
// "subsection"], the old [section.subsection], name = value with quotes,
// backslash escapes and continued lines, comments after # and ;, and a name
// alone (a true boolean). Text git would refuse is an error.
func parseGitConfig(text string) ([]gitEntry, error) {
	p := gitConfigParser{s: text, line: 1}
	return p.parse()
}

type gitConfigParser struct {
	s       string
	i       int
	line    int
	section string
	out     []gitEntry
}

func (p *gitConfigParser) parse() ([]gitEntry, error) {
	p.s = strings.TrimPrefix(p.s, "\uFEFF")
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '\n':
			p.line++
			p.i++
		case c == ' ' || c == '\t' || c == '\r':
			p.i++
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			if err := p.header(); err != nil {
				return nil, err
			}
		case isGitKeyStart(c):
			if err := p.variable(); err != nil {
				return nil, err
			}
		default:
			return nil, p.errorf("unexpected %q", c)
		}
	}
	return p.out, nil
}

func (p *gitConfigParser) errorf(format string, a ...any) error {
	return fmt.Errorf("bad config line %d: %s", p.line, fmt.Sprintf(format, a...))
}

func (p *gitConfigParser) skipLine() {
	for p.i < len(p.s) && p.s[p.i] != '\n' {
		p.i++
	}
}

// header reads [section], [section "sub"] or [section.sub].
func (p *gitConfigParser) header() error {
	p.i++ // [
	start := p.i
	for p.i < len(p.s) && (isGitKeyChar(p.s[p.i]) || p.s[p.i] == '.') {
		p.i++
	}
	name := strings.ToLower(p.s[start:p.i])
	if name == "" {
		return p.errorf("empty section name")
	}
	if p.i < len(p.s) && p.s[p.i] == ' ' {
		for p.i < len(p.s) && p.s[p.i] == ' ' {
			p.i++
		}
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return p.errorf("expected a quoted subsection")
		}
		p.i++
		var sub strings.Builder
		for {
			if p.i >= len(p.s) || p.s[p.i] == '\n' {
				return p.errorf("unterminated subsection")
			}
			c := p.s[p.i]
			p.i++
			if c == '"' {
				break
			}
			if c == '\\' {
				if p.i >= len(p.s) || p.s[p.i] == '\n' {
					return p.errorf("unterminated subsection")
				}
				c = p.s[p.i]
				p.i++
			}
			sub.WriteByte(c)
		}
		name += "." + sub.String()
	} else if sec, sub, ok := strings.Cut(name, "."); ok { // [section.sub]: the old spelling
		name = sec + "." + sub
	}
	if p.i >= len(p.s) || p.s[p.i] != ']' {
		return p.errorf("expected ]")
	}
	p.i++
	p.section = name
	return nil
}

// variable reads name [= value].
func (p *gitConfigParser) variable() error {
	if p.section == "" {
		return p.errorf("a variable outside any section")
	}
	start := p.i
	for p.i < len(p.s) && isGitKeyChar(p.s[p.i]) {
		p.i++
	}
	key := p.section + "." + strings.ToLower(p.s[start:p.i])
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
	value := "true"
	switch {
	case p.i >= len(p.s) || p.s[p.i] == '\n' || p.s[p.i] == '\r' || p.s[p.i] == '#' || p.s[p.i] == ';':
		p.skipLine()
	case p.s[p.i] == '=':
		p.i++
		v, err := p.value()
		if err != nil {
			return err
		}
		value = v
	default:
		return p.errorf("expected = after %s", key)
	}
	if len(p.out) >= maxGitEntries {
		return p.errorf("more than %d variables", maxGitEntries)
	}
	p.out = append(p.out, gitEntry{Key: key, Value: value})
	return nil
}

// value reads a value to the end of its line: leading blanks dropped,
// trailing blanks outside quotes dropped, quotes removed, \" \\ \n \t \b
// escapes and a backslash before the line's end (a continued line).
func (p *gitConfigParser) value() (string, error) {
	var b strings.Builder
	quoted, pending := false, 0 // pending: blanks kept only if more follows
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\n':
			if quoted {
				return "", p.errorf("unterminated quote")
			}
			p.line++
			return b.String(), nil
		case !quoted && (c == '#' || c == ';'):
			p.skipLine()
			return b.String(), nil
		case !quoted && (c == ' ' || c == '\t' || c == '\r'):
			if b.Len() > 0 {
				pending++
			}
			continue
		case c == '"':
			quoted = !quoted
		case c == '\\':
			if p.i >= len(p.s) {
				return "", p.errorf("a backslash at the end")
			}
			e := p.s[p.i]
			p.i++
			switch e {
			case '\n':
				p.line++
			case '\r':
				if p.i < len(p.s) && p.s[p.i] == '\n' {
					p.i++
					p.line++
				}
			case '"', '\\':
				b.WriteString(strings.Repeat(" ", pending))
				pending = 0
				b.WriteByte(e)
			case 'n', 't', 'b':
				b.WriteString(strings.Repeat(" ", pending))
				pending = 0
				b.WriteByte(map[byte]byte{'n': '\n', 't': '\t', 'b': '\b'}[e])
			default:
				return "", p.errorf("bad escape \\%c", e)
			}
		default:
			b.WriteString(strings.Repeat(" ", pending))
			pending = 0
			b.WriteByte(c)
		}
	}
	if quoted {
		return "", p.errorf("unterminated quote")
	}
	return b.String(), nil
}

func isGitKeyStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isGitKeyChar(c byte) bool {
	return isGitKeyStart(c) || c >= '0' && c <= '9' || c == '-'
}

// GitRemoteURLs reads the URLs and push URLs of a git config file's
// remotes, by remote name (the last one given wins); an error when the
// text is not a config git would read.
func GitRemoteURLs(text string) (map[string]string, error) {
	entries, err := parseGitConfig(text)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, e := range entries {
		if !strings.HasPrefix(e.Key, "remote.") {
			continue
		}
		name, key, ok := strings.Cut(e.Key[len("remote."):], ".")
		for ok && strings.Contains(key, ".") { // a remote name with dots: the key is the last part
			var more string
			more, key, ok = strings.Cut(key, ".")
			name += "." + more
		}
		if key == "url" || key == "pushurl" {
			out[name+"."+key] = e.Value
		}
	}
	return out, nil
}
