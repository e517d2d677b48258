package paths

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWalkFromKernelPrefix: once the kernel resolved a directory in a
// call, a walk of a path below it starts there (nothing above it is
// lstat-ed), and a deep path whose walk asks about at most walkNewNames
// new names is walked, not resolved by the kernel: a script's first path
// (./build.sh) costs the kernel's three system calls, its workspace and
// every ./bin/toolN after it an lstat of a new name or nothing. Every
// answer is resolve's without the call's lookups.
func TestWalkFromKernelPrefix(t *testing.T) {
	f := newFixture(t)
	deep := f.ws + "/src/a/b/c/d/e"
	must(t, os.MkdirAll(deep, 0o755))
	must(t, os.WriteFile(deep+"/x.go", nil, 0o644))
	must(t, os.Symlink(f.root+"/outside", deep+"/out"))
	if _, ok := kernelResolve(deep); !ok {
		t.Skip("the kernel fast path is not available here")
	}
	if strings.Count(deep, "/") <= walkFirstDepth {
		t.Skipf("%s is not deeper than walkFirstDepth %d", deep, walkFirstDepth)
	}
	l := &Lookups{}
	asked := []string{
		deep + "/x.go",            // the kernel resolves deep, lstat x.go
		deep,                      // deep itself: the kernel's answer
		deep + "/bin/tool1",       // two new names: walked from deep
		deep + "/bin/tool2",       // bin is missing: nothing asked
		deep + "/./cmd/",          // "." before the last name: the kernel's way
		deep + "/out/data.txt",    // a link below deep: followed by the walk
		deep + "/../e/x.go",       // "..": the kernel's way
		deep + "/missing/../x.go", // ".." after a missing name
	}
	var got, want []string
	for i, p := range asked {
		if i == 5 { // before the first link, whose absolute target a walk follows from "/"
			for _, q := range append(slices.Clone(l.links.keys[:l.links.n]), mapKeys(l.links.m)...) {
				if strings.HasPrefix(deep, q+"/") {
					t.Errorf("%s, above the directory the kernel resolved, was lstat-ed", q)
				}
			}
		}
		r, err := l.resolve(p)
		got = append(got, r+" "+errText(err))
		r, err = resolve(p)
		want = append(want, r+" "+errText(err))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resolve with the call's lookups (-without +with):\n%s", diff)
	}
	var kernel []string
	for p := range l.kernel {
		kernel = append(kernel, p)
	}
	slices.Sort(kernel)
	wantKernel := []string{deep, deep + "/../e", deep + "/./cmd/", deep + "/missing/.."} // the directories of the last two
	slices.Sort(wantKernel)
	if diff := cmp.Diff(wantKernel, kernel); diff != "" {
		t.Errorf("paths the kernel was asked to resolve (-want +got):\n%s", diff)
	}
}

// TestResolveWithKernelPrefixesAgrees: through one call's lookups, in
// either order, every path of one to three names of a layout with links,
// dangling and looping links, a file, an unsearchable directory, ".",
// ".." and "" resolves as resolve without lookups does, whichever
// directories the kernel resolved before.
func TestResolveWithKernelPrefixesAgrees(t *testing.T) {
	dir, names := kernelLayout(t)
	all := layoutPaths(dir, names)
	for _, order := range [][]string{all, reversed(all)} {
		l := &Lookups{}
		for _, p := range order {
			for _, q := range []string{p, p + "/deeper/name"} {
				_, _ = l.kernelResolve(q[:strings.LastIndexByte(q, '/')])
				gotR, gotErr := l.resolve(q)
				wantR, wantErr := resolve(q)
				if gotR != wantR || errText(gotErr) != errText(wantErr) {
					t.Fatalf("%s: with lookups %q %v, without %q %v", q, gotR, gotErr, wantR, wantErr)
				}
			}
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func mapKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
