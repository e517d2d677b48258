package policy

import "strings"

// quotedPaths returns the string literals of code that are absolute or
// home-relative paths.
func quotedPaths(code string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		end := strings.IndexByte(code[i+1:], q)
		if end < 0 {
			break
		}
		lit := code[i+1 : i+1+end]
		if strings.HasPrefix(lit, "/") || lit == "~" || strings.HasPrefix(lit, "~/") {
			out = append(out, lit)
		}
		i += end + 1
	}
	return out
}
