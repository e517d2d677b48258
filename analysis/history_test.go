package analysis_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/paths"
)

// TestHistoryFinding: a delete inside a repository's .git is the
// history's when it reaches .git itself or one of its history entries,
// and not for git's scratch files, lock files or a scratch repository in
// a temporary directory outside the workspace.
func TestHistoryFinding(t *testing.T) {
	env := paths.Env{Cwd: "/w", Workspace: "/w"}
	tmpWork := paths.Env{Cwd: "/tmp/ws", Workspace: "/tmp/ws"}
	tests := []struct {
		name     string
		path     string
		env      paths.Env
		below    string
		lockOnly bool
		want     string // the rule, or "" for none
	}{
		{"the .git directory", "/w/.git", env, "", false, "paths.delete-git-history"},
		{"the objects", "/w/.git/objects", env, "", false, "paths.delete-git-history"},
		{"a pack file", "/w/.git/objects/pack/pack-1.pack", env, "", false, "paths.delete-git-history"},
		{"a branch", "/w/.git/refs/heads/main", env, "", false, "paths.delete-git-history"},
		{"HEAD", "/w/.git/HEAD", env, "", false, "paths.delete-git-history"},
		{"the index", "/w/.git/index", env, "", false, ""}, // staged blobs are objects already; git reset rebuilds it
		{"the reflogs", "/w/.git/logs", env, "", false, "paths.delete-git-history"},
		{"a submodule's repository", "/w/.git/modules/lib/objects", env, "", false, "paths.delete-git-history"},
		{"a glob over .git's entries", "/w/.git", env, "*", false, "paths.delete-git-history"},
		{"a glob of packs", "/w/.git/objects/pack", env, "*.pack", false, "paths.delete-git-history"},
		{"a glob that names no history entry", "/w/.git", env, "*.bak", false, ""},
		{"the commit message", "/w/.git/COMMIT_EDITMSG", env, "", false, ""},
		{"a hook's backup of it", "/w/.git/COMMIT_EDITMSG.bak", env, "", false, ""},
		{"ORIG_HEAD", "/w/.git/ORIG_HEAD", env, "", false, ""},
		{"a lock file", "/w/.git/index.lock", env, "", true, ""},
		{"a scratch clone in /tmp", "/tmp/clone/.git/objects", env, "", false, ""},
		{"a workspace in /tmp", "/tmp/ws/.git/objects", tmpWork, "", false, "paths.delete-git-history"},
		{"a file named like git's", "/w/src/.gitignore", env, "", false, ""},
		{"a directory named .github", "/w/.github/workflows", env, "", false, ""},
		{"no repository", "/w/src/objects", env, "", false, ""},
	}
	for _, tc := range tests {
		cp := paths.Path{Literal: tc.path, Resolved: tc.path}
		got := ""
		if f := analysis.HistoryFinding(cp, tc.env, tc.below, tc.lockOnly); f != nil {
			got = f.Rule
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: HistoryFinding(%q, below %q) (-want +got):\n%s", tc.name, tc.path, tc.below, diff)
		}
	}
}

// TestLockFile: git's lock files, or a glob of them only.
func TestLockFile(t *testing.T) {
	for name, want := range map[string]bool{
		"index.lock": true, "HEAD.lock": true, "*.lock": true, "index": false, "lock": false,
		"refs/heads/main.lock": false, "index.lock.bak": false,
	} {
		if got := analysis.LockFile(name); got != want {
			t.Errorf("LockFile(%q) = %v, want %v", name, got, want)
		}
	}
}
