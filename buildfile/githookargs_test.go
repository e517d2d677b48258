package buildfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGitHookArgs: the positional parameters git passes each hook
// (githooks(5)) as far as they are known before it runs, and the hooks
// directory -c core.hooksPath named.
func TestGitHookArgs(t *testing.T) {
	origin := "[remote \"origin\"]\n\turl = https://github.com/example/app.git\n"
	type hookArgs struct {
		File string
		Args []string
	}
	tests := []struct {
		cmd      string
		config   string
		hooks    []string // under /w/.git/hooks unless absolute
		want     []hookArgs
		fromCLI  string
		problems int
	}{
		{cmd: "git commit -m x", hooks: []string{"pre-commit", "prepare-commit-msg", "commit-msg"},
			want: []hookArgs{{"/w/.git/hooks/pre-commit", nil},
				{"/w/.git/hooks/prepare-commit-msg", []string{"/w/.git/COMMIT_EDITMSG"}},
				{"/w/.git/hooks/commit-msg", []string{"/w/.git/COMMIT_EDITMSG"}}}},
		{cmd: "git merge feature", hooks: []string{"prepare-commit-msg", "commit-msg"},
			want: []hookArgs{{"/w/.git/hooks/prepare-commit-msg", []string{"/w/.git/MERGE_MSG"}},
				{"/w/.git/hooks/commit-msg", []string{"/w/.git/MERGE_MSG"}}}},
		{cmd: "git am 0001.patch", hooks: []string{"applypatch-msg"},
			want: []hookArgs{{"/w/.git/hooks/applypatch-msg", []string{"/w/.git/rebase-apply/final-commit"}}}},
		{cmd: "git commit --amend", hooks: []string{"post-rewrite"},
			want: []hookArgs{{"/w/.git/hooks/post-rewrite", []string{"amend"}}}},
		{cmd: "git rebase main", hooks: []string{"post-rewrite"},
			want: []hookArgs{{"/w/.git/hooks/post-rewrite", []string{"rebase"}}}},
		{cmd: "git push origin main", config: origin, hooks: []string{"pre-push"},
			want: []hookArgs{{"/w/.git/hooks/pre-push", []string{"origin", "https://github.com/example/app.git"}}}},
		{cmd: "git push -u origin main", config: origin, hooks: []string{"pre-push"},
			want: []hookArgs{{"/w/.git/hooks/pre-push", []string{"origin", "https://github.com/example/app.git"}}}},
		{cmd: "git push -o ci.skip origin main", config: origin, hooks: []string{"pre-push"},
			want: []hookArgs{{"/w/.git/hooks/pre-push", []string{"origin", "https://github.com/example/app.git"}}}},
		{cmd: "git push https://example.com/x.git main", hooks: []string{"pre-push"},
			want: []hookArgs{{"/w/.git/hooks/pre-push", []string{"https://example.com/x.git", "https://example.com/x.git"}}}},
		// not known: no repository named, a push URL, a rewritten URL, a name not configured
		{cmd: "git push", config: origin, hooks: []string{"pre-push"},
			want: []hookArgs{{"/w/.git/hooks/pre-push", nil}}},
		{cmd: "git push origin main", config: origin + "\tpushurl = /home/u\n", hooks: []string{"pre-push"},
			want: []hookArgs{{"/w/.git/hooks/pre-push", nil}}},
		{cmd: "git push origin main", config: origin + "[url \"/home/\"]\n\tinsteadOf = https://github.com/\n", hooks: []string{"pre-push"},
			want: []hookArgs{{"/w/.git/hooks/pre-push", nil}}},
		{cmd: "git push upstream main", config: origin, hooks: []string{"pre-push"},
			want: []hookArgs{{"/w/.git/hooks/pre-push", nil}}},
		// -c core.hooksPath: the directory, and receive-pack's hooks for a push
		{cmd: "git -c core.hooksPath=.githooks commit -m x", hooks: []string{"/w/.githooks/pre-commit"},
			want: []hookArgs{{"/w/.githooks/pre-commit", nil}}, fromCLI: "/w/.githooks"},
		{cmd: "git -c core.hooksPath=.githooks push ../mirror main", hooks: []string{"/w/.githooks/pre-push", "/w/.githooks/post-receive"},
			want: []hookArgs{{"/w/.githooks/pre-push", nil}, {"/w/.githooks/post-receive", nil}}, fromCLI: "/w/.githooks"},
		{cmd: "git push ../mirror main", config: "[core]\n\thooksPath = .githooks\n", hooks: []string{"/w/.githooks/pre-push", "/w/.githooks/post-receive"},
			want: []hookArgs{{"/w/.githooks/pre-push", nil}}},
		{cmd: "git -c core.hooksPath=.githooks status", hooks: []string{"/w/.githooks/pre-commit"}},
	}
	for _, tc := range tests {
		files := fakeFiles{"/w/.git/config": "[core]\n\tbare = false\n" + tc.config}
		for _, h := range tc.hooks {
			if !strings.HasPrefix(h, "/") {
				h = "/w/.git/hooks/" + h
			}
			files[h] = "true\n"
		}
		f := strings.Fields(tc.cmd)
		got := Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w, Home: "/home/u"}, execFiles{files, nil})
		var args []hookArgs
		for _, st := range got.Steps {
			args = append(args, hookArgs{st.File, st.Args})
		}
		if diff := cmp.Diff(tc.want, args); diff != "" {
			t.Errorf("%s: hooks and their parameters (-want +got):\n%s", tc.cmd, diff)
		}
		if got.HooksFromCLI != tc.fromCLI || len(got.Problems) != tc.problems {
			t.Errorf("%s: HooksFromCLI %q, problems %v; want %q, %d", tc.cmd, got.HooksFromCLI, got.Problems, tc.fromCLI, tc.problems)
		}
	}
}
