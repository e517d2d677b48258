package policy_test

import (
	"strings"
	"testing"

	"github.com/toolguard/toolguard/policy"
)

// TestGitHooksDecide checks the hooks git runs, read from the workspace on
// disk: a critical effect denies in every mode naming the hook, its line
// and its code; a hook that cannot be judged (not text, too large) is
// asked about in every mode; a hook that is not executable, or that
// --no-verify skips, runs nothing.
func TestGitHooksDecide(t *testing.T) {
	cfg := corpusFileSpec{Path: ".git/config", Content: "[core]\n\tbare = false\n"}
	runDiskCases(t, []diskCase{
		{"a pre-commit that wipes the home directory", "git commit -m x",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-commit", Mode: "0755", Content: "#!/bin/sh\nset -e\nrm -rf \"$HOME\"\n"}},
			[3]string{"deny", "deny", "deny"}, `In .git/hooks/pre-commit, line 3 (rm -rf "$HOME"): `},
		{"the same hook, not executable", "git commit -m x",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-commit", Mode: "0644", Content: "#!/bin/sh\nrm -rf \"$HOME\"\n"}},
			[3]string{"ask", "allow", "allow"}, ""},
		{"the same hook, skipped by --no-verify", "git commit --no-verify -m x",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-commit", Mode: "0755", Content: "#!/bin/sh\nrm -rf \"$HOME\"\n"}},
			[3]string{"ask", "allow", "allow"}, ""},
		{"a compiled pre-push", "git push origin main",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-push", Mode: "0755", Content: "\x7fELF\x00\x00"}},
			[3]string{"ask", "ask", "ask"}, ".git/hooks/pre-push"},
		{"a pre-push larger than the limit", "git push origin main",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/pre-push", Mode: "0755", Content: "#!/bin/sh\n" + strings.Repeat("# padding\n", policy.MaxFileBytes/10+1)}},
			[3]string{"ask", "ask", "ask"}, ".git/hooks/pre-push"},
		{"no hooks", "git commit -m x", []corpusFileSpec{cfg},
			[3]string{"ask", "allow", "allow"}, ""},
		// -c core.hooksPath naming a directory of the workspace: its hooks decide
		{"-c core.hooksPath=.githooks, a benign pre-commit", "git -c core.hooksPath=.githooks commit -m x",
			[]corpusFileSpec{cfg, {Path: ".githooks/pre-commit", Mode: "0755", Content: "#!/bin/sh\ngo vet ./...\n"}},
			[3]string{"ask", "allow", "allow"}, ""},
		{"-c core.hooksPath=.githooks, a pre-commit that wipes the home", "git -c core.hooksPath=.githooks commit -m x",
			[]corpusFileSpec{cfg, {Path: ".githooks/pre-commit", Mode: "0755", Content: "#!/bin/sh\nrm -rf \"$HOME\"\n"}},
			[3]string{"deny", "deny", "deny"}, `In .githooks/pre-commit, line 2 (rm -rf "$HOME"): `},
		{"-c core.hooksPath=.githooks and a pager", "git -c core.hooksPath=.githooks -c core.pager=less commit -m x",
			[]corpusFileSpec{cfg, {Path: ".githooks/pre-commit", Mode: "0755", Content: "#!/bin/sh\ngo vet ./...\n"}},
			// the pager is judged as the command it is (less), as PAGER=less: the hooks' go vet is the execute tier
			[3]string{"ask", "allow", "allow"}, "execute-tier"},
		{"-c core.hooksPath outside the workspace", "git -c core.hooksPath=/tmp/hooks commit -m x",
			[]corpusFileSpec{cfg},
			[3]string{"ask", "ask", "ask"}, "-c core.hooksPath makes git run the hooks of another directory"},
		{"-c core.hooksPath=.. climbing out", "git -c core.hooksPath=../hooks commit -m x",
			[]corpusFileSpec{cfg},
			[3]string{"ask", "ask", "ask"}, "-c core.hooksPath"},
		{"-c core.hooksPath for a sub-command whose hooks are not read", "git -c core.hooksPath=.githooks submodule update",
			[]corpusFileSpec{cfg, {Path: ".githooks/post-checkout", Mode: "0755", Content: "#!/bin/sh\ngo vet ./...\n"}},
			[3]string{"ask", "ask", "ask"}, "-c core.hooksPath"},
		{"-c core.hooksPath and a push: receive-pack's hooks are read too", "git -c core.hooksPath=.githooks push ../mirror main",
			[]corpusFileSpec{cfg, {Path: ".githooks/post-receive", Mode: "0755", Content: "#!/bin/sh\nrm -rf ~/\n"}},
			[3]string{"deny", "deny", "deny"}, "In .githooks/post-receive, line 2"},
		// what git passes a hook
		{"commit-msg edits its first parameter in place", "git commit -m x",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/commit-msg", Mode: "0755", Content: "#!/bin/sh\nsed -i.bak -e '/^#/d' \"$1\"\n"}},
			[3]string{"ask", "allow", "allow"}, ""},
		{"commit-msg copies the message file over the shell's startup file", "git commit -m x",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/commit-msg", Mode: "0755", Content: "#!/bin/sh\ncp \"$1\" ~/.bashrc\n"}},
			[3]string{"ask", "ask", "ask"}, "In .git/hooks/commit-msg: Writing"},
		{"prepare-commit-msg's second parameter stays unknown", "git commit -m x",
			[]corpusFileSpec{cfg, {Path: ".git/hooks/prepare-commit-msg", Mode: "0755", Content: "#!/bin/sh\nrm -rf \"$2\"\n"}},
			[3]string{"ask", "ask", "ask"}, ""},
		{"pre-push: the first parameter is the remote", "git push origin main",
			[]corpusFileSpec{{Path: ".git/config", Content: "[remote \"origin\"]\n\turl = https://github.com/example/app.git\n"},
				{Path: ".git/hooks/pre-push", Mode: "0755", Content: "#!/bin/sh\ngit fetch --quiet \"$1\"\n"}},
			[3]string{"ask", "allow", "allow"}, ""},
		{"pre-push: a rewritten URL leaves the second parameter unknown", "git push origin main",
			[]corpusFileSpec{{Path: ".git/config", Content: "[remote \"origin\"]\n\turl = gh:example/app.git\n[url \"/home/\"]\n\tinsteadOf = gh:\n"},
				{Path: ".git/hooks/pre-push", Mode: "0755", Content: "#!/bin/sh\nrm -rf \"$2\"\n"}},
			[3]string{"ask", "ask", "ask"}, ""},
	})
}
