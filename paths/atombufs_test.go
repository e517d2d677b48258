package paths

import (
	"slices"
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
