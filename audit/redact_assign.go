package audit

import "strings"

// maskAssignments masks the value of every key=value and key: value whose
// key names a secret (see [secretKeyName]): PASSWORD=x, "api_key": "x",
// ?access_token=x&, Authorization: Bearer x, -Dspring.datasource.password=x,
// //registry.npmjs.org/:_authToken=x. Quotes around the value are kept;
// a value that is only a variable ($TOKEN, ${TOKEN}, $(cat f)) is kept
// too. A prose "the token: see docs" is left alone.
func maskAssignments(s string) string {
	var b strings.Builder
	at := 0 // s[:at] is written to b (or needs no change when b is empty)
	for i := 0; i < len(s); {
		sep := indexAssign(s, i)
		if sep < 0 {
			break
		}
		i = sep + 1
		start, end, ok := assignedValue(s, sep)
		if !ok || start < at {
			continue
		}
		b.WriteString(s[at:start])
		b.WriteString(Mask)
		at, i = end, end
	}
	if at == 0 {
		return s
	}
	b.WriteString(s[at:])
	return b.String()
}

// indexAssign is the index of the first '=' or ':' of s from i on; -1
// when there is none.
func indexAssign(s string, i int) int {
	for ; i < len(s); i++ {
		if c := s[i]; c == '=' || c == ':' {
			return i
		}
	}
	return -1
}

// assignedValue returns the secret value after the separator at s[sep],
// when the key before it names a secret.
func assignedValue(s string, sep int) (start, end int, ok bool) {
	c := s[sep]
	if c == '=' && (sep+1 < len(s) && s[sep+1] == '=' || sep > 0 && strings.IndexByte("=!<>", s[sep-1]) >= 0) {
		return 0, 0, false // ==, !=, <=, >=
	}
	if c == ':' && (strings.HasPrefix(s[sep+1:], "//") || sep+1 < len(s) && s[sep+1] == ':' || sep > 0 && s[sep-1] == ':') {
		return 0, 0, false // scheme://, ::
	}
	// The key: name characters before the separator, maybe quoted, maybe
	// followed by spaces ("key" : value, KEY = value).
	j := sep
	for j > 0 && sep-j < 4 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	closing := byte(0)
	if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
		closing = s[j-1]
		j--
	}
	keyEnd := j
	for j > 0 && keyEnd-j < 128 && isKeyByte(s[j-1]) {
		j--
	}
	key := s[j:keyEnd]
	if key == "" || !mayNameSecret(key) {
		return 0, 0, false
	}
	opening := byte(0)
	if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
		opening = s[j-1]
	}
	if closing != 0 && opening != closing {
		return 0, 0, false
	}
	if c == ':' && j >= 2 && s[j-2:j] == "//" {
		return 0, 0, false // the user of https://user:password@host, masked as a URL
	}
	if !secretKeyName(strings.TrimLeft(key, "-")) {
		return 0, 0, false
	}
	// The value.
	v := sep + 1
	for v < len(s) && v-sep <= 4 && (s[v] == ' ' || s[v] == '\t') {
		v++
	}
	if v >= len(s) {
		return 0, 0, false
	}
	valueStart := v
	if n := authScheme(s[v:]); n > 0 {
		v += n
		if v >= len(s) {
			return 0, 0, false
		}
	}
	q := s[v]
	if q == '"' || q == '\'' {
		if opening == q && closing == 0 {
			return 0, 0, false // the quote that closes 'Password:'
		}
		e := closingQuote(s, v+1, q)
		if e < 0 { // unterminated: up to the end of the word
			e = v + 1
			for e < len(s) && !isSpace(s[e]) {
				e++
			}
		}
		if e == v+1 || onlyVariable(s[v+1:e]) {
			return 0, 0, false
		}
		if valueStart == v {
			return v + 1, e, true
		}
		return valueStart, e, true
	}
	e := v
	for e < len(s) && !isValueEnd(s[e]) {
		e++
	}
	if e == v || onlyVariable(s[v:e]) || strings.HasPrefix(s[v:e], Mask) {
		return 0, 0, false
	}
	if c == ':' && proseKey(key, closing, s[v:e]) {
		return 0, 0, false
	}
	return valueStart, e, true
}

