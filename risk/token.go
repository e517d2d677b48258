package risk

import (
	"regexp"
	"strings"
	"sync"
)

// TokenShape is a kind of credential recognised by its form alone: the
// text is a secret wherever it appears. Re's first group is the non-secret
// prefix worth keeping when the token is masked ("ghp_").
type TokenShape struct {
	Name string
	// Re is compiled on first use: most text holds no token, and a hook
	// process should not pay for compiling them all at start.
	Re func() *regexp.Regexp
	// Need are lower-case literals of which the lower-cased text must
	// contain one for Re to be tried at all.
	Need []string
}

// compiledTokens holds the expressions of TokenShapes compiled so far, by
// expression.
var compiledTokens sync.Map

// compiled returns expr compiled, compiling it on its first use. Each Re
// of TokenShapes is a function literal calling it: one that captures
// nothing is laid out by the linker, so TokenShapes costs nothing at start
// (a sync.OnceValue per shape would allocate at start-up).
func compiled(expr string) *regexp.Regexp {
	if re, ok := compiledTokens.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := compiledTokens.LoadOrStore(expr, regexp.MustCompile(expr))
	return re.(*regexp.Regexp)
}

// TokenShapes are the credential formats of the common services and the
// PEM private key block: prefixes that only credentials carry, with the
// length and alphabet the services issue.
var TokenShapes = []TokenShape{
	{"pem private key", func() *regexp.Regexp { return compiled(`(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)`) }, []string{"private key"}},
	{"aws access key", func() *regexp.Regexp { return compiled(`((?:AKIA|ASIA))[0-9A-Z]{16}`) }, []string{"akia", "asia"}},
	// An AWS secret key has no prefix of its own: it is known by the name
	// the credentials file and the environment give it.
	{"aws secret access key", func() *regexp.Regexp {
		return compiled(`(?i)(aws_secret_access_key["']?\s*[=:]\s*["']?)[A-Za-z0-9/+]{40}(?:[^A-Za-z0-9/+]|$)`)
	}, []string{"aws_secret_access_key"}},
	{"github token", func() *regexp.Regexp { return compiled(`\b((?:ghp|gho|ghs|ghu|ghr)_)[A-Za-z0-9]{30,}\b`) }, []string{"ghp_", "gho_", "ghs_", "ghu_", "ghr_"}},
	{"github fine-grained token", func() *regexp.Regexp { return compiled(`\b(github_pat_)[A-Za-z0-9_]{20,}`) }, []string{"github_pat_"}},
	{"gitlab token", func() *regexp.Regexp {
		return compiled(`\b((?:glpat|gldt|glrt|glptt|glcbt|glimt|glsoat|glffct)-)[A-Za-z0-9_-]{20,}`)
	}, []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "glsoat-", "glffct-"}},
	{"slack token", func() *regexp.Regexp { return compiled(`\b(xox[baprse]-)[A-Za-z0-9-]{10,}`) }, []string{"xox"}},
	{"slack app token", func() *regexp.Regexp { return compiled(`\b(xapp-)[0-9]+-[A-Za-z0-9-]{10,}`) }, []string{"xapp-"}},
	{"stripe key", func() *regexp.Regexp { return compiled(`\b((?:sk|rk)_(?:live|test)_)[A-Za-z0-9]{10,}`) }, []string{"k_live_", "k_test_"}},
	{"stripe webhook secret", func() *regexp.Regexp { return compiled(`\b(whsec_)[A-Za-z0-9+/=]{20,}`) }, []string{"whsec_"}},
	{"openai or anthropic key", func() *regexp.Regexp { return compiled(`\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_-]{20,}`) }, []string{"sk-"}},
	{"google api key", func() *regexp.Regexp { return compiled(`\b(AIza)[0-9A-Za-z_-]{35,}`) }, []string{"aiza"}},
	{"google oauth token", func() *regexp.Regexp { return compiled(`\b(ya29\.)[0-9A-Za-z_-]{20,}`) }, []string{"ya29."}},
	{"google oauth client secret", func() *regexp.Regexp { return compiled(`\b(GOCSPX-)[0-9A-Za-z_-]{20,}`) }, []string{"gocspx-"}},
	{"jwt", func() *regexp.Regexp { return compiled(`\b(eyJ)[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+`) }, []string{"eyj"}},
	{"npm token", func() *regexp.Regexp { return compiled(`\b(npm_)[A-Za-z0-9]{36}\b`) }, []string{"npm_"}},
	{"hugging face token", func() *regexp.Regexp { return compiled(`\b(hf_)[A-Za-z0-9]{30,}\b`) }, []string{"hf_"}},
	{"pypi token", func() *regexp.Regexp { return compiled(`\b(pypi-)AgEIcHlwaS5vcmc[A-Za-z0-9_-]{16,}`) }, []string{"pypi-ageichlwas5vcmc"}},
	{"docker hub token", func() *regexp.Regexp { return compiled(`\b(dckr_pat_)[A-Za-z0-9_-]{20,}`) }, []string{"dckr_pat_"}},
	{"vault token", func() *regexp.Regexp { return compiled(`\b(hv[sbr]\.)[A-Za-z0-9_-]{24,}`) }, []string{"hvs.", "hvb.", "hvr."}},
	{"sendgrid key", func() *regexp.Regexp { return compiled(`\b(SG\.)[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`) }, []string{"sg."}},
	{"digitalocean token", func() *regexp.Regexp { return compiled(`\b(do[por]_v1_)[a-f0-9]{64}\b`) }, []string{"_v1_"}},
	{"shopify token", func() *regexp.Regexp { return compiled(`\b(shp(?:at|ca|pa|ss)_)[a-fA-F0-9]{32}\b`) }, []string{"shpat_", "shpca_", "shppa_", "shpss_"}},
	{"age secret key", func() *regexp.Regexp { return compiled(`\b(AGE-SECRET-KEY-)1[0-9A-Z]{58}\b`) }, []string{"age-secret-key-1"}},
	{"groq, xai or perplexity key", func() *regexp.Regexp { return compiled(`\b(gsk_|xai-|pplx-)[A-Za-z0-9]{40,}`) }, []string{"gsk_", "xai-", "pplx-"}},
	{"databricks token", func() *regexp.Regexp { return compiled(`\b(dapi)[a-f0-9]{32}\b`) }, []string{"dapi"}},
	{"atlassian token", func() *regexp.Regexp { return compiled(`\b(ATATT3)[A-Za-z0-9_=-]{50,}`) }, []string{"atatt3"}},
	{"linear key", func() *regexp.Regexp { return compiled(`\b(lin_api_)[A-Za-z0-9]{30,}`) }, []string{"lin_api_"}},
	{"postman key", func() *regexp.Regexp { return compiled(`\b(PMAK-)[a-f0-9]{24}-[a-f0-9]{34}`) }, []string{"pmak-"}},
	{"sentry token", func() *regexp.Regexp { return compiled(`\b(sntry[su]_)[A-Za-z0-9+/=_-]{30,}`) }, []string{"sntrys_", "sntryu_"}},
	{"grafana token", func() *regexp.Regexp { return compiled(`\b(glsa_|glc_)[A-Za-z0-9+/=_]{30,}`) }, []string{"glsa_", "glc_"}},
	{"terraform cloud token", func() *regexp.Regexp { return compiled(`\b([A-Za-z0-9]{14}\.atlasv1\.)[A-Za-z0-9_=-]{60,}`) }, []string{"atlasv1."}},
}

