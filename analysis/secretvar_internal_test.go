package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkSecretVarMatches fails when secretVarMatches finds other matches
// than the expression run over the whole text.
func checkSecretVarMatches(t *testing.T, code string) {
	t.Helper()
	want := secretVarRE.Get().FindAllStringSubmatch(code, -1)
	if diff := cmp.Diff(want, secretVarMatches(code)); diff != "" {
		t.Errorf("secretVarMatches(%q) differs from secretVarRE (-want +got):\n%s", code, diff)
	}
}

func TestSecretVarMatches(t *testing.T) {
	for _, tc := range []struct {
		code string
		want [][]string
	}{
		{"", nil},
		{"print('env')", nil},
		{`x = os.environ["AWS_SECRET_ACCESS_KEY"]`, [][]string{{`environ["AWS_SECRET_ACCESS_KEY`, "AWS_SECRET_ACCESS_KEY"}}},
		{`fetch(u, {body: process.env.GITHUB_TOKEN}); os.getenv( 'HOME' )`,
			[][]string{{"process.env.GITHUB_TOKEN", "GITHUB_TOKEN"}, {"getenv( 'HOME", "HOME"}}},
		{`my $k = $ENV{API_KEY}; ENV['X']`, [][]string{{"$ENV{API_KEY", "API_KEY"}, {"ENV['X", "X"}}},
		{`process.env[ "NPM_TOKEN" ]`, [][]string{{`process.env[ "NPM_TOKEN`, "NPM_TOKEN"}}},
		{`environ.get('DB_URL')`, [][]string{{"environ.get('DB_URL", "DB_URL"}}},
		{`ENV = 1; getenv ( 'A' )`, [][]string{{"getenv ( 'A", "A"}}},
		{`ENV = 1; Getenv`, nil},
	} {
		if diff := cmp.Diff(tc.want, secretVarMatches(tc.code)); diff != "" {
			t.Errorf("secretVarMatches(%q) (-want +got):\n%s", tc.code, diff)
		}
		checkSecretVarMatches(t, tc.code)
	}
}

// TestSecretVarMatchesAsExpression builds many texts from the pieces the
// expression is made of and checks secretVarMatches against it.
func TestSecretVarMatchesAsExpression(t *testing.T) {
	pieces := []string{"environ", "env", "ENV", "getenv", "get", ".get", "process", ".env", "process.env", "[", "(",
		"{", "$", "'", "\"", " ", "\t", "\n", "A", "_", "9", "KEY", "TOKEN", ".", "x", "ſ"}
	forPiecedTexts(t, pieces, 12, 5, 6, 200000, func(code string) { checkSecretVarMatches(t, code) })
}

func FuzzSecretVarMatches(f *testing.F) {
	for _, s := range []string{`os.environ["AWS_SECRET_ACCESS_KEY"]`, `process.env.GITHUB_TOKEN`, `$ENV{API_KEY}`,
		`getenv("A") ENV['B'] process.env["C"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) { checkSecretVarMatches(t, code) })
}
