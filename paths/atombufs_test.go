package paths

import (
	"slices"
	"strings"
	"testing"
)

// TestLiteralComponentsInUsedAtoms checks that components made in a used
// array of atoms (what atomBufs gives back: every bit set by an earlier
// path) are those made in a fresh one, and that CheckGlob and CheckTree
// answer the same after a longer directory left its atoms in the pool.
func TestLiteralComponentsInUsedAtoms(t *testing.T) {
	dirs := []string{"/", "/a", "/home/dev/project", "/home/dev/project/./x/", "//srv//data/", "/tmp/a-very-long-directory-name/with/several/levels/below/it"}
	for _, d := range dirs {
		used := make([]atom, len(d))
		for i := range used {
			used[i] = atom{star: true, set: byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}}
		}
		got, want := literalComponentsIn(d, 2, used), literalComponents(d, 2)
		if !slices.EqualFunc(got, want, componentEqual) || cap(got) != cap(want) {
			t.Errorf("literalComponentsIn(%q) in used atoms = %+v, want %+v", d, got, want)
		}
	}
}

func componentEqual(a, b component) bool {
	return slices.Equal(a.atoms, b.atoms) && a.deep == b.deep && a.hidesDot == b.hidesDot && a.lit == b.lit
}

// TestGlobChecksAfterLongerDirectory judges globs and trees in short
// directories right after one in a long directory, and again after the
// pool was emptied: the findings must not depend on what the pool held.
func TestGlobChecksAfterLongerDirectory(t *testing.T) {
	c, err := Compile(Config{Home: "/home/dev", Denied: DefaultDenied(), Sensitive: DefaultSensitive(),
		SensitiveWrite: DefaultSensitiveWrite(), Protected: DefaultProtected(), WorkspaceOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	env := Env{Cwd: "/home/dev/project", Workspace: "/home/dev/project"}
	found := 0
	long := Path{Literal: "/home/dev/project/a/really/long/directory/that/fills/the/atoms", Resolved: "/home/dev/project/a/really/long/directory/that/fills/the/atoms"}
	cases := []struct {
		dir  Path
		rest string
	}{
		{Path{Literal: "/home/dev", Resolved: "/home/dev"}, ".ssh/id_*"},
		{Path{Literal: "/home/dev/project", Resolved: "/home/dev/project"}, "*.env"},
		{Path{Literal: "/etc", Resolved: "/etc"}, "*"},
		{Path{Literal: "/", Resolved: "/"}, "*"},
	}
	for _, tc := range cases {
		for _, a := range []Access{Read, Write} {
			fresh := c.CheckGlob(tc.dir, tc.rest, a, env)
			freshTree := c.CheckTree(tc.dir, a, env)
			found += len(fresh) + len(freshTree)
			c.CheckGlob(long, "*", a, env)
			c.CheckTree(long, a, env)
			if got := c.CheckGlob(tc.dir, tc.rest, a, env); !slices.Equal(got, fresh) {
				t.Errorf("CheckGlob(%s, %q, %v) after a long directory = %v, want %v", tc.dir.Resolved, tc.rest, a, got, fresh)
			}
			if got := c.CheckTree(tc.dir, a, env); !slices.Equal(got, freshTree) {
				t.Errorf("CheckTree(%s, %v) after a long directory = %v, want %v", tc.dir.Resolved, a, got, freshTree)
			}
		}
	}
	if found == 0 {
		t.Error("no case found anything: the comparison checks nothing")
	}
}

// refAnyLiteralRun is anyLiteralRun as it was before it built its runs in
// the frame: a string a run, and f asked of each.
func refAnyLiteralRun(c component, f func(run string) bool) bool {
	var run []byte
	check := func() bool {
		ok := len(run) >= 2 && f(string(run))
		run = run[:0]
		return ok
	}
	for _, a := range c.atoms {
		if a.star || setSize(a.set) != 1 {
			if check() {
				return true
			}
			continue
		}
		run = append(run, a.set.first())
	}
	return check()
}

// TestLiteralRunsMatchReference compares literalRuns' sharedWith and
// extensionOnly
// with the closures they had, over globs with runs shorter and longer than
// the frame's 32 bytes and patterns that share them, in and out of their
// extension.
func TestLiteralRunsMatchReference(t *testing.T) {
	long := "a-name-far-longer-than-thirty-two-bytes-of-literal"
	globs := []string{"*.json", "kilo*", "*o.json", ".env*", "*.pem", "*", "id_*", "[ab]c*.golden", "x?yz*.tar.gz",
		long + "*", "*" + long, "pre-" + long + ".json*", "a*b*c", "??", "*.golden"}
	patterns := []string{"**/kilo.json", "**/.claude/settings.json", "**/.env", "**/*.pem", "~/.ssh/id_rsa",
		"**/" + long + ".json", "**/" + long, "**/x.tar.gz", "**/testdata/a.golden", "**/abc", "**/.git"}
	found := [2]int{}
	for _, g := range globs {
		c := parseGlob(g, true)[0]
		for _, p := range patterns {
			name := p[strings.LastIndexByte(p, '/')+1:]
			if got, want := runsOf(c).sharedWith(p), refAnyLiteralRun(c, func(run string) bool { return strings.Contains(name, run) }); got != want {
				t.Errorf("sharedWith(%q, %q) = %v, want %v", g, p, got, want)
			} else if got {
				found[0]++
			}
			want := false
			if dot := strings.LastIndexByte(name, '.'); dot > 0 && !strings.ContainsAny(name, "*?[{") {
				ext := name[dot:]
				want = !refAnyLiteralRun(c, func(run string) bool { return strings.Contains(name, run) && !strings.Contains(ext, run) })
			}
			if got := runsOf(c).extensionOnly(p); got != want {
				t.Errorf("extensionOnly(%q, %q) = %v, want %v", g, p, got, want)
			} else if got {
				found[1]++
			}
		}
	}
	if found[0] == 0 || found[1] == 0 {
		t.Errorf("no case shares a literal or lies in an extension (%v): the comparison checks nothing", found)
	}
}

// TestJudgeRunsOfFollowsComponent: the judge's runs are those of the
// component asked about, asked in turn, one a prefix of another's atoms,
// and one with no atoms.
func TestJudgeRunsOfFollowsComponent(t *testing.T) {
	whole := parseGlob("ab*cd?efg[hi]jk", true)[0]
	prefix := component{atoms: whole.atoms[:4]} // "ab*c": the same first atom
	other := parseGlob("*.golden", true)[0]
	var j judge
	for _, c := range []component{whole, prefix, other, {}, whole, other, prefix} {
		if got, want := j.runsOf(c), runsOf(c); !slices.Equal(got, want) {
			t.Errorf("judge's runs of %d atoms = %q, want %q", len(c.atoms), got, want)
		}
	}
	if got, want := runsOf(whole), (literalRuns{"ab", "cd", "efg", "jk"}); !slices.Equal(got, want) {
		t.Errorf("runsOf(ab*cd?efg[hi]jk) = %q, want %q", got, want)
	}
}
