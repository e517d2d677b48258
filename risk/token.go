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

func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// TokenShapes are the credential formats of the common services and the
// PEM private key block.
var TokenShapes = []TokenShape{
	{"pem private key", lazy(`(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)`), []string{"private key-----"}},
	{"aws access key", lazy(`((?:AKIA|ASIA))[0-9A-Z]{16}`), []string{"akia", "asia"}},
	{"github token", lazy(`\b((?:ghp|gho|ghs|ghu|ghr)_)[A-Za-z0-9]{30,}\b`), []string{"ghp_", "gho_", "ghs_", "ghu_", "ghr_"}},
	{"github fine-grained token", lazy(`\b(github_pat_)[A-Za-z0-9_]{20,}`), []string{"github_pat_"}},
	{"gitlab token", lazy(`\b(glpat-)[A-Za-z0-9_-]{20,}`), []string{"glpat-"}},
	{"slack token", lazy(`\b(xox[baprs]-)[A-Za-z0-9-]{10,}`), []string{"xox"}},
	{"stripe key", lazy(`\b((?:sk|rk)_(?:live|test)_)[A-Za-z0-9]{10,}`), []string{"k_live_", "k_test_"}},
	{"openai or anthropic key", lazy(`\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_-]{20,}`), []string{"sk-"}},
	{"google api key", lazy(`\b(AIza)[0-9A-Za-z_-]{35}`), []string{"aiza"}},
	{"jwt", lazy(`\b(eyJ)[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+`), []string{"eyj"}},
}

// FindToken returns the name of the first credential format s contains
// ("" when none).
func FindToken(s string) string {
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
