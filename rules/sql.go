package rules

import (
	"strings"
)

// statementKinds classifies the statements in texts (SQL, Redis commands,
// MongoDB shell code) into the kinds rules name: drop-database, drop-table,
// drop-other, truncate, delete-all, update-all, alter-drop, flush, shutdown,
// mongo-drop, mongo-delete-all, and unknown for text that is not static.
func statementKinds(texts []sqlText) map[string]bool {
	kinds := map[string]bool{}
	for _, t := range texts {
		if !t.known {
			kinds["unknown"] = true
			continue
		}
		for _, stmt := range splitStatements(t.text) {
			if k := sqlKind(stmt); k != "" {
				kinds[k] = true
			}
		}
		for _, line := range strings.FieldsFunc(t.text, func(r rune) bool { return r == '\n' || r == ';' }) {
			if k := redisKind(line); k != "" {
				kinds[k] = true
			}
		}
		if k := mongoKind(t.text); k != "" {
			kinds[k] = true
		}
	}
	return kinds
}

// splitStatements splits SQL on semicolons outside quotes and removes
// comments, returning each statement's words in lower case.
func splitStatements(s string) [][]string {
	var out [][]string
	var cur strings.Builder
	flush := func() {
		if words := sqlWords(cur.String()); len(words) > 0 {
			out = append(out, words)
		}
		cur.Reset()
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := closingQuote(s, i)
			cur.WriteString(" q ")
			i = j
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			i = skipTo(s, i, "\n")
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipTo(s, i+2, "*/") + 1
		case c == ';':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// closingQuote returns the index of the quote closing the one at i (or the
// end of s); doubled quotes stay inside the string.
func closingQuote(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		if s[j] == q {
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j
		}
	}
	return len(s) - 1
}

func skipTo(s string, i int, end string) int {
	if k := strings.Index(s[i:], end); k >= 0 {
		return i + k
	}
	return len(s) - 1
}

func sqlWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '(' || r == ')' || r == ','
	})
}

func sqlKind(w []string) string {
	has := func(x string) bool {
		for _, v := range w {
			if v == x {
				return true
			}
		}
		return false
	}
	switch w[0] {
	case "drop":
		return dropKind(w)
	case "truncate":
		return "truncate"
	case "delete":
		if !has("where") {
			return "delete-all"
		}
	case "update":
		if !has("where") {
			return "update-all"
		}
	case "alter":
		if has("drop") {
			return "alter-drop"
		}
	}
	return ""
}

func dropKind(w []string) string {
	if len(w) < 2 {
		return "drop-other"
	}
	switch w[1] {
	case "database", "schema":
		return "drop-database"
	case "table":
		return "drop-table"
	}
	return "drop-other"
}

func redisKind(line string) string {
	f := strings.Fields(strings.ToLower(line))
	if len(f) == 0 {
		return ""
	}
	switch f[0] {
	case "flushall", "flushdb":
		return "flush"
	case "shutdown":
		return "shutdown"
	case "script", "function":
		if len(f) > 1 && f[1] == "flush" {
			return "flush"
		}
	}
	return ""
}

func mongoKind(s string) string {
	compact := strings.ToLower(strings.Join(strings.Fields(s), ""))
	switch {
	case strings.Contains(compact, "dropdatabase("), strings.Contains(compact, ".drop("),
		strings.Contains(compact, "dropcollection("):
		return "mongo-drop"
	case strings.Contains(compact, "deletemany({})"), strings.Contains(compact, "deletemany()"),
		strings.Contains(compact, "remove({})"):
		return "mongo-delete-all"
	}
	return ""
}
