package audit

import (
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Deciding whether a name (a JSON key, an option, a variable, a config key)
// names a secret works on its words: "maxTokens", "max_tokens" and
// "MAX-TOKENS" are all max+tokens. A name is secret when its joined words
// contain a secret fragment (password, token, api+key, …) or end in a
// short secret word (pass, pwd, auth, …), unless a word says the value is
// about the secret rather than the secret itself: a count or a page
// before it (max_tokens, next_page_token), or a file, a name or an id
// after it (password_file, secret_name, access_key_id).

// secretFragments are matched against the joined, lower-cased words.
var secretFragments = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey",
	"privatekey", "authorization", "cookie", "credential", "sessionid",
	"subscriptionkey", "accountkey", "encryptionkey", "signingkey", "masterkey", "authkey",
}

// secretLastWords are secret when they are the name's last word.
var secretLastWords = []string{"pass", "pwd", "passwd", "auth", "sig", "signature", "dsn", "psk"}

// qualifierWords before the secret word make the value something else: a
// number of tokens, a page cursor, a boolean switch or a prompt.
var qualifierWords = []string{
	"max", "min", "num", "number", "total", "page", "next", "prev", "previous",
	"continuation", "no", "ask", "prompt", "show", "print", "use", "generate",
	"count", "remaining", "used", "limit",
}

// tailWords after the secret word make the value something about the
// secret: where it lives, what it is called, how long it lasts.
var tailWords = []string{
	"file", "files", "path", "paths", "dir", "env", "var", "stdin", "fd", "cmd", "command",
	"helper", "program", "type", "kind", "length", "len", "count", "size", "limit",
	"ttl", "expiry", "expires", "expiration", "timeout", "prompt", "name", "names", "id",
	"ids", "arn", "ref", "url", "uri", "endpoint", "host", "hint", "policy", "format",
	"mode", "method", "scope", "scopes", "header", "field", "location", "label", "version",
	"algorithm", "encoding", "required", "enabled", "disabled", "rotation", "at",
}

// pluralTokenOwners make "tokens" credentials (access_tokens) rather than
// a count (max_tokens, input_tokens, tokens).
var pluralTokenOwners = []string{"access", "auth", "api", "refresh", "bearer", "session", "oauth", "id", "secret", "personal"}

// maxNameWords bounds the words looked at; longer names keep their last.
const maxNameWords = 16

// nameWords is a name split into lower-case words.
type nameWords struct {
	buf   [128]byte // the lower-cased words, joined
	n     int       // len(buf) used
	start [maxNameWords + 1]int
	count int
}

// wordIs compares word i to s without allocating.
func (w *nameWords) wordIs(i int, s string) bool {
	return string(w.buf[w.start[i]:w.start[i+1]]) == s
}

func (w *nameWords) joined() string { return string(w.buf[:w.n]) }

// split fills w with the words of name: runs of letters and digits,
// broken at every other character and at camelCase boundaries ("APIKey"
// is API+Key). It keeps the last words when the name is long.
func (w *nameWords) split(name string) {
	if len(name) > len(w.buf) {
		name = name[len(name)-len(w.buf):]
	}
	w.n, w.count = 0, 0
	open := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		upper := c >= 'A' && c <= 'Z'
		alnum := upper || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum {
			open = false
			continue
		}
		if open && upper && i > 0 {
			p := name[i-1]
			pUpper := p >= 'A' && p <= 'Z'
			nextLower := i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z'
			if !pUpper || nextLower {
				open = false
			}
		}
		if !open {
			if w.count == maxNameWords {
				// Keep the last words: drop the first.
				shift := w.start[1]
				copy(w.buf[:], w.buf[shift:w.n])
				w.n -= shift
				for k := 0; k < w.count-1; k++ {
					w.start[k] = w.start[k+1] - shift
				}
				w.count--
			}
			w.start[w.count] = w.n
			w.count++
			open = true
		}
		if upper {
			c += 'a' - 'A'
		}
		w.buf[w.n] = c
		w.n++
	}
	w.start[w.count] = w.n
}

// wordAt returns the index of the word holding byte offset off of the
// joined words.
func (w *nameWords) wordAt(off int) int {
	for i := 0; i < w.count; i++ {
		if off < w.start[i+1] {
			return i
		}
	}
	return w.count - 1
}

// nameVerdict is what the words of a name say.
type nameVerdict int

const (
	nameUnknown  nameVerdict = iota // no secret word
	nameSecret                      // a secret word, not neutralised
	nameHarmless                    // a secret word, neutralised by a qualifier or a tail
)

