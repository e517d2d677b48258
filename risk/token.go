package risk

import (
	"math/bits"
	"regexp"
	"slices"
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
// ("" when none): the first shape, in TokenShapes' order, one of whose
// Need literals the lower-cased s contains and whose Re matches s.
//
// The literals are looked for in one pass over s (needleIndex) rather than
// by a strings.Contains per literal: a command's words are scanned for
// every command that reaches the network, and the seventy literals cost
// several thousand instructions a decision that way. A text with a byte
// outside ASCII goes the literal way (findTokenPlain), since strings.ToLower
// maps some non-ASCII letters to ASCII ones (the Kelvin sign to k) and the
// one pass lower-cases ASCII letters alone.
func FindToken(s string) string {
	ix := tokenNeedles()
	if ix == nil {
		return findTokenPlain(s)
	}
	found, ascii := ix.scan(s)
	if !ascii {
		return findTokenPlain(s)
	}
	for i := range TokenShapes {
		if found&(1<<i) != 0 && TokenShapes[i].Re().MatchString(s) {
			return TokenShapes[i].Name
		}
	}
	return ""
}

// findTokenPlain is FindToken literal by literal.
func findTokenPlain(s string) string {
	lower := strings.ToLower(s)
	for _, t := range TokenShapes {
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

// needleIndex finds which shapes' Need literals a text holds, in one pass:
// a bit for every pair of (lower-case) bytes a literal starts with, and
// the literals of each such pair.
type needleIndex struct {
	pairs [1 << 16 / 64]uint64
	// rank[w] is the number of pairs set in pairs[:w]: the list of a pair
	// is lists[rank[w] + the pairs set below it in its word].
	rank  [1 << 16 / 64]uint16
	lists [][]needle
	// always are the shapes whose literals the pairs cannot hold (shorter
	// than two bytes, or not lower-case ASCII): looked for with
	// strings.Contains.
	always uint64
}

type needle struct {
	text  string
	shape uint8
}

var (
	needlesOnce sync.Once
	needles     *needleIndex
)

// tokenNeedles is the index of TokenShapes' literals, built on first use
// (nil when there are more shapes than a found set holds).
func tokenNeedles() *needleIndex {
	needlesOnce.Do(func() { needles = buildNeedleIndex(TokenShapes) })
	return needles
}

func buildNeedleIndex(shapes []TokenShape) *needleIndex {
	if len(shapes) > 64 {
		return nil
	}
	ix := &needleIndex{}
	var all []needle
	for i, t := range shapes {
		for _, n := range t.Need {
			if len(n) < 2 || !isASCII(n) || n != strings.ToLower(n) {
				ix.always |= 1 << i
				continue
			}
			all = append(all, needle{n, uint8(i)})
		}
	}
	// By pair, so that a pair's literals are one run (their order within
	// it does not matter: scan tries them all).
	slices.SortFunc(all, func(a, b needle) int { return int(pairOf(a.text)) - int(pairOf(b.text)) })
	var k uint16
	for j := 0; j < len(all); {
		p := pairOf(all[j].text)
		end := j + 1
		for end < len(all) && pairOf(all[end].text) == p {
			end++
		}
		ix.pairs[p>>6] |= 1 << (p & 63)
		ix.lists = append(ix.lists, all[j:end:end])
		j = end
	}
	for w := range ix.pairs {
		ix.rank[w] = k
		k += uint16(bits.OnesCount64(ix.pairs[w]))
	}
	return ix
}

// pairOf is the pair of bytes a literal starts with.
func pairOf(n string) uint16 { return uint16(n[0])<<8 | uint16(n[1]) }

// scan returns the set of shapes (bit i for TokenShapes[i]) one of whose
// literals the lower-cased s holds, and whether s is ASCII; when it is
// not, the set is not complete.
func (ix *needleIndex) scan(s string) (found uint64, ascii bool) {
	var all byte
	if len(s) > 0 {
		prev := lowerASCII(s[0])
		all = s[0]
		for i := 1; i < len(s); i++ {
			c := s[i]
			all |= c
			c = lowerASCII(c)
			p := uint16(prev)<<8 | uint16(c)
			prev = c
			w, bit := p>>6, uint64(1)<<(p&63)
			if ix.pairs[w]&bit == 0 {
				continue
			}
			list := ix.lists[int(ix.rank[w])+bits.OnesCount64(ix.pairs[w]&(bit-1))]
			for _, n := range list {
				if found&(1<<n.shape) == 0 && hasLowerPrefix(s[i-1:], n.text) {
					found |= 1 << n.shape
				}
			}
		}
	}
	if all >= 0x80 {
		return found, false
	}
	if ix.always != 0 {
		lower := strings.ToLower(s)
		for i := range TokenShapes {
			if ix.always&(1<<i) == 0 || found&(1<<i) != 0 {
				continue
			}
			for _, n := range TokenShapes[i].Need {
				if strings.Contains(lower, n) {
					found |= 1 << i
					break
				}
			}
		}
	}
	return found, true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasLowerPrefix reports whether s, its ASCII letters lower-cased, starts
// with the lower-case literal n.
func hasLowerPrefix(s, n string) bool {
	if len(s) < len(n) {
		return false
	}
	for i := 0; i < len(n); i++ {
		if lowerASCII(s[i]) != n[i] {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
