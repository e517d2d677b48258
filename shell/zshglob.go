package shell

import "strings"

// zsh reads a parenthesised group at the end of a glob word as glob
// qualifiers (~/*(D): dot files too; *.ts(.N): plain files, no error
// when none match), where bash would read an extended glob. The files
// such a word names are among the files the glob without its qualifiers
// names, so zshQualifiers drops the qualifiers that only choose among
// them or sort them, and the word is judged as that glob. Qualifiers
// that run code (e, +cmd), change the names (:h, :t and the other
// modifiers) or name users (u, g with delimiters) are kept: the word then
// stays one bash does not know, as before.

// zshQualifiers returns zsh code with its plain glob qualifiers dropped.
func zshQualifiers(code string) string {
	if !strings.Contains(code, "(") {
		return code
	}
	var b strings.Builder
	quote := byte(0)
	globInWord := false
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(code) {
				b.WriteByte(c)
				i++
				c = code[i]
			}
		case c == '\\' && i+1 < len(code):
			b.WriteByte(c)
			i++
			c = code[i]
		case c == '\'' || c == '"':
			quote = c
		case c == '*' || c == '?' || c == ']':
			globInWord = true
		case c == '(' && globInWord:
			if end := strings.IndexByte(code[i:], ')'); end > 0 && plainQualifiers(code[i+1:i+end]) && wordEnds(code, i+end+1) {
				i += end
				continue
			}
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&' || c == '<' || c == '>' || c == '(' || c == ')':
			globInWord = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

// wordEnds reports whether the word ends at code[i].
func wordEnds(code string, i int) bool {
	if i >= len(code) {
		return true
	}
	return strings.IndexByte(" \t\n;|&<>)", code[i]) >= 0
}

// plainQualifiers reports glob qualifiers that only select files by
// type, mode, size, time or count, or sort them: / . @ = p * % r w x A I
// E R W X s S t U G N D n o O L m a c d M T, ^ and - (negate, follow
// links), numbers, signs before numbers, and [range].
func plainQualifiers(q string) bool {
	if q == "" {
		return false
	}
	q = strings.TrimPrefix(q, "#q")
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case strings.IndexByte("/.@=p*%rwxAIERWXsStUGNDnoOLmacdMTkKhw^-[],0123456789", c) >= 0:
		case c == '+' && i+1 < len(q) && q[i+1] >= '0' && q[i+1] <= '9':
		default:
			return false
		}
	}
	return true
}
