package buildfile

import (
	"encoding/json"
	"strings"
)

// parseJSONC decodes JSON with comments (// and /* */) and trailing
// commas, as VS Code reads its settings, tasks, launch configurations and
// dev container files. ok is false when the text is not that.
func parseJSONC(text string) (v any, ok bool) {
	if len(text) > MaxFileSize {
		return nil, false
	}
	if err := json.Unmarshal([]byte(stripJSONC(text)), &v); err != nil {
		return nil, false
	}
	return v, true
}

// stripJSONC blanks out comments and drops the commas that close a list or
// an object, outside strings; what is left is JSON when the text was JSONC.
// It runs in one pass: a comma is held back until the next token shows
// whether it is trailing.
func stripJSONC(text string) string {
	b := make([]byte, 0, len(text))
	comma := false // a comma is held back
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			b = append(b, '\n')
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return text // an unclosed comment: not JSONC
			}
			i += end + 3
			b = append(b, ' ')
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			b = append(b, c)
			continue
		}
		if comma && c != ']' && c != '}' {
			b = append(b, ',')
		}
		comma = false
		switch c {
		case ',':
			comma = true
		case '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(text)-1)
			b = append(b, text[i:j+1]...)
			i = j
		default:
			b = append(b, c)
		}
	}
	if comma {
		b = append(b, ',')
	}
	return string(b)
}

// jsonMembers decodes text as a JSONC object, or as the members of one (an
// edit's fragment: `"a": 1, "b": true`); ok is false when it is neither.
func jsonMembers(text string) (map[string]any, bool) {
	if v, ok := parseJSONC(text); ok {
		m, isObj := v.(map[string]any)
		return m, isObj
	}
	t := strings.Trim(strings.TrimSpace(text), ",")
	if v, ok := parseJSONC("{" + t + "}"); ok {
		m, isObj := v.(map[string]any)
		return m, isObj
	}
	return nil, false
}
