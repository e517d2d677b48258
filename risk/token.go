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
// PEM private key block: prefixes that only credentials carry, with the
// length and alphabet the services issue.
var TokenShapes = []TokenShape{
	{"pem private key", lazy(`(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)`), []string{"private key"}},
	{"aws access key", lazy(`((?:AKIA|ASIA))[0-9A-Z]{16}`), []string{"akia", "asia"}},
	{"github token", lazy(`\b((?:ghp|gho|ghs|ghu|ghr)_)[A-Za-z0-9]{30,}\b`), []string{"ghp_", "gho_", "ghs_", "ghu_", "ghr_"}},
	{"github fine-grained token", lazy(`\b(github_pat_)[A-Za-z0-9_]{20,}`), []string{"github_pat_"}},
	{"gitlab token", lazy(`\b((?:glpat|gldt|glrt|glptt|glcbt|glimt|glsoat|glffct)-)[A-Za-z0-9_-]{20,}`),
		[]string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "glsoat-", "glffct-"}},
	{"slack token", lazy(`\b(xox[baprse]-)[A-Za-z0-9-]{10,}`), []string{"xox"}},
	{"slack app token", lazy(`\b(xapp-)[0-9]+-[A-Za-z0-9-]{10,}`), []string{"xapp-"}},
	{"stripe key", lazy(`\b((?:sk|rk)_(?:live|test)_)[A-Za-z0-9]{10,}`), []string{"k_live_", "k_test_"}},
	{"stripe webhook secret", lazy(`\b(whsec_)[A-Za-z0-9+/=]{20,}`), []string{"whsec_"}},
	{"openai or anthropic key", lazy(`\b(sk-(?:ant-|proj-)?)[A-Za-z0-9_-]{20,}`), []string{"sk-"}},
	{"google api key", lazy(`\b(AIza)[0-9A-Za-z_-]{35,}`), []string{"aiza"}},
	{"google oauth token", lazy(`\b(ya29\.)[0-9A-Za-z_-]{20,}`), []string{"ya29."}},
	{"google oauth client secret", lazy(`\b(GOCSPX-)[0-9A-Za-z_-]{20,}`), []string{"gocspx-"}},
	{"jwt", lazy(`\b(eyJ)[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+`), []string{"eyj"}},
	{"npm token", lazy(`\b(npm_)[A-Za-z0-9]{36}\b`), []string{"npm_"}},
	{"hugging face token", lazy(`\b(hf_)[A-Za-z0-9]{30,}\b`), []string{"hf_"}},
	{"pypi token", lazy(`\b(pypi-)AgEIcHlwaS5vcmc[A-Za-z0-9_-]{16,}`), []string{"pypi-ageichlwas5vcmc"}},
	{"docker hub token", lazy(`\b(dckr_pat_)[A-Za-z0-9_-]{20,}`), []string{"dckr_pat_"}},
	{"vault token", lazy(`\b(hv[sbr]\.)[A-Za-z0-9_-]{24,}`), []string{"hvs.", "hvb.", "hvr."}},
	{"sendgrid key", lazy(`\b(SG\.)[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`), []string{"sg."}},
	{"digitalocean token", lazy(`\b(do[por]_v1_)[a-f0-9]{64}\b`), []string{"_v1_"}},
	{"shopify token", lazy(`\b(shp(?:at|ca|pa|ss)_)[a-fA-F0-9]{32}\b`), []string{"shpat_", "shpca_", "shppa_", "shpss_"}},
	{"age secret key", lazy(`\b(AGE-SECRET-KEY-)1[0-9A-Z]{58}\b`), []string{"age-secret-key-1"}},
	{"groq, xai or perplexity key", lazy(`\b(gsk_|xai-|pplx-)[A-Za-z0-9]{40,}`), []string{"gsk_", "xai-", "pplx-"}},
	{"databricks token", lazy(`\b(dapi)[a-f0-9]{32}\b`), []string{"dapi"}},
	{"atlassian token", lazy(`\b(ATATT3)[A-Za-z0-9_=-]{50,}`), []string{"atatt3"}},
	{"linear key", lazy(`\b(lin_api_)[A-Za-z0-9]{30,}`), []string{"lin_api_"}},
	{"postman key", lazy(`\b(PMAK-)[a-f0-9]{24}-[a-f0-9]{34}`), []string{"pmak-"}},
	{"sentry token", lazy(`\b(sntry[su]_)[A-Za-z0-9+/=_-]{30,}`), []string{"sntrys_", "sntryu_"}},
	{"grafana token", lazy(`\b(glsa_|glc_)[A-Za-z0-9+/=_]{30,}`), []string{"glsa_", "glc_"}},
	{"terraform cloud token", lazy(`\b([A-Za-z0-9]{14}\.atlasv1\.)[A-Za-z0-9_=-]{60,}`), []string{"atlasv1."}},
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
