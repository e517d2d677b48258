package risk_test

import (
	"testing"

	"github.com/toolguard/toolguard/risk"
)

func TestMatchesSecretName(t *testing.T) {
	for _, c := range []struct {
		fragment string
		anchored bool
		want     bool
	}{
		{"AWS", false, true}, // AWS_SECRET_ACCESS_KEY
		{"aws", true, true},  // case does not matter
		{"SECRET_ACCESS", false, true},
		{"GO", true, true}, // GOOGLE_API_KEY starts with it
		{"GOPATH", true, false},
		{"PATH", false, false},
		{"ACCESS_KEY", false, true}, // a kind of secret itself
		{"JAVA_HOME", false, false},
		{"TOKEN", false, true},
		{"ROOT", false, false},
		{"ROOT", true, false},
	} {
		if got := risk.MatchesSecretName(c.fragment, c.anchored); got != c.want {
			t.Errorf("MatchesSecretName(%q, %v) = %v, want %v", c.fragment, c.anchored, got, c.want)
		}
	}
}
