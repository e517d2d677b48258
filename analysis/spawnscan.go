package analysis

import "strings"

// The two expressions embeddedCommands runs over a whole program
// (keyedCommandRE, bareSpawnRE) are case-insensitive alternations with no
// literal prefix, so the regexp package tries them at every byte: on a
// program of a few kilobytes that was half of a decision. Most programs
// cannot match at all; the scans below find whether a program holds a
// place where a match could start and let the expression run only then.
// Each is a necessary condition for a match (proved by
// TestSpawnPrefiltersNeverMissAMatch and FuzzSpawnPrefilters against the
// expressions themselves), so the commands found are the same.
//
// Under (?i) the regexp package folds 'k' with U+212A KELVIN SIGN and 's'
// with U+017F LONG S, which a byte scan does not see: text holding any
// byte outside ASCII always runs the expression.

// mayHoldKeyedCommand reports whether code may match keyedCommandRE: a
// word that is one of its keys (shell, command, cmd, run, script,
// execstart[pre|post], execstop) standing alone, then ASCII white space, a
// ':' or '=', white space and a quote.
func mayHoldKeyedCommand(code string) bool {
	if !isASCII(code) {
		return true
	}
	for i := 0; i < len(code); i++ {
		if code[i] != ':' && code[i] != '=' {
			continue
		}
		j := i + 1
		for j < len(code) && isRESpace(code[j]) {
			j++
		}
		if j >= len(code) || (code[j] != '"' && code[j] != '\'') {
			continue
		}
		// The key ends where the white space before the ':' or '=' starts;
		// \b before it and its letters make it the whole word there.
		e := i
		for e > 0 && isRESpace(code[e-1]) {
			e--
		}
		s := e
		for s > 0 && isREWord(code[s-1]) {
			s--
		}
		switch strings.ToLower(code[s:e]) {
		case "shell", "command", "cmd", "run", "script", "execstart", "execstartpre", "execstartpost", "execstop":
			return true
		}
	}
	return false
}

// mayHoldBareSpawn reports whether code may match bareSpawnRE: exec,
// system or spawn at the start or after '[', white space or ';', followed
// by white space.
func mayHoldBareSpawn(code string) bool {
	if !isASCII(code) {
		return true
	}
	for i := 0; i < len(code); i++ {
		if c := code[i] | 0x20; c != 'e' && c != 's' {
			continue // the first letter of none of the words
		}
		if i > 0 {
			if c := code[i-1]; c != '[' && c != ';' && !isRESpace(c) {
				continue
			}
		}
		for _, w := range [...]string{"exec", "system", "spawn"} {
			if len(code)-i > len(w) && strings.EqualFold(code[i:i+len(w)], w) && isRESpace(code[i+len(w)]) {
				return true
			}
		}
	}
	return false
}

// isRESpace is the regexp package's \s: ASCII space, tab, newline, form
// feed and carriage return (not vertical tab).
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// isREWord is the regexp package's \w, the word characters of \b.
func isREWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
