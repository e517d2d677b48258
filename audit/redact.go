package audit

import (
	"math"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/toolguard/toolguard/risk"
)

// Mask replaces every secret the redaction finds.
const Mask = "***"

// IsSecretKey reports whether a key or field name names a secret. The
// name is split into words (at '-', '_', '.', ':', '/' and camelCase
// boundaries, so maxTokens, max_tokens and MAX-TOKENS are all max+tokens);
// it names a secret when its words contain password, passwd, passphrase,
// secret, token, api+key, access+key, private+key, authorization, cookie,
// credential, session+id or a few more, or end in pass, pwd, auth, sig,
// signature or dsn. Words that make the value something about the secret
// rather than the secret itself win: a count or a cursor before it
// (max_tokens, input_tokens, next_page_token, no_password, ask_vault_pass),
// a file, a name, an id, a type or a length after it (password_file,
// secret_name, access_key_id, token_type, password_min_length), and
// tokenizer. An upper-case variable name is also secret when
// risk.IsSecretName says so (STRIPE_KEY, DB_PASS, DATABASE_URL).
func IsSecretKey(key string) bool { return secretKeyName(key) }

// Redact returns a copy of v with secrets masked: values under secret keys
// (see [IsSecretKey]) in maps become [Mask], strings go through
// [RedactString], and slices and maps are walked recursively. A list of
// strings is also read as a command's argv, so the value after an option
// that takes a secret is masked (["--password", "x"]). Other values are
// returned unchanged. v itself is not modified.
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
	case map[string]string:
		out := make(map[string]string, len(x))
		for k, val := range x {
			if IsSecretKey(k) {
				out[k] = Mask
			} else {
				out[k] = RedactString(val)
			}
		}
		return out
	case []any:
		if argv, ok := stringList(x); ok {
			red := redactArgv(argv)
			out := make([]any, len(red))
			for i, s := range red {
				out[i] = s
			}
			return out
		}
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = Redact(val)
		}
		return out
	case []string:
		return redactArgv(x)
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