// authScheme returns the length of an HTTP authorization scheme and the
// spaces after it at the start of s ("Bearer ", "Basic "), or 0.
func authScheme(s string) int {
	for _, scheme := range []string{"bearer", "basic", "token", "digest", "negotiate", "apikey"} {
		if len(s) > len(scheme) && strings.EqualFold(s[:len(scheme)], scheme) && isSpace(s[len(scheme)]) {
			n := len(scheme)
			for n < len(s) && isSpace(s[n]) {
				n++
			}
			return n
		}
	}
	return 0
}

// proseKey reports whether key: value reads as prose rather than a
// setting: a bare lower-case word followed by a lower-case word ("the
// token: see docs"), or a plural ("it holds secrets: ~/.env"). Password
// words always make a setting.
func proseKey(key string, closing byte, value string) bool {
	if closing != 0 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 'a' || key[i] > 'z' {
			return false
		}
	}
	switch key {
	case "password", "passwd", "pass", "pwd", "passphrase":
		return false
	case "secrets", "tokens", "credentials", "passwords", "keys", "cookies":
		return true
	}
	for i := 0; i < len(value); i++ {
		if value[i] < 'a' || value[i] > 'z' {
			return false
		}
	}
	return true
}

func closingQuote(s string, from int, q byte) int {
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if q == '"' {
				i++
			}
		case q:
			return i
		}
	}
	return -1
}

// onlyVariable reports whether v is nothing but $NAME, ${…} or $(…).
func onlyVariable(v string) bool {
	if len(v) < 2 || v[0] != '$' {
		return false
	}
	switch v[1] {
	case '{':
		return strings.IndexByte(v, '}') == len(v)-1
	case '(':
		return v[len(v)-1] == ')'
	}
	return isName(v[1:])
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isValueEnd ends an unquoted value: a space, a quote, a separator of
// options or parameters, or a shell operator.
func isValueEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', ',', ';', '&', '|', '<', '>', '`':
		return true
	}
	return false
}

// maskAuthSchemes masks the credentials after Bearer, Basic and token
// wherever they appear ("Bearer abc123…" in a header, a log line or a
// here-document). A credential has 8 or more characters and is not a
// plain word: it has a digit, a symbol or both cases.
func maskAuthSchemes(s, lower string) string {
	var edits []edit
	for _, scheme := range []string{"bearer", "basic", "token"} {
		for from := 0; ; {
			k := strings.Index(lower[from:], scheme)
			if k < 0 {
				break
			}
			k += from
			from = k + len(scheme)
			if k > 0 && isWordByte(lower[k-1]) || scheme == "token" && k > 0 && strings.IndexByte(" \t'\":=", lower[k-1]) < 0 {
				continue // "token" only as a header's scheme, not in a path
			}
			v := from
			for v < len(s) && (s[v] == ' ' || s[v] == '\t') {
				v++
			}
			e := v
			for e < len(s) && isCredByte(s[e]) {
				e++
			}
			if v == from || e-v < 8 || s[v] == '-' || !credentialLike(s[v:e]) {
				continue
			}
			edits = append(edits, edit{v, e, Mask})
			from = e
		}
	}
	if edits == nil {
		return s
	}
	return applyEdits(s, edits)
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isCredByte(c byte) bool {
	return isWordByte(c) || strings.IndexByte(".~+/=-", c) >= 0
}

// credentialLike reports whether a word after an authorization scheme is
// a credential rather than prose: it has a digit or a symbol, or mixes
// upper and lower case.
func credentialLike(v string) bool {
	var lower, upper bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		default:
			return true
		}
	}
	return lower && upper
}
