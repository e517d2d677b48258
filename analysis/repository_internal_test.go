package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseGitDest(t *testing.T) {
	for _, c := range []struct {
		url  string
		want gitDest
	}{
		{"git@github.com:acme/payments.git", gitDest{"github.com", "acme"}},
		{"https://github.com/Acme/payments", gitDest{"github.com", "acme"}},
		{"https://oauth2:tok@GitLab.example.net:8443/dump/p.git", gitDest{"gitlab.example.net", "dump"}},
		{"ssh://git@host.example:2222/~me/p.git", gitDest{"host.example", "me"}},
		{"host.example:team/p", gitDest{"host.example", "team"}},
		{"/srv/git/p.git", gitDest{}},
		{"./a:b", gitDest{}},
		{"file:///srv/git/p.git", gitDest{}},
		{"../p.git", gitDest{}},
	} {
		if got := parseGitDest(c.url); got != c.want {
			t.Errorf("parseGitDest(%q) = %+v, want %+v", c.url, got, c.want)
		}
	}
}

func TestOperandsOf(t *testing.T) {
	got := operandsOf([]string{"-u", "--force-with-lease", "origin", "main", "--", "-x"})
	if diff := cmp.Diff([]string{"origin", "main", "-x"}, got); diff != "" {
		t.Error(diff)
	}
}
