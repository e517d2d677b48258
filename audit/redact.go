package audit

import (
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/risk"
)

// Mask replaces every secret the redaction finds.
const Mask = "***"

// secretKeyWords are the fragments that make a key name secret, compared
// after lower-casing and removing '-' and '_'.
var secretKeyWords = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey",
	"privatekey", "authorization", "cookie", "credential", "sessionid", "clientsecret",
}

// IsSecretKey reports whether a key or field name names a secret: it
// contains, case-insensitively and ignoring '-' and '_', one of password,
// passwd, passphrase, secret, token, api_key, access_key, private_key,
// authorization, cookie, credential, session_id or client_secret; or it is
// exactly "pwd", "pass" or "auth".
func IsSecretKey(key string) bool {
	k := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(key))
	switch k {
	case "pwd", "pass", "auth":
		return true
	}
	for _, w := range secretKeyWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// Redact returns a copy of v with secrets masked: values under secret keys
// (see [IsSecretKey]) in maps become [Mask], strings go through
// [RedactString], and slices and maps are walked recursively. Other values
// are returned unchanged. v itself is not modified.
func Redact(v any) any {
	switch x := v.(type) {
	case string:
		return RedactString(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[k] = redactField(k, val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = Redact(val)
		}
		return out
	case []string:
		out := make([]string, len(x))
		for i, s := range x {
			out[i] = RedactString(s)
		}
		return out
	default:
		return v
	}
}

func redactField(key string, v any) any {
	if IsSecretKey(key) && v != nil {
		return Mask
	}
	return Redact(v)
}

// A shape is one kind of secret found by its form. Every regexp is compiled
// once; each keeps, in its first group, a non-secret prefix worth showing.
// need lists lower-case literals of which the lower-cased text must contain
// at least one for the regexp to be tried at all (all of them when all is
// set): a cheap filter, since most text holds no secret.
type shape struct {
	name string
	re   func() *regexp.Regexp // compiled on first use (see lazyRegexp)
	keep string                // replacement template
	need []string
	all  bool
}

// secretWords are the fragments every secret key or flag name contains.
var secretWords = []string{"pass", "secret", "token", "key", "credential", "authorization", "cookie"}

// lazyRegexp compiles expr the first time it is needed. A hook process
// redacts one record and usually passes no shape's literal filter, so it
// should not pay for compiling all of them at start-up (about 0.3 ms).
// TestShapesCompile compiles every shape, so MustCompile cannot panic here.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// shapes run in order: enclosing forms (PEM blocks, URLs, headers,
// key=value) before bare tokens.
var shapes = []shape{
	{"pem private key", lazyRegexp(`-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`), "-----BEGIN ${1}PRIVATE KEY-----" + Mask + "-----END ${1}PRIVATE KEY-----",
		[]string{"private key-----"}, false},
	{"url credentials", lazyRegexp(`\b([a-zA-Z][a-zA-Z0-9+.-]*://[^:/?#@\s]*):[^@/?#\s]*@`), "${1}:" + Mask + "@",
		[]string{"://", "@"}, true},
	{"authorization header", lazyRegexp(`(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9._~+/=-]{8,}`), "${1}${2}" + Mask,
		[]string{"bearer", "basic", "token"}, false},
	{"secret flag", lazyRegexp(`(?i)((?:^|\s)--?[a-z0-9-]*(?:password|passwd|passphrase|secret|token|api-?key|access-?key|private-?key|credential)[a-z0-9-]*)(=|\s+)("[^"]*"|'[^']*'|[^\s"']+)`), "${1}${2}" + Mask,
		secretWords, false},
	{"user:password flag", lazyRegexp(`((?:^|\s)(?:-u|--user|--proxy-user)(?:\s+|=)["']?[^\s:"']*:)([^\s"']+)`), "${1}" + Mask,
		[]string{"-u", "--user", "--proxy-user"}, false},
	{"mysql password flag", lazyRegexp(`((?:^|[\s/])(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\s(?:[^|;&\n]*?\s)?-p)([^\s|;&]+)`), "${1}" + Mask,
		[]string{"mysql", "mariadb"}, false},
	// The key's leading part ("DB_" in DB_PASSWORD) is left alone, so the
	// match starts at the keyword and the regexp can skip ahead quickly.
	{"secret assignment", lazyRegexp(`(?i)((?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credential|authorization|cookie)[a-z0-9_.-]*)(["']?\s*[=:]\s*)((?:bearer\s+|basic\s+|token\s+)?(?:"[^"]*"|'[^']*'|[^\s"',;&]+))`), "${1}${2}" + Mask,
		secretWords, false},
}

func init() {
	for _, t := range risk.TokenShapes {
		if t.Name != "pem private key" { // masked whole, body included, above
			shapes = append(shapes, shape{name: t.Name, re: t.Re, keep: "${1}" + Mask, need: t.Need})
		}
	}
}

// mayMatch applies the shape's literal filter to the lower-cased text.
func (sh *shape) mayMatch(lower string) bool {
	for _, n := range sh.need {
		if strings.Contains(lower, n) != sh.all {
			return !sh.all
		}
	}
	return sh.all
}

// RedactString masks the secrets in s found by their shape:
//   - PEM private key blocks (the body is masked);
//   - URLs with credentials (https://user:pass@host → https://user:***@host);
//   - Bearer, Basic and token authorization values;
//   - curl-style credentials (-u user:pass, --user=user:pass);
//   - secret flags (--password X, --token=X, --api-key X, …) and the glued
//     -pSECRET of mysql and mariadb clients;
//   - key=value and key: value where the key names a secret;
//   - AWS access key ids (AKIA…, ASIA…), GitHub tokens (ghp_, gho_, ghs_,
//     ghu_, ghr_, github_pat_), GitLab glpat-, Slack xox[baprs]-, Stripe
//     sk_live_/rk_live_ (and _test_), OpenAI and Anthropic sk-…, sk-ant-…,
//     Google AIza…, and JWTs (eyJ….….…);
//   - any other token of 32 or more characters from the base64/hex alphabet
//     that mixes letters with at least two separate runs of digits and looks
//     random (Shannon entropy ≥ 3.5 bits per character), unless it looks like
//     a file path. Full-length git hashes are masked too.
//
// Known token shapes keep their non-secret prefix ("ghp_***") so the
// receipt still says what kind of credential was there.
func RedactString(s string) string {
	lower := strings.ToLower(s)
	for i := range shapes {
		sh := &shapes[i]
		if !sh.mayMatch(lower) {
			continue
		}
		if r := sh.re().ReplaceAllString(s, sh.keep); r != s {
			s, lower = r, strings.ToLower(r)
		}
	}
	return maskRandomTokens(s)
}

// minRandomToken is the shortest bare token masked for looking random.
const minRandomToken = 32

func maskRandomTokens(s string) string {
	var b strings.Builder
	start := -1
	flush := func(end int) {
		if start >= 0 {
			tok := s[start:end]
			if looksRandom(tok) {
				tok = Mask
			}
			b.WriteString(tok)
			start = -1
		}
	}
	for i := 0; i < len(s); i++ {
		if isTokenByte(s[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		b.WriteByte(s[i])
	}
	flush(len(s))
	return b.String()
}

func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '+' || c == '/' || c == '_' || c == '-' || c == '='
}

func looksRandom(tok string) bool {
	if len(tok) < minRandomToken || looksLikePath(tok) {
		return false
	}
	return charClasses(tok) >= 2 && digitRuns(tok) >= 2 && entropy(tok) >= 3.5
}

// digitRuns counts the maximal runs of digits; random tokens scatter digits,
// identifiers rarely do.
func digitRuns(s string) int {
	runs, in := 0, false
	for i := 0; i < len(s); i++ {
		d := s[i] >= '0' && s[i] <= '9'
		if d && !in {
			runs++
		}
		in = d
	}
	return runs
}

// looksLikePath keeps file paths readable: a token that starts like a path
// or whose slash-separated parts are word-like is not masked.
func looksLikePath(tok string) bool {
	if strings.HasPrefix(tok, "/") || strings.HasPrefix(tok, "./") || strings.HasPrefix(tok, "~") {
		return true
	}
	return strings.Count(tok, "/") >= 2 && !strings.ContainsAny(tok, "+=")
}

func charClasses(s string) int {
	var lower, upper, digit int
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			lower = 1
		case c >= 'A' && c <= 'Z':
			upper = 1
		case c >= '0' && c <= '9':
			digit = 1
		}
	}
	return lower + upper + digit
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	for _, n := range counts {
		if n > 0 {
			p := float64(n) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}