// FindToken returns the name of the first credential format s contains
// ("" when none).
func FindToken(s string) string {
	if mask, ok := tokenCandidates(s); ok {
		if mask == 0 {
			return ""
		}
		return findToken(s, mask)
	}
	return findToken(s, ^uint64(0))
}

// findToken is FindToken over the shapes whose bit is set in mask (every
// shape past the 64th is always tried): each is tried when the
// lower-cased text contains one of its Need literals.
func findToken(s string, mask uint64) string {
	lower := strings.ToLower(s)
	for k, t := range TokenShapes {
		if k < 64 && mask&(1<<k) == 0 {
			continue
		}
		for _, n := range t.Need {
			if strings.Contains(lower, n) {
				if t.Re().MatchString(s) {
					return t.Name
				}
				break
			}
		}
	}
	return ""
}

// tokenTrigrams maps a hash of three lower-case bytes to the shapes (bit k
// for TokenShapes[k]) one of whose Need literals begins with them; a shape
// with a Need shorter than three bytes, or past the 64th, is in always.
// Built once, on first use; never changed after.
var tokenTrigrams struct {
	once   sync.Once
	table  [1 << 12]uint64
	always uint64
}

func trigramHash(a, b, c byte) int { return (int(a)<<8 ^ int(b)<<4 ^ int(c)) & (1<<12 - 1) }

// tokenCandidates returns the shapes FindToken must try for s: a shape
// whose Need literal s contains (lower-cased) has that literal's first
// three bytes somewhere in s, so its bit is set (TestFindTokenIndex and
// FuzzFindToken compare with trying every shape). ok is false for text
// that is not all ASCII: strings.ToLower maps some other letters to ASCII
// ones (the Kelvin sign to k), so such text tries every shape.
func tokenCandidates(s string) (mask uint64, ok bool) {
	tt := &tokenTrigrams
	tt.once.Do(func() {
		for k, t := range TokenShapes {
			for _, n := range t.Need {
				switch {
				case k >= 64:
				case len(n) < 3:
					tt.always |= 1 << k
				default:
					tt.table[trigramHash(n[0], n[1], n[2])] |= 1 << k
				}
			}
		}
	})
	mask = tt.always
	for i := range len(s) {
		if s[i] >= 0x80 {
			return 0, false
		}
	}
	for i := 0; i+3 <= len(s); i++ {
		mask |= tt.table[trigramHash(lowerASCII(s[i]), lowerASCII(s[i+1]), lowerASCII(s[i+2]))]
	}
	return mask, true
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
