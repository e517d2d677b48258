package buildfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// execFiles is a fakeFiles whose files are executable unless listed in
// plain.
type execFiles struct {
	fakeFiles
	plain map[string]bool
}

func (e execFiles) Executable(p string) (bool, error) {
	if _, ok := e.fakeFiles[p]; ok {
		return !e.plain[p], nil
	}
	for k := range e.fakeFiles {
		if strings.HasPrefix(k, p+"/") {
			return false, nil // a directory
		}
	}
	return false, ErrNotExist
}

const evilHook = "#!/bin/sh\nrm -rf \"$HOME\"\n"

func hook(file, text string, lang Lang) Step {
	return Step{File: file, Text: text, Lang: lang, Dir: w}
}

func TestGitHooks(t *testing.T) {
	repo := fakeFiles{"/w/.git/config": "[core]\n\tbare = false\n"}
	with := func(extra fakeFiles) fakeFiles {
		out := fakeFiles{}
		for k, v := range repo {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name     string
		cmd      string
		files    fakeFiles
		plain    []string
		steps    []Step
		problems []Problem
	}{
		{name: "commit runs .git/hooks/pre-commit", cmd: "git commit -m x",
			files: with(fakeFiles{"/w/.git/hooks/pre-commit": evilHook}),
			steps: []Step{hook("/w/.git/hooks/pre-commit", evilHook, Shell)}},
		{name: "a repository without config still runs its hooks (git needs HEAD, not config)", cmd: "git commit -m x",
			files: fakeFiles{"/w/.git/HEAD": "ref: refs/heads/main\n", "/w/.git/hooks/pre-commit": evilHook},
			steps: []Step{hook("/w/.git/hooks/pre-commit", evilHook, Shell)}},
		{name: "a .git directory with neither HEAD nor config is judged when no whole repository is above", cmd: "git commit -m x",
			files: fakeFiles{"/w/.git/hooks/pre-commit": evilHook},
			steps: []Step{hook("/w/.git/hooks/pre-commit", evilHook, Shell)}},
		{name: "a whole repository above a .git directory without HEAD is git's", cmd: "git commit -m x",
			files: fakeFiles{"/w/.git/hooks/pre-commit": evilHook, "/.git/HEAD": "ref: refs/heads/main\n", "/.git/hooks/pre-commit": "true\n"},
			steps: []Step{{File: "/.git/hooks/pre-commit", Text: "true\n", Lang: Shell, Dir: "/"}}},
		{name: "--no-verify skips pre-commit, not prepare-commit-msg", cmd: "git commit --no-verify -m x",
			files: with(fakeFiles{"/w/.git/hooks/pre-commit": evilHook, "/w/.git/hooks/prepare-commit-msg": "echo hi\n"}),
			steps: []Step{hook("/w/.git/hooks/prepare-commit-msg", "echo hi\n", Shell)}},
		{name: "commit -n is --no-verify; --verify undoes it", cmd: "git commit -n --verify",
			files: with(fakeFiles{"/w/.git/hooks/commit-msg": "true\n"}),
			steps: []Step{hook("/w/.git/hooks/commit-msg", "true\n", Shell)}},
		{name: "-m --no-verify is a message: the hook runs", cmd: "git commit -m --no-verify",
			files: with(fakeFiles{"/w/.git/hooks/pre-commit": evilHook}),
			steps: []Step{hook("/w/.git/hooks/pre-commit", evilHook, Shell)}},
		{name: "-am takes the next word too", cmd: "git commit -am --no-verify",
			files: with(fakeFiles{"/w/.git/hooks/pre-commit": evilHook}),
			steps: []Step{hook("/w/.git/hooks/pre-commit", evilHook, Shell)}},
		{name: "--no-verify -m --verify: the message is --verify, the hook is skipped", cmd: "git commit --no-verify -m --verify",
			files: with(fakeFiles{"/w/.git/hooks/pre-commit": evilHook})},
		{name: "-S --amend: -S takes no separate value", cmd: "git commit -S --amend",
			files: with(fakeFiles{"/w/.git/hooks/post-rewrite": "echo rw\n"}),
			steps: []Step{hook("/w/.git/hooks/post-rewrite", "echo rw\n", Shell)}},
		{name: "a hook that is not executable runs nothing", cmd: "git commit -m x",
			files: with(fakeFiles{"/w/.git/hooks/pre-commit": evilHook}), plain: []string{"/w/.git/hooks/pre-commit"}},
		{name: "core.hooksPath in the repository's config, relative to the top", cmd: "git -C sub push",
			files: fakeFiles{"/w/.git/config": "[core]\n\thooksPath = .husky\n", "/w/.husky/pre-push": "go test ./...\n", "/w/.git/hooks/pre-push": evilHook},
			steps: []Step{hook("/w/.husky/pre-push", "go test ./...\n", Shell)}},
		{name: "-c core.hooksPath wins over the config", cmd: "git -c core.hooksPath=/h push",
			files: with(fakeFiles{"/w/.git/config": "[core]\n\thooksPath = .husky\n", "/h/pre-push": "#!/usr/bin/env python3\nprint(1)\n"}),
			steps: []Step{hook("/h/pre-push", "#!/usr/bin/env python3\nprint(1)\n", Python)}},
		{name: "the global config's hooksPath, under ~", cmd: "git commit",
			files: with(fakeFiles{"/home/u/.gitconfig": "[core]\n\thooksPath = ~/hooks\n", "/home/u/hooks/post-commit": "echo done\n"}),
			steps: []Step{hook("/home/u/hooks/post-commit", "echo done\n", Shell)}},
		{name: "the repository's config wins over the global one", cmd: "git commit",
			files: with(fakeFiles{"/home/u/.gitconfig": "[core]\n\thooksPath = ~/hooks\n", "/w/.git/config": "[core]\n\thooksPath = \"\"\n", "/home/u/hooks/post-commit": evilHook}),
		},
		{name: "a worktree's .git file and commondir", cmd: "git checkout main",
			files: fakeFiles{"/w/.git": "gitdir: /r/.git/worktrees/w\n", "/r/.git/worktrees/w/commondir": "../..\n", "/r/.git/config": "[core]\n", "/r/.git/hooks/post-checkout": "echo co\n"},
			steps: []Step{hook("/r/.git/hooks/post-checkout", "echo co\n", Shell)}},
		{name: "husky v9's stub runs .husky/NAME by sh", cmd: "git commit",
			files: with(fakeFiles{"/w/.git/config": "[core]\n\thooksPath = .husky/_\n", "/w/.husky/_/pre-commit": "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n", "/w/.husky/pre-commit": "npx lint-staged\n"}),
			steps: []Step{hook("/w/.husky/pre-commit", "npx lint-staged\n", Shell)}},
		{name: "an include sets hooksPath", cmd: "git push",
			files: with(fakeFiles{"/w/.git/config": "[include]\n\tpath = ../git.inc\n", "/w/git.inc": "[core]\nhooksPath=/h\n", "/h/pre-push": "true\n"}),
			steps: []Step{hook("/h/pre-push", "true\n", Shell)}},
		{name: "an includeIf that sets hooksPath cannot be known", cmd: "git push",
			files:    with(fakeFiles{"/w/.git/config": "[includeIf \"onbranch:main\"]\n\tpath = ../git.inc\n", "/w/git.inc": "[core]\nhooksPath=/h\n"}),
			problems: []Problem{{File: "/w/git.inc", Reason: "it sets core.hookspath under a condition (includeif.onbranch:main.path)"}}},
		{name: "a config git would refuse", cmd: "git commit",
			files:    fakeFiles{"/w/.git/config": "[core\n"},
			problems: []Problem{{File: "/w/.git/config", Reason: "bad config line 1: expected ]"}}},
		{name: "an unreadable hook", cmd: "git push",
			files:    with(fakeFiles{"/w/.git/hooks/pre-push": "\x00"}),
			problems: []Problem{{File: "/w/.git/hooks/pre-push", Reason: "permission denied"}}},
		{name: "--config-env hides the hooks path", cmd: "git --config-env=core.hooksPath=H commit",
			files:    repo,
			problems: []Problem{{File: "core.hooksPath", Reason: "it is set from an environment variable (--config-env)"}}},
		{name: "commit --amend runs post-rewrite; plain commit does not", cmd: "git commit --amend --no-edit",
			files: with(fakeFiles{"/w/.git/hooks/post-rewrite": "echo rw\n"}),
			steps: []Step{hook("/w/.git/hooks/post-rewrite", "echo rw\n", Shell)}},
		{name: "gc runs pre-auto-gc only with --auto", cmd: "git gc",
			files: with(fakeFiles{"/w/.git/hooks/pre-auto-gc": evilHook})},
		{name: "clone -n runs no post-checkout", cmd: "git -c core.hooksPath=/h clone -n https://x.example/r",
			files: fakeFiles{"/h/post-checkout": evilHook}},
		{name: "git hook run NAME", cmd: "git hook run --ignore-missing pre-commit",
			files: with(fakeFiles{"/w/.git/hooks/pre-commit": "echo x\n"}),
			steps: []Step{hook("/w/.git/hooks/pre-commit", "echo x\n", Shell)}},
		{name: "clone reads no enclosing repository's config", cmd: "git clone https://x.example/r",
			files: with(fakeFiles{"/w/.git/config": "[core]\n\thooksPath = /h\n", "/h/post-checkout": evilHook})},
		{name: "clone with the global hooksPath", cmd: "git clone https://x.example/r",
			files: fakeFiles{"/home/u/.config/git/config": "[core]\nhooksPath=/h\n", "/h/post-checkout": "echo co\n"},
			steps: []Step{hook("/h/post-checkout", "echo co\n", Shell)}},
		{name: "status runs no hook and reads nothing", cmd: "git status",
			files: with(fakeFiles{"/w/.git/hooks/pre-commit": evilHook})},
		{name: "GIT_DIR set for a commit: the repository is not the one read", cmd: "GIT_DIR=/x git commit",
			files:    with(fakeFiles{"/w/.git/hooks/pre-commit": evilHook}),
			problems: []Problem{{File: "GIT_DIR", Reason: "it is set for the command and chooses git's repository or config"}}},
		{name: "GIT_DIR set for a status: no hook, nothing read", cmd: "GIT_DIR=/x git status", files: repo},
		{name: "GIT_EDITOR does not move the hooks", cmd: "GIT_EDITOR=true git commit",
			files: with(fakeFiles{"/w/.git/hooks/pre-commit": "true\n"}),
			steps: []Step{hook("/w/.git/hooks/pre-commit", "true\n", Shell)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plain := map[string]bool{}
			for _, p := range tc.plain {
				plain[p] = true
			}
			f := strings.Fields(tc.cmd)
			var env []string
			for len(f) > 0 && strings.Contains(f[0], "=") {
				name, _, _ := strings.Cut(f[0], "=")
				env, f = append(env, name), f[1:]
			}
			got := Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w, Home: "/home/u", Env: env}, execFiles{tc.files, plain})
			if diff := cmp.Diff(tc.steps, got.Steps, cmpopts.IgnoreFields(Step{}, "Args")); diff != "" { // TestGitHookArgs
				t.Errorf("steps (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.problems, got.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseGitConfig(t *testing.T) {
	tests := []struct {
		text string
		want []gitEntry
		err  string
	}{
		{text: "[core]\n\thooksPath = .husky # c\n\tbare\n", want: []gitEntry{{"core.hookspath", ".husky"}, {"core.bare", "true"}}},
		{text: "[Remote \"Origin\"]\nURL = \"a b\" c ;x\n", want: []gitEntry{{"remote.Origin.url", "a b c"}}},
		{text: "[core.Sub]\nx = a\\\nb\n", want: []gitEntry{{"core.sub.x", "ab"}}},
		{text: "[a]\nx = \"\\t\\\"q\\\\\"\n", want: []gitEntry{{"a.x", "\t\"q\\"}}},
		{text: "x = 1\n", err: "bad config line 1: a variable outside any section"},
		{text: "[a]\nx = \"open\n", err: "bad config line 2: unterminated quote"},
		{text: "[a]\nx = \\q\n", err: "bad config line 2: bad escape \\q"},
	}
	for _, tc := range tests {
		got, err := parseGitConfig(tc.text)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.text, diff)
		}
	}
}

func FuzzGitConfig(f *testing.F) {
	f.Add("[core]\n\thooksPath = .husky\n[include]\npath = x\n", "commit -m x")
	f.Add("[remote \"o\\\"x\"]\n url = \"a;b\" # c\\\n", "-c core.hooksPath=h push")
	f.Add("[includeIf \"gitdir:~/w/\"]\npath=~/inc\n", "-C sub --no-verify commit -n")
	f.Fuzz(func(t *testing.T, text, args string) {
		entries, err := parseGitConfig(text)
		if err == nil {
			for _, e := range entries {
				if !strings.Contains(e.Key, ".") {
					t.Fatalf("key %q has no section", e.Key)
				}
			}
			if len(entries) > maxGitEntries {
				t.Fatalf("%d entries", len(entries))
			}
		}
		fs := execFiles{fakeFiles{"/w/.git/config": text, "/w/inc": text, "/w/.git/hooks/pre-commit": "echo\n", "/w/.husky/pre-commit": "echo\n"}, nil}
		p := Resolve(Invocation{Name: "git", Args: strings.Fields(args), Dir: w, Home: "/w"}, fs)
		checkPlan(t, p)
		if err != nil && len(p.Steps) > 0 {
			t.Fatalf("a config git refuses gave steps %+v", p.Steps)
		}
	})
}
