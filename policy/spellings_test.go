package policy_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// TestSameEffectSameVerdict: spellings of one effect get one verdict in
// supervised, trusted and full. Each group lists the spellings and the
// verdicts every one of them must get, decided from the effect.
func TestSameEffectSameVerdict(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	modes := []string{policy.ModeSupervised, policy.ModeTrusted, policy.ModeFull}
	ps := make([]*policy.Policy, len(modes))
	for i, m := range modes {
		ps[i] = compileAt(t, m, home)
	}
	groups := []struct {
		effect    string
		want      [3]string
		spellings []string
	}{
		{"git's pager is cat: the diff is printed, as git diff | cat prints it", [3]string{"allow", "allow", "allow"}, []string{
			"PAGER=cat git diff",
			"GIT_PAGER=cat git diff",
			"git -c core.pager=cat diff",
		}},
		{"git's editor is true: the message is kept", [3]string{"ask", "allow", "allow"}, []string{
			"EDITOR=true git commit --amend",
			"GIT_EDITOR=true git commit --amend",
			"VISUAL=true git commit --amend",
			"git -c core.editor=true commit --amend",
		}},
		{"a pager or editor that is not known before the call: code as sh -c \"$X\" runs it", [3]string{"ask", "ask", "ask"}, []string{
			`bash -c "$X"`,
			`PAGER="$X" git log`,
			`GIT_PAGER="$X" git log`,
			`MANPAGER="$X" man ls`,
			`GIT_EDITOR="$(cat editor.txt)" git commit`,
			`git -c core.pager="$X" log`,
			`git -c "core.editor=$X" commit`,
		}},
		{"every file of the project readable, writable and runnable by every user", [3]string{"deny", "deny", "deny"}, []string{
			"chmod -R 777 .",
			"chmod 777 -R .",
			"chmod -R 0777 .",
			"chmod -R a+rwx .",
			"chmod -R ugo=rwx .",
			"chmod --recursive u=rwx,g=rwx,o=rwx .",
		}},
		{"a display setting not known before the call: nothing runs it", [3]string{"ask", "allow", "allow"}, []string{
			`git -c color.ui="$X" log`,
		}},
		{"a pager that runs the program's output as code: text from the repository, not known before the call", [3]string{"ask", "ask", "ask"}, []string{
			"git log | sh",
			"PAGER=sh git log",
			"GIT_PAGER=bash git log -p",
			"PAGER='python3' git log",
			"git -c core.pager=sh log",
			"MANPAGER=sh man ls",
		}},
		{"a pager that only shows the output", [3]string{"allow", "allow", "allow"}, []string{
			"git log | less -R",
			"PAGER=less git log",
			"GIT_PAGER='less -R' git log -p",
			"git -c core.pager='less -R' log",
		}},
		{"the project's compiled Python files deleted, at any depth", [3]string{"ask", "allow", "allow"}, []string{
			"find . -name '*.pyc' -delete",
			"find . -name '*.pyc' -exec rm {} +",
			"find . -name '*.pyc' -exec rm -f {} \\;",
			"find . -type f -name '*.pyc' -delete",
		}},
		{"every file of the project deleted", [3]string{"deny", "deny", "deny"}, []string{
			"find . -delete",
			"find . -name '*' -delete",
			"find . -name '*' -exec rm {} +",
			"find . -exec rm -rf {} +",
		}},
		{"some files of the project, which the expression does not name, deleted", [3]string{"ask", "ask", "ask"}, []string{
			"find . ! -name x -delete",
			"find . ! -name x -exec rm {} +",
			"find src -name x -o -delete",
			"find src -name x -o -exec rm {} +",
		}},
		{"the repository's pack files deleted: its history, sensitive to change", [3]string{"ask", "ask", "ask"}, []string{
			"find .git -name '*.pack' -delete",
			"find .git -name '*.pack' -exec rm {} +",
			"find .git -name '*.pack' -exec rm -f {} \\;",
			"find .git -name '*.pack' | xargs rm",
			"rm -f .git/objects/pack/*.pack",
		}},
		{"a stale lock file of git's removed", [3]string{"ask", "allow", "allow"}, []string{
			"rm -f .git/index.lock",
			"find .git -name '*.lock' -delete",
			"find .git -name index.lock -exec rm -f {} +",
		}},
		{"files outside the workspace that an expression selects, deleted", [3]string{"deny", "deny", "ask"}, []string{
			"find /opt/app/cache -newer /opt/app/stamp -delete",
			"find /opt/app/cache -newer /opt/app/stamp -exec rm {} +",
			"find /opt/app/cache -newer /opt/app/stamp -exec rm -f {} \\;",
			"find /opt/app/cache -name '*.o' -delete",
			"find /opt/app/cache -name '*.o' -exec rm {} +",
		}},
		{"every file of the project's sources deleted, as rm -rf src deletes them", [3]string{"ask", "ask", "allow"}, []string{
			"find src -type f -delete",
			"find src -type f -exec rm {} +",
			"find src -type f -exec rm -f {} \\;",
			"find src -type f | xargs rm",
			"find src -type f -print0 | xargs -0 rm -f",
		}},
		{"every file of the build output deleted, as rm -rf dist deletes them", [3]string{"ask", "allow", "allow"}, []string{
			"rm -rf dist",
			"find dist -delete",
			"find dist -type f -delete",
			"find dist -type f -exec rm {} +",
		}},
		{"the GitHub CLI's token file read through a listing", [3]string{"deny", "deny", "deny"}, []string{
			"find ~ -name hosts.yml | xargs cat",
			"xargs cat < <(find ~ -name hosts.yml)",
			"find ~ -name hosts.yml > l; xargs cat < l",
			"find ~ -name hosts.yml > l && xargs -a l cat",
			`find ~ -name hosts.yml > l; while read f; do cat "$f"; done < l`,
		}},
		{"the installed packages listed", [3]string{"allow", "allow", "allow"}, []string{
			"pip list",
			"python -m pip list",
			"python3 -m pip list",
			"python3 -I -m pip list --format=freeze",
		}},
		{"a project JSON file pretty-printed", [3]string{"allow", "allow", "allow"}, []string{
			"jq . data.json",
			"python3 -m json.tool data.json",
			"python -m json.tool --sort-keys data.json",
		}},
		{"a package installed", [3]string{"ask", "ask", "ask"}, []string{
			"pip install requests",
			"python -m pip install requests",
		}},
		{"a pager that deletes the home directory", [3]string{"deny", "deny", "deny"}, []string{
			`PAGER='sh -c "rm -rf ~"' git log`,
			`GIT_PAGER='sh -c "rm -rf ~"' git log`,
			`git -c core.pager='sh -c "rm -rf ~"' log`,
		}},
	}
	for _, g := range groups {
		for _, cmd := range g.spellings {
			var got [3]string
			for i, p := range ps {
				d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: cmd, Cwd: ws, Workspace: ws})
				got[i] = d.Verdict.String()
			}
			if diff := cmp.Diff(g.want, got); diff != "" {
				t.Errorf("%s: %s (-want +got):\n%s", g.effect, cmd, diff)
			}
		}
	}
}