func stringList(x []any) ([]string, bool) {
	if len(x) < 2 {
		return nil, false
	}
	out := make([]string, len(x))
	for i, v := range x {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// redactArgv masks the secrets of a command given as argv, then each
// element as a string.
func redactArgv(argv []string) []string {
	out := make([]string, len(argv))
	copy(out, argv)
	joined := strings.Join(argv, "\x00")
	if len(argv) > 1 && strings.Count(joined, "\x00") == len(argv)-1 && mayHoldCommandSecret(joined, toLower(joined)) {
		a := &analyzer{text: joined}
		words := make([]word, len(argv))
		at := 0
		for i, s := range argv {
			words[i] = word{start: at, end: at + len(s), val: s, raw: true}
			at += len(s) + 1
		}
		a.check([]*simpleCmd{{args: words}})
		if len(a.edits) > 0 {
			if parts := strings.Split(maskRepeats(applyEdits(joined, a.edits), a.values), "\x00"); len(parts) == len(out) {
				out = parts
			}
		}
	}
	for i, s := range out {
		out[i] = RedactString(s)
	}
	return out
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
	ids  []int // need's indexes in shapeNeedles
	mask found // the same, as a set
}

// lazyRegexp compiles expr the first time it is needed. A hook process
// redacts one record and usually passes no shape's literal filter, so it
// should not pay for compiling all of them at start-up (about 0.3 ms).
// TestShapesCompile compiles every shape, so MustCompile cannot panic here.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// enclosing are the shapes that hold a secret inside a larger form; they
// run before key=value and the bare token shapes.
var enclosing = []shape{
	{"pem private key", lazyRegexp(`-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)`),
		"-----BEGIN ${1}PRIVATE KEY${2}-----" + Mask + "-----END ${1}PRIVATE KEY${2}-----", []string{"private key"}, false, nil, found{}},
	// The password runs to the last '@' before the host, so that an
	// unencoded '@' in it does not leave its end behind.
	{"url credentials", lazyRegexp(`\b([a-zA-Z][a-zA-Z0-9+.-]*://[^:/?#@\s"'<>]*):[^/?#\s"'<>]*@`), "${1}:" + Mask + "@",
		[]string{"://", "@"}, true, nil, found{}},
	{"netrc password", lazyRegexp(`(?i)\b(machine\s+\S+\s+(?:login\s+\S+\s+)?password\s+)[^\s"']+`), "${1}" + Mask,
		[]string{"machine"}, false, nil, found{}},
	{"slack webhook", lazyRegexp(`(https://hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9/_-]+`), "${1}" + Mask,
		[]string{"hooks.slack.com"}, false, nil, found{}},
	{"discord webhook", lazyRegexp(`(discord(?:app)?\.com/api/webhooks/)[0-9]+/[A-Za-z0-9_-]+`), "${1}" + Mask,
		[]string{"/api/webhooks/"}, false, nil, found{}},
	{"telegram bot token", lazyRegexp(`(api\.telegram\.org/bot)[0-9]+:[A-Za-z0-9_-]+`), "${1}" + Mask,
		[]string{"api.telegram.org/bot"}, false, nil, found{}},
}

// tokens are the credential formats of risk.TokenShapes.
var tokens []shape

// shapes are all the regexp shapes, enclosing first.
var shapes []shape

// prepareShapes fills tokens and shapes and the shapes' literal filters,
// once, on first use: a process that never redacts does not pay for it.
// The literals' indexes in shapeNeedles are generated with it
// (enclosingIDs, tokenIDs): finding each one cost a hook process ~13 K
// instructions.
var prepareShapes = sync.OnceFunc(func() {
	tokens = make([]shape, 0, len(risk.TokenShapes))
	for i, t := range risk.TokenShapes {
		if t.Name != "pem private key" { // masked whole, body included, above
			tokens = append(tokens, shape{name: t.Name, re: t.Re, keep: "${1}" + Mask, need: t.Need, ids: tokenIDs[i]})
		}
	}
	for i := range enclosing {
		enclosing[i].ids = enclosingIDs[i]
	}
	for _, list := range [][]shape{enclosing, tokens} {
		for i := range list {
			for _, id := range list[i].ids {
				list[i].mask.add(id)
			}
		}
	}
	shapes = append(append(make([]shape, 0, len(enclosing)+len(tokens)), enclosing...), tokens...)
	enclosingAny, tokensAny = anyLiteral(enclosing), anyLiteral(tokens)
})

// enclosingAny and tokensAny are the literals of any shape of enclosing and
// tokens: a text holding none of them matches none of those shapes, since
// every shape has a literal.
var enclosingAny, tokensAny found

func anyLiteral(list []shape) found {
	var u found
	for _, sh := range list {
		for k := range u {
			u[k] |= sh.mask[k]
		}
	}
	return u
}

// holdsAny reports whether f holds a literal of u.
func (f *found) holdsAny(u *found) bool {
	for k := range f {
		if f[k]&u[k] != 0 {
			return true
		}
	}
	return false
}

// mayMatch applies the shape's literal filter, given the literals the
// lower-cased text contains.
func (sh *shape) mayMatch(f *found) bool {
	if sh.all {
		for k := range f {
			if f[k]&sh.mask[k] != sh.mask[k] {
				return false
			}
		}
		return true
	}
	for k := range f {
		if f[k]&sh.mask[k] != 0 {
			return true
		}
	}
	return false
}

// mayMatchSlow is mayMatch one literal at a time (the tests compare them).
func (sh *shape) mayMatchSlow(f *found) bool {
	for _, i := range sh.ids {
		if f.has(i) != sh.all {
			return !sh.all
		}
	}
	return sh.all
}

// apply runs the shapes of list, whose literals are lits, on s, given the
// literals f that lower holds; changed
// says whether s changed. A shape that changes s can only remove literals,
// so the literals are looked for once.
func apply(list []shape, lits *found, s, lower string, f *found) (string, string, bool) {
	changed := false
	if !f.holdsAny(lits) {
		return s, lower, false
	}
	for i := range list {
		sh := &list[i]
		if !sh.mayMatch(f) {
			continue
		}
		if r := sh.re().ReplaceAllString(s, sh.keep); r != s {
			s, lower, changed = r, toLower(r), true
		}
	}
	return s, lower, changed
}

// RedactString masks the secrets in s, which may be a shell command, a
// script, a reason quoting a command, or any other text:
//   - values that programs take as secrets, found by reading s as shell
//     code: the options of programs that take a password or a token
//     (docker login -p, sshpass -p, mysql -pSECRET, redis-cli -a, curl -u
//     user:SECRET, openssl -pass pass:SECRET, htpasswd -b FILE USER
//     SECRET, aws configure set aws_secret_access_key SECRET, npm config
//     set //host/:_authToken SECRET, vault login SECRET, …), any long
//     option whose name names a secret (--token X, --client-secret=X, but
//     not --max-tokens or --password-file), variables with secret names
//     (FOO_TOKEN=X cmd, export, env), and what echo, printf, a here-string
//     or a here-document feed to a program that reads a secret on its
//     standard input (sudo -S, docker login --password-stdin, gh auth
//     login --with-token, chpasswd). Options mean what the program says:
//     the -p of docker run, ssh, redis-cli or "mysql -p DB" is kept. A
//     value made only of a variable ($PASSWORD) is kept; a secret value
//     found this way is also masked wherever else it appears in s;
//   - PEM private key blocks (the body is masked), URLs with credentials
//     (https://user:pass@host → https://user:***@host), .netrc lines, and
//     Slack, Discord and Telegram webhook or bot URLs;
//   - key=value and key: value where the key names a secret (see
//     [IsSecretKey]): PASSWORD=x, "api_key": "x", ?access_token=x,
//     Authorization: Bearer x, _authToken=x;
//   - Bearer, Basic and token authorization values anywhere;
//   - the credential formats of risk.TokenShapes: AWS access key ids,
//     GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, Google, npm,
//     PyPI, Hugging Face, Docker Hub, Vault, SendGrid, DigitalOcean,
//     Shopify and other tokens, age keys and JWTs;
//   - any other token of 32 or more characters from the base64/hex alphabet
//     that mixes letters with at least two separate runs of digits and looks
//     random (Shannon entropy ≥ 3.5 bits per character), unless it looks like
//     a file path. Full-length git hashes are masked too.
//
// Known token shapes keep their non-secret prefix ("ghp_***") so the
// receipt still says what kind of credential was there; quotes around a
// masked value are kept.
func RedactString(s string) string { return redactWith(s, true) }

// redactWith is RedactString; parse false skips the shell parser and reads
// commands with the tolerant tokenizer only (tests use it).
func redactWith(s string, parse bool) (out string) {
	defer func() {
		if recover() != nil { // a bug here must neither lose the record nor leak
			out = Mask
		}
	}()
	// A NUL byte (a shell command may hold one) is shown as "␀": a reader
	// sees it, a terminal does not stop at it, and PostgreSQL's text and
	// jsonb, which refuse it, can store the record.
	s = strings.ReplaceAll(s, "\x00", "\u2400")
	return redactText(s, parse)
}

// redactText is redactWith without the safety net (the fuzz tests call it
// to see panics).
func redactText(s string, parse bool) string {
	if s == "" {
		return s
	}
	prepareShapes()
	lower := toLower(s)
	if r := redactCommands(s, lower, parse); r != s {
		s, lower = r, toLower(r)
	}
	// The text is scanned for the shapes' literals again only when it
	// changed after the first scan (rarely: it held a secret).
	f := shapeNeedles.scan(lower)
	s, lower, changed := apply(enclosing, &enclosingAny, s, lower, &f)
	if r := maskAssignments(s); r != s {
		s, lower, changed = r, toLower(r), true
	}
	if r := maskAuthSchemes(s, lower); r != s {
		s, lower, changed = r, toLower(r), true
	}
	if changed {
		f = shapeNeedles.scan(lower)
	}
	s, _, _ = apply(tokens, &tokensAny, s, lower, &f)
	return maskRandomTokens(s)
}

// toLower is strings.ToLower, faster on ASCII text (the usual case): the
// runs between upper-case letters are copied whole.
func toLower(s string) string {
	upper := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.ToLower(s)
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0 // s[:at] is in b
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b.WriteString(s[at:i])
			b.WriteByte(c + 'a' - 'A')
			at = i + 1
		}
	}
	b.WriteString(s[at:])
	return b.String()
}

// minRandomToken is the shortest bare token masked for looking random.
const minRandomToken = 32

func maskRandomTokens(s string) string {
	var b strings.Builder
	at := 0 // s[:at] is in b
	for i := 0; i < len(s); {
		if !isTokenByte(s[i]) {
			i++
			continue
		}
		start := i
		for i < len(s) && isTokenByte(s[i]) {
			i++
		}
		if i-start >= minRandomToken && looksRandom(s[start:i]) {
			b.WriteString(s[at:start])
			b.WriteString(Mask)
			at = i
		}
	}
	if at == 0 {
		return s
	}
	b.WriteString(s[at:])
	return b.String()
}

// isTokenByte reports whether c is in the base64/hex alphabet of random
// tokens: ASCII letters and digits, '+', '/', '_', '-' and '='.
func isTokenByte(c byte) bool { return tokenBytes.has(c) }

// byteSet is a set of bytes. The sets below are literals of constants (no
// start-up work); the tests compare each with its definition.
type byteSet [4]uint64

func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

var (
	tokenBytes = byteSet{0x23ffa80000000000, 0x7fffffe87fffffe, 0, 0}
	wordBreaks = byteSet{0x780013d500002601, 0x3800000100000000, 0, 0}
)

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
