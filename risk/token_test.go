package risk_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/risk"
)

// rep repeats s to n bytes. The samples are built, not written out, so no
// secret scanner mistakes this file for a leak; none is a real credential.
func rep(s string, n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }

// tokenSamples holds, for every shape, a text that carries a credential of
// that form and a near miss that does not (too short, wrong alphabet, no
// word boundary, a look-alike prefix).
var tokenSamples = map[string]struct{ hit, miss string }{
	"pem private key":             {"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl", "-----BEGIN PUBLIC KEY-----\nMIIB"},
	"aws access key":              {"aws_access_key_id = AKIA" + rep("ABCD2345", 16), "AKIA" + rep("abcd", 16)},
	"aws secret access key":       {"aws_secret_access_key = " + rep("wJalrXUtnFEMI/K7MDENG+", 40), "aws_secret_access_key = " + rep("wJalr", 12)},
	"github token":                {"token: ghp_" + rep("a1B2", 36), "ghp_" + rep("a1", 20)},
	"github fine-grained token":   {"github_pat_" + rep("11AB_cd", 40), "github_pat_short"},
	"gitlab token":                {"glpat-" + rep("x_Y-z", 20), "glpat-" + rep("x", 10)},
	"slack token":                 {"xoxb-" + rep("1234-abcd", 24), "xoxb-12"},
	"slack app token":             {"xapp-1-" + rep("A0B1", 20), "xapp-x-" + rep("A0B1", 20)},
	"stripe key":                  {"sk_live_" + rep("Ab9", 24), "sk_live_" + rep("Ab", 4)},
	"stripe webhook secret":       {"whsec_" + rep("Ab9+", 32), "whsec_abc"},
	"openai or anthropic key":     {"sk-ant-" + rep("Ab9_-", 40), "sk-" + rep("a", 10)},
	"google api key":              {"AIza" + rep("Sy0_-x", 35), "AIza" + rep("S", 20)},
	"google oauth token":          {"ya29." + rep("a0-_", 40), "ya29.short"},
	"google oauth client secret":  {"GOCSPX-" + rep("a0B_", 28), "GOCSPX-short"},
	"jwt":                         {"eyJhbGciOi." + rep("eyJzdWIi", 20) + "." + rep("sig_", 20), "eyJhbGci"},
	"npm token":                   {"//registry.npmjs.org/:_authToken=npm_" + rep("a1B2", 36), "npm_" + rep("a1", 20)},
	"hugging face token":          {"hf_" + rep("aB1", 34), "hf_" + rep("aB", 10)},
	"pypi token":                  {"pypi-AgEIcHlwaS5vcmc" + rep("ab_-", 40), "pypi-" + rep("ab", 20)},
	"docker hub token":            {"dckr_pat_" + rep("a_B-1", 27), "dckr_pat_x"},
	"vault token":                 {"hvs." + rep("CAES_-", 90), "hvs.short"},
	"sendgrid key":                {"SG." + rep("ab_-", 22) + "." + rep("cd_-", 43), "SG.ab.cd"},
	"digitalocean token":          {"dop_v1_" + rep("0af9", 64), "dop_v1_" + rep("0AF9", 64)},
	"shopify token":               {"shpat_" + rep("0aF9", 32), "shpat_" + rep("0g", 16)},
	"age secret key":              {"AGE-SECRET-KEY-1" + rep("QZ0X2", 58), "AGE-SECRET-KEY-1short"},
	"groq, xai or perplexity key": {"gsk_" + rep("aB1", 52), "gsk_" + rep("aB", 10)},
	"databricks token":            {"dapi" + rep("0a9f", 32), "dapi" + rep("0g", 16)},
	"atlassian token":             {"ATATT3" + rep("xF_=-", 60), "ATATT3xF"},
	"linear key":                  {"lin_api_" + rep("aB1", 40), "lin_api_" + rep("a", 10)},
	"postman key":                 {"PMAK-" + rep("0a", 24) + "-" + rep("1b", 34), "PMAK-" + rep("0a", 24)},
	"sentry token":                {"sntrys_" + rep("eyJp+/=_", 60), "sntrys_x"},
	"grafana token":               {"glsa_" + rep("aB1+/=", 40), "glsa_" + rep("a", 10)},
	"terraform cloud token":       {rep("Ab1", 14) + ".atlasv1." + rep("x_=-", 70), rep("Ab1", 14) + ".atlasv1.short"},
}

// TestTokenShapes checks every shape on a text that carries its form and
// on a near miss, through FindToken: a shape whose Need literals do not
// cover its own form would never be tried.
func TestTokenShapes(t *testing.T) {
	var names []string
	for _, s := range risk.TokenShapes {
		names = append(names, s.Name)
		sample, ok := tokenSamples[s.Name]
		if !ok {
			t.Errorf("shape %q has no sample in tokenSamples", s.Name)
			continue
		}
		if got := risk.FindToken("export X=" + sample.hit + " # set"); got != s.Name {
			t.Errorf("FindToken(%q) = %q, want %q", sample.hit, got, s.Name)
		}
		if got := risk.FindToken(sample.miss); got == s.Name {
			t.Errorf("FindToken(%q) = %q: a near miss matched", sample.miss, got)
		}
		for _, n := range s.Need {
			if n != strings.ToLower(n) {
				t.Errorf("shape %q: Need %q is not lower case (FindToken looks in lower-cased text)", s.Name, n)
			}
		}
	}
	for name := range tokenSamples {
		if !slices.Contains(names, name) {
			t.Errorf("tokenSamples has %q, which is no shape", name)
		}
	}
}

func TestFindTokenOrdinaryText(t *testing.T) {
	for _, s := range []string{
		"", "go test ./...", "skip the task-runner", "ask-ant-colony", "the xoxo club",
		"AKIA is a prefix", "eyJ alone", "sha256:" + rep("0af9", 64), "npm_config_cache=/tmp/x",
		"hvs.short", "my-private-key-parser.go",
	} {
		if got := risk.FindToken(s); got != "" {
			t.Errorf("FindToken(%q) = %q, want none", s, got)
		}
	}
}

func TestIsSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN":          true,
		"github_token":          true,
		"AWS_SECRET_ACCESS_KEY": true,
		"DB_PASSWORD":           true,
		"MYSQL_PWD":             true,
		"OPENAI_API_KEY":        true,
		"STRIPE_APIKEY":         true,
		"DATABASE_URL":          true,
		"redis_url":             true,
		"NPM_CONFIG__AUTH":      true,
		"SESSION_COOKIE":        true,
		"SENTRY_DSN":            true,
		"GOOGLE_CREDENTIALS":    true,
		"BASIC_AUTH":            true,
		"AWS_PROFILE":           false,
		"SSH_AUTH_SOCK":         false,
		"HOME":                  false,
		"PATH":                  false,
		"KEYBOARD_LAYOUT":       false,
		"GOFLAGS":               false,
		"AUTHOR_NAME":           false,
		"":                      false,
	} {
		if got := risk.IsSecretName(name); got != want {
			t.Errorf("IsSecretName(%q) = %v, want %v", name, got, want)
		}
	}
}
