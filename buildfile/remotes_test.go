package buildfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGitRemoteURLs(t *testing.T) {
	got, err := GitRemoteURLs("[core]\n\tbare = false\n[remote \"origin\"]\n\turl = git@github.com:acme/p.git\n" +
		"\tfetch = +refs/heads/*:refs/remotes/origin/*\n[remote \"my.fork\"]\n\tURL = https://github.com/me/p\n\tpushurl = ssh://h/x\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"origin.url": "git@github.com:acme/p.git", "my.fork.url": "https://github.com/me/p", "my.fork.pushurl": "ssh://h/x"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	if _, err := GitRemoteURLs("[remote \"x\"\n"); err == nil {
		t.Error("a broken config: want an error")
	}
}
