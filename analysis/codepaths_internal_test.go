package analysis

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCodePathsComments: a comment opener in other languages' code is not
// the root's entries; a quoted /* still is, as are real paths beside it.
func TestCodePathsComments(t *testing.T) {
	for _, tc := range []struct {
		code string
		want []string
	}{
		{"SELECT 1 /*!50000 ; DROP TABLE users */", nil},
		{"SELECT /*+ INDEX(t) */ * FROM t", nil},
		{"/** doc */ int x = 1; /* note */", nil},
		{`system("rm -rf /*")`, []string{"/*"}},
		{"open('/etc/passwd') /* read */", []string{"/etc/passwd"}},
		{"q_not = ~q1 /* comment */ ; x = ~/notes", []string{"~/notes"}},
	} {
		if diff := cmp.Diff(tc.want, codePaths(tc.code, "")); diff != "" {
			t.Errorf("codePaths(%q) (-want +got):\n%s", tc.code, diff)
		}
	}
}

// pathTokenExpr is the expression pathTokens replaces: the reference its
// scan is compared with.
var pathTokenExpr = regexp.MustCompile(`(?:^|[\s'"=(,<>{\[:])((?:~|/)[A-Za-z0-9_.\-/~*?]*)`)

// pathTokenSpans returns pathTokens' spans as [start end] pairs.
func pathTokenSpans(code string) [][2]int {
	var out [][2]int
	for start, end := range pathTokens(code) {
		out = append(out, [2]int{start, end})
	}
	return out
}

// pathTokenExprSpans returns the expression's group spans as [start end] pairs.
func pathTokenExprSpans(code string) [][2]int {
	var out [][2]int
	for _, ix := range pathTokenExpr.FindAllStringSubmatchIndex(code, -1) {
		out = append(out, [2]int{ix[2], ix[3]})
	}
	return out
}

// TestPathTokensExpression compares the scan with the expression on table
// cases and on generated texts of the bytes that matter to either (the
// token's starts and characters, the bytes before it, a byte of a
// multi-byte rune and an invalid one, a vertical tab, which \s is not).
func TestPathTokensExpression(t *testing.T) {
	cases := []string{"", "/", "~", "/etc/passwd", " /a /b", "=/a:~/b", "a/b", "x~/y", "https://h/p",
		"file:///etc", "é/x", "\xff/x", "\v/x", "//", "/a\n/b", "'~/.ssh'", "(/a,/b)", "[/x]{/y}<~/z>", "=/=/"}
	alphabet := []string{"/", "~", " ", "\t", "\n", "\v", "'", `"`, "=", "(", ",", "<", ">", "{", "[", ":", "a", "Z",
		"0", "_", ".", "-", "*", "?", ")", "]", "}", ";", "é", "\xff", "\x00", "$"}
	rng := rand.New(rand.NewPCG(24, 26))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, code := range cases {
		if diff := cmp.Diff(pathTokenExprSpans(code), pathTokenSpans(code)); diff != "" {
			t.Fatalf("pathTokens(%q) (-expression +scan):\n%s", code, diff)
		}
	}
}

// FuzzPathTokens compares the scan with the expression on any text.
func FuzzPathTokens(f *testing.F) {
	for _, s := range []string{"open('/etc/passwd')", "x=~/a:/b", "https://h/p /q", "\xff/x é/y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if diff := cmp.Diff(pathTokenExprSpans(code), pathTokenSpans(code)); diff != "" {
			t.Fatalf("pathTokens(%q) (-expression +scan):\n%s", code, diff)
		}
	})
}

// TestCodePathParts: a path token that continues an expression
// (process.cwd()+'/package.json', inside an escaped string or not) is the
// end of a path whose start is not known, apart from the absolute paths;
// one joined to a string literal is the absolute path it spells, and one
// joined to the home directory is under ~.
func TestCodePathParts(t *testing.T) {
	tests := []struct {
		code          string
		paths, joined []string
	}{
		{`fs.writeFileSync('/tmp/r.js', 'console.log(require(process.cwd()+\'/package.json\').version)')`,
			[]string{"/tmp/r.js"}, []string{"/package.json"}},
		{`require(process.cwd() + "/package.json")`, nil, []string{"/package.json"}},
		{`$dir . '/cache'`, nil, []string{"/cache"}},
		{`'' + '/etc/passwd'`, []string{"/etc/passwd"}, nil},
		{`"a"+"/etc/shadow"`, []string{"/etc/shadow"}, nil},
		{`os.homedir() + '/.ssh/id_rsa'`, []string{"~/.ssh/id_rsa"}, nil},
		{`open('/etc/hosts')`, []string{"/etc/hosts"}, nil},
	}
	for _, tc := range tests {
		paths, joined := codePathParts(tc.code, "", true)
		if diff := cmp.Diff(tc.paths, paths); diff != "" {
			t.Errorf("codePathParts(%q) paths (-want +got):\n%s", tc.code, diff)
		}
		if diff := cmp.Diff(tc.joined, joined); diff != "" {
			t.Errorf("codePathParts(%q) joined (-want +got):\n%s", tc.code, diff)
		}
	}
}