// classifyName looks for secret words in name.
func classifyName(name string) nameVerdict {
	if !mayNameSecret(name) {
		return nameUnknown
	}
	var w nameWords
	w.split(name)
	if w.count == 0 {
		return nameUnknown
	}
	for i := 0; i < w.count; i++ {
		if strings.HasPrefix(string(w.buf[w.start[i]:w.start[i+1]]), "tokeniz") { // tokenizer, tokenization
			return nameHarmless
		}
	}
	verdict := nameUnknown
	note := func(first, last int) {
		if verdict == nameSecret {
			return
		}
		if w.neutralised(first, last) {
			verdict = nameHarmless
		} else {
			verdict = nameSecret
		}
	}
	joined := w.joined()
	for _, f := range secretFragments {
		for from := 0; ; {
			k := strings.Index(joined[from:], f)
			if k < 0 {
				break
			}
			k += from
			first, last := w.wordAt(k), w.wordAt(k+len(f)-1)
			if f == "token" && w.wordIs(last, "tokens") && !w.ownedTokens(first) {
				verdict = max(verdict, nameHarmless)
			} else {
				note(first, last)
			}
			from = k + len(f)
		}
	}
	lastWord := w.count - 1
	for _, s := range secretLastWords {
		if w.wordIs(lastWord, s) {
			note(lastWord, lastWord)
		}
	}
	return verdict
}

// neutralised reports whether a qualifier comes before word first, or a
// tail after word last; "pass" first qualifies too (--pass-credentials).
func (w *nameWords) neutralised(first, last int) bool {
	for i := 0; i < first; i++ {
		if w.oneOf(i, qualifierWords) || i == 0 && w.wordIs(0, "pass") {
			return true
		}
	}
	if string(w.buf[:w.n]) == "sessionid" {
		return false
	}
	for i := last + 1; i < w.count; i++ {
		if w.oneOf(i, tailWords) {
			return true
		}
	}
	return false
}

// ownedTokens reports whether "tokens" at word i belongs to a credential
// word before it (access_tokens) rather than counting something.
func (w *nameWords) ownedTokens(i int) bool {
	for k := 0; k < i; k++ {
		if w.oneOf(k, pluralTokenOwners) {
			return true
		}
	}
	return false
}

func (w *nameWords) oneOf(i int, set []string) bool {
	for _, s := range set {
		if w.wordIs(i, s) {
			return true
		}
	}
	return false
}

// nameHints are lower-case fragments of which every secret name contains
// one; a cheap test before splitting a name into words.
var nameHints = []string{"pas", "pw", "sec", "tok", "key", "aut", "cred", "cook", "sig", "sess", "dsn", "psk"}

// mayNameSecret reports whether name holds one of nameHints, ignoring the
// case of ASCII letters. It reads the name once: only at a byte that starts
// a hint are the hints compared.
func mayNameSecret(name string) bool {
	if len(name) < 2 || len(name) > 256 {
		return false
	}
	for i := 0; i+1 < len(name); i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if !hintStarts.has(c) {
			continue
		}
		for _, h := range nameHints {
			if h[0] == c && hasPrefixFold(name[i:], h) {
				return true
			}
		}
	}
	return false
}

// hintStarts are the first bytes of nameHints (TestHintStarts checks it).
var hintStarts = byteSet{0, 0x19081a00000000, 0, 0}

// hasPrefixFold reports whether s starts with the lower-case prefix,
// ignoring the case of ASCII letters in s.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for j := 0; j < len(prefix); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[j] {
			return false
		}
	}
	return true
}

// indexFold is strings.Index of the lower-case needle in s, ignoring the
// case of ASCII letters in s, without allocating.
func indexFold(s, needle string) int {
	n := len(needle)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for ; j < n; j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != needle[j] {
				break
			}
		}
		if j == n {
			return i
		}
	}
	return -1
}

// isEnvName reports whether name looks like an environment variable:
// upper-case letters, digits and '_', starting with a letter or '_'.
func isEnvName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	letter := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9' || c == '_':
		default:
			return false
		}
	}
	return letter
}

// secretEnvName reports whether a variable assigned in a command holds a
// secret: its words say so, or risk.IsSecretName does (STRIPE_KEY,
// DB_PASS, DATABASE_URL) and no word says otherwise. PWD and OLDPWD are
// directories.
func secretEnvName(name string) bool {
	switch name {
	case "PWD", "OLDPWD":
		return false
	case "SSHPASS":
		return true
	}
	switch classifyName(name) {
	case nameSecret:
		return true
	case nameHarmless:
		return false
	}
	return risk.IsSecretName(name)
}

// secretKeyName is IsSecretKey for a key that may also be a variable.
func secretKeyName(key string) bool {
	if isEnvName(key) {
		return secretEnvName(key)
	}
	return classifyName(key) == nameSecret
}
