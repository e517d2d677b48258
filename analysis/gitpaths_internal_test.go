package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/shell"
)

// TestParseGitPath: git's own spellings of a file (a revision's blob, the
// index's, a pathspec with magic) and the words that are none.
func TestParseGitPath(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want gitPath
		ok   bool
	}{
		{"HEAD:.env", gitPath{path: ".env", fromRoot: true}, true},
		{"origin/main:config/.env", gitPath{path: "config/.env", fromRoot: true}, true},
		{"HEAD~3:./.env", gitPath{path: "./.env"}, true},
		{"stash@{0}:.env", gitPath{path: ".env", fromRoot: true}, true},
		{"main@{yesterday}:config/.env", gitPath{path: "config/.env", fromRoot: true}, true},
		{":.env", gitPath{path: ".env", fromRoot: true}, true},
		{":2:.env", gitPath{path: ".env", fromRoot: true}, true},
		{":/", gitPath{fromRoot: true}, true},
		{":/config/.env", gitPath{path: "config/.env", fromRoot: true}, true},
		{":!vendor", gitPath{path: "vendor", exclude: true}, true},
		{":^.env", gitPath{path: ".env", exclude: true}, true},
		{":(exclude).env", gitPath{path: ".env", exclude: true}, true},
		{":(top,icase).ENV", gitPath{path: ".ENV", fromRoot: true, icase: true}, true},
		{":(glob)**/*.pem", gitPath{path: "**/*.pem", wild: true}, true},
		{":(literal)*.env", gitPath{path: "*.env"}, true},
		{":(attr:secret)x", gitPath{path: "x"}, true},
		{":(top", gitPath{}, false},
		{"main:main", gitPath{}, false},
		{"HEAD:refs/heads/x", gitPath{}, false},
		{"git@github.com:a/b.git", gitPath{}, false},
		{"https://example.com/a:b.git", gitPath{}, false},
		{"--format=%h:%s", gitPath{}, false},
		{"src/main.go", gitPath{}, false},
		{"", gitPath{}, false},
	} {
		got, ok := parseGitPath(tc.in)
		if ok != tc.ok || ok && !cmp.Equal(got, tc.want, cmp.AllowUnexported(gitPath{})) {
			t.Errorf("parseGitPath(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestGitPathWords: the paths the path checks see for one spelling.
func TestGitPathWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"HEAD:.env", []string{"/ws/.env"}},
		{"HEAD~1:./x/.env", []string{"/ws/sub/x/.env"}},
		{":/", []string{"/ws"}},
		{":!.env", nil},
		{":(icase).ENV", []string{"/ws/sub/.ENV", "/ws/sub/.env"}},
		{"*.env", []string{"/ws/sub/**/*.env", "/ws/sub/**/.*.env", "/ws/sub/**/.env"}},
		{"?env", []string{"/ws/sub/**/?env", "/ws/sub/**/.env"}},
		{"*", []string{"/ws/sub/**/*"}},
		{"src/*", []string{"/ws/sub/src/*"}},
	} {
		g, ok := gitPathspec(shell.Word{Value: tc.in, Known: true})
		if !ok {
			t.Errorf("%q: not read as git's spelling", tc.in)
			continue
		}
		var got []string
		for _, w := range g.words(shell.Word{}, "/ws", "/ws/sub") {
			got = append(got, w.Value)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.in, diff)
		}
	}
}

func FuzzParseGitPath(f *testing.F) {
	for _, s := range []string{"HEAD:.env", ":(top,icase).ENV", ":!x", ":/", ":2:.env", "*.env", "a:b:c", ":("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, ok := gitPathspec(shell.Word{Value: s, Known: true})
		if !ok {
			return
		}
		for _, w := range g.words(shell.Word{}, "/ws", "/ws/sub") {
			if w.Value == "" || w.Value[0] != '/' {
				t.Fatalf("%q: path %q is not absolute", s, w.Value)
			}
		}
	})
}
