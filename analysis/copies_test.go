package analysis_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// fakeTrees lists the directories of a map: canonical directory → the
// paths below it.
type fakeTrees map[string][]string

func (f fakeTrees) List(dir string, max int) ([]string, error) {
	list, ok := f[dir]
	if !ok {
		return nil, analysis.ErrNotExist
	}
	if len(list) > max {
		return list[:max], analysis.ErrTooLarge
	}
	return list, nil
}

// writesOf analyses command with trees and returns the writes reported.
func writesOf(t *testing.T, command string, trees analysis.Trees) ([]string, analysis.Findings) {
	t.Helper()
	set, err := rules.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	var found analysis.Findings
	a := analysis.New(analysis.Context{Home: home, Cwd: ws, Workspace: ws, Rules: set, Budget: shell.NewBudget(0),
		Findings: &found, Trees: trees}, rec)
	s := a.Parse(command)
	if s == nil {
		t.Fatalf("%q did not parse", command)
	}
	a.Script(s)
	var out []string
	for _, l := range rec.lines {
		if strings.HasPrefix(l, "path ") && strings.Contains(l, " write ") {
			out = append(out, l)
		}
	}
	return out, found
}

// TestCopyDestinations checks the paths a copy, move, install or link
// writes: DEST/basename(SOURCE) whenever DEST may be a directory, and
// every path of a source tree copied whole.
func TestCopyDestinations(t *testing.T) {
	trees := fakeTrees{
		ws + "/evil/.claude": {"settings.local.json"},
		ws + "/evil":         {".claude", ".claude/settings.local.json", "x.txt"},
	}
	for _, c := range []struct {
		cmd  string
		want []string
	}{
		{"cp evil/settings.local.json .claude/", []string{
			"path file write .claude/",
			"path file write .claude/settings.local.json",
		}},
		{"cp evil/settings.local.json .claude", []string{
			"path file write .claude",
			"path file write .claude/settings.local.json",
		}},
		{"cp -T evil/settings.local.json .claude", []string{"path file write .claude"}},
		{"cp -t .claude a/settings.local.json b/x", []string{
			"path file write .claude",
			"path file write .claude/settings.local.json",
			"path file write .claude/x",
		}},
		{"cp --target=.claude a/settings.local.json", []string{
			"path file write .claude",
			"path file write .claude/settings.local.json",
		}},
		{"mv evil/settings.local.json .claude/", []string{
			"path file write .claude/ removes",
			"path tree write .claude/",
			"path file write .claude/settings.local.json",
			"path tree write .claude/settings.local.json",
		}},
		{"install -m 0644 evil/settings.local.json .claude/", []string{
			"path file write .claude/",
			"path file write .claude/settings.local.json",
		}},
		{"install -d .claude", []string{"path file write .claude"}},
		{"ln -s ../shared/settings.json", []string{
			"path file write ../shared/settings.json",
			"path file write settings.json",
			"path tree write settings.json",
		}},
		{"cd .claude && cp ../evil/settings.local.json .", []string{
			"path file write . dir=/home/ada/project/.claude",
			"path file write settings.local.json dir=/home/ada/project/.claude",
		}},
		{"cp -r evil/.claude .", []string{
			"path file write .",
			"path tree write .",
			"path file write .claude",
			"path tree write .claude",
			"path file write .claude/settings.local.json",
		}},
		{"cp -a evil/. .", []string{
			"path file write .",
			"path tree write .",
			"path file write .claude",
			"path file write .claude/settings.local.json",
		}},
		{"rsync -a evil/ ./", []string{
			"path file write ./",
			"path tree write ./",
			"path file write .claude",
			"path file write .claude/settings.local.json",
		}},
		{"rsync -a evil/ host:/srv/", nil},
		{`cp "$F" .claude/`, []string{
			"path file write .claude/",
			"path glob write .claude/*",
		}},
	} {
		got, _ := writesOf(t, c.cmd, trees)
		if d := cmp.Diff(c.want, got); d != "" {
			t.Errorf("%s: writes (-want +got):\n%s", c.cmd, d)
		}
	}
}

// TestCopyTreeTooLarge: a source tree that would write more configuration
// files than are judged is unverifiable, never judged by the part listed.
func TestCopyTreeTooLarge(t *testing.T) {
	many := make([]string, 600)
	for i := range many {
		many[i] = fmt.Sprintf(".cfg/f%d", i)
	}
	_, found := writesOf(t, "cp -r big out", fakeTrees{ws + "/big": many})
	if got := rulesOf(found); !cmp.Equal(got, []string{"shell.unverifiable"}) {
		t.Errorf("findings %v, want [shell.unverifiable]", got)
	}
}

// TestCopyFromInput: xargs decides where a copy writes at run time: a
// destination it fills in is unverifiable, unless the input is echo's one
// known line; sources it appends to cp -t DIR may land as any name in DIR.
func TestCopyFromInput(t *testing.T) {
	_, found := writesOf(t, "cat dirs.txt | xargs -I{} cp evil/settings.local.json {}/", nil)
	if got := rulesOf(found); !cmp.Equal(got, []string{"shell.unknown-path", "shell.unverifiable"}) {
		t.Errorf("xargs -I{} destination: findings %v, want [shell.unknown-path shell.unverifiable]", got)
	}
	got, found := writesOf(t, "echo .claude | xargs -I{} cp evil/settings.local.json {}/", nil)
	if !slices.Contains(got, "path file write .claude/settings.local.json") || len(found) != 0 {
		t.Errorf("echo .claude | xargs -I{} cp …: writes %v, findings %v", got, rulesOf(found))
	}
	got, found = writesOf(t, "cat list.txt | xargs cp -t docs/", nil)
	if !slices.Contains(got, "path glob write docs/*") || len(found) != 0 {
		t.Errorf("xargs cp -t docs/: writes %v, findings %v", got, rulesOf(found))
	}
	got, _ = writesOf(t, "find . -name '*.md' | xargs cp -t docs/", nil)
	if !slices.Contains(got, "path glob write docs/*.md") {
		t.Errorf("find | xargs cp -t docs/: writes %v", got)
	}
}
