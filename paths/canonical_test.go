package paths

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCanonicalizeLexical(t *testing.T) {
	// /w and /h do not exist, so the resolved form equals the literal one.
	env := Env{Cwd: "/w"}
	tests := []struct {
		in   string
		env  Env
		want string
	}{
		{"a/b", env, "/w/a/b"},
		{"./a/../b", env, "/w/b"},
		{"~", env, "/h"},
		{"~/x", env, "/h/x"},
		{"$HOME/x", env, "/h/x"},
		{"${HOME}/x/../y", env, "/h/y"},
		{"$HOME", env, "/h"},
		{"/a//b/./c/", env, "/a/b/c"},
		{"../../..", env, "/"},
		{"/..", env, "/"},
		{"my..file.txt", env, "/w/my..file.txt"},
		{"100%25.txt", env, "/w/100%25.txt"},
		{"a%2eb", env, "/w/a%2eb"},
		{`a\b`, env, `/w/a\b`},
		{"price$", env, "/w/price$"},
		{"x/~y", env, "/w/x/~y"},
		{"a", Env{Workspace: "/ws"}, "/ws/a"},
		{"a", Env{Cwd: "/c", Workspace: "/ws"}, "/c/a"},
		{"/abs", Env{}, "/abs"},
	}
	for _, tt := range tests {
		got, err := Canonicalize(tt.in, tt.env, "/h")
		if err != nil {
			t.Errorf("Canonicalize(%q) error: %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(Path{Literal: tt.want, Resolved: tt.want}, got); diff != "" {
			t.Errorf("Canonicalize(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestCanonicalizeRefuses(t *testing.T) {
	tests := []struct {
		in, home string
		env      Env
		kind     error
		problem  string
	}{
		{"", "/h", Env{Cwd: "/w"}, ErrInvalid, "is empty"},
		{"a\x00b", "/h", Env{Cwd: "/w"}, ErrInvalid, "contains a NUL byte"},
		{"a\xffb", "/h", Env{Cwd: "/w"}, ErrInvalid, "is not valid UTF-8"},
		{"/" + strings.Repeat("a", maxPathLen), "/h", Env{}, ErrInvalid, "is 4097 bytes long, over the 4096-byte limit"},
		{"~root/.ssh/id_rsa", "/h", Env{Cwd: "/w"}, ErrInvalid, "uses the ~user form; only ~ (your own home) is accepted"},
		{"~nobody", "/h", Env{Cwd: "/w"}, ErrInvalid, "uses the ~user form; only ~ (your own home) is accepted"},
		{"~+/x", "/h", Env{Cwd: "/w"}, ErrInvalid, "uses the ~user form; only ~ (your own home) is accepted"},
		{"..%2fetc%2fpasswd", "/h", Env{Cwd: "/w"}, ErrInvalid, encodedProblem},
		{"%2e%2e/etc/passwd", "/h", Env{Cwd: "/w"}, ErrInvalid, encodedProblem},
		{"subdir%2f..%2f..%2fetc", "/h", Env{Cwd: "/w"}, ErrInvalid, encodedProblem},
		{"a%252fb", "/h", Env{Cwd: "/w"}, ErrInvalid, encodedProblem},
		{"%2F", "/h", Env{Cwd: "/w"}, ErrInvalid, encodedProblem},
		{"a%5c..%5cb", "/h", Env{Cwd: "/w"}, ErrInvalid, encodedProblem},
		{"a%00", "/h", Env{Cwd: "/w"}, ErrInvalid, encodedProblem},
		{`a\..\b`, "/h", Env{Cwd: "/w"}, ErrInvalid, backslashProblem},
		{`..\x`, "/h", Env{Cwd: "/w"}, ErrInvalid, backslashProblem},
		{`x\..`, "/h", Env{Cwd: "/w"}, ErrInvalid, backslashProblem},
		{"$FOO/x", "/h", Env{Cwd: "/w"}, ErrUnverifiable, dynamicProblem},
		{"${X}", "/h", Env{Cwd: "/w"}, ErrUnverifiable, dynamicProblem},
		{"$(pwd)/x", "/h", Env{Cwd: "/w"}, ErrUnverifiable, dynamicProblem},
		{"`pwd`/x", "/h", Env{Cwd: "/w"}, ErrUnverifiable, dynamicProblem},
		{"~/$1", "/h", Env{Cwd: "/w"}, ErrUnverifiable, dynamicProblem},
		{"$HOMEDIR/x", "/h", Env{Cwd: "/w"}, ErrUnverifiable, dynamicProblem},
		{"~/x", "", Env{Cwd: "/w"}, ErrInvalid, `refers to the home directory, which is not known (home is "")`},
		{"x", "/h", Env{}, ErrInvalid, "is relative and the call names no working directory"},
		{"x", "/h", Env{Cwd: "rel"}, ErrInvalid, `is relative and the working directory "rel" is not absolute`},
	}
	for _, tt := range tests {
		_, err := Canonicalize(tt.in, tt.env, tt.home)
		var pe *PathError
		if !errors.As(err, &pe) || !errors.Is(err, tt.kind) {
			t.Errorf("Canonicalize(%q) = %v, want a %v", tt.in, err, tt.kind)
			continue
		}
		if diff := cmp.Diff(tt.problem, pe.Problem); diff != "" {
			t.Errorf("Canonicalize(%q) problem (-want +got):\n%s", tt.in, diff)
		}
	}
}

const (
	encodedProblem   = `hides a separator or ".." in percent-encoding (%2f, %2e%2e, %252f)`
	backslashProblem = `contains a Windows-style "..\" traversal (a backslash is no separator on Linux, but is for Windows tools)`
	dynamicProblem   = "contains a shell variable or substitution other than $HOME"
)

func TestCanonicalizeSymlinks(t *testing.T) {
	f := newFixture(t)
	env := Env{Cwd: f.ws}
	tests := []struct {
		in   string
		env  Env
		want Path
	}{
		{"src/main.go", env, Path{f.ws + "/src/main.go", f.ws + "/src/main.go"}},
		{"key", env, Path{f.ws + "/key", f.home + "/.ssh/id_rsa"}},
		{"relkey", env, Path{f.ws + "/relkey", f.home + "/.ssh/id_rsa"}},
		{"dangling", env, Path{f.ws + "/dangling", f.home + "/.ssh/new_key"}},
		{"srclink/main.go", env, Path{f.ws + "/srclink/main.go", f.ws + "/src/main.go"}},
		{"outdir/data.txt", env, Path{f.ws + "/outdir/data.txt", f.root + "/outside/data.txt"}},
		// The kernel applies ".." after following outdir; the text does not.
		{"outdir/../secret", env, Path{f.ws + "/secret", f.root + "/secret"}},
		{"src/new/dir/file", env, Path{f.ws + "/src/new/dir/file", f.ws + "/src/new/dir/file"}},
		{"src/main.go/x", env, Path{f.ws + "/src/main.go/x", f.ws + "/src/main.go/x"}},
		{"src/main.go", Env{Cwd: f.root + "/wslink"}, Path{f.root + "/wslink/src/main.go", f.ws + "/src/main.go"}},
		{"/dev/null", env, Path{"/dev/null", "/dev/null"}},
		{"/dev/stdout", env, Path{"/dev/stdout", "/dev/stdout"}},
		{"/dev/fd/1", env, Path{"/dev/fd/1", "/dev/fd/1"}},
	}
	for _, tt := range tests {
		got, err := Canonicalize(tt.in, tt.env, f.home)
		if err != nil {
			t.Errorf("Canonicalize(%q) error: %v", tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Canonicalize(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestCanonicalizeSymlinkLoop(t *testing.T) {
	f := newFixture(t)
	for _, in := range []string{"loop1", "loop2/x", f.ws + "/loop1/../src"} {
		_, err := Canonicalize(in, Env{Cwd: f.ws}, f.home)
		var pe *PathError
		if !errors.As(err, &pe) || !errors.Is(err, ErrInvalid) || pe.Problem != "passes through more than 40 symlinks (a symlink loop?)" {
			t.Errorf("Canonicalize(%q) = %v, want the symlink loop error", in, err)
		}
	}
}

func TestPathErrorMessage(t *testing.T) {
	_, err := Canonicalize("~bob/x", Env{Cwd: "/w"}, "/h")
	want := `invalid path "~bob/x": uses the ~user form; only ~ (your own home) is accepted`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

// TestWalkAgreesWithKernel checks the portable walk against the kernel's own
// resolution on every existing path of the fixture, links included.
func TestWalkAgreesWithKernel(t *testing.T) {
	f := newFixture(t)
	for _, rel := range []string{"", "/key", "/relkey", "/srclink/main.go", "/outdir/data.txt", "/outdir/../shared", "/src/../key", "/./src//main.go"} {
		abs := f.ws + rel
		want, ok := kernelResolve(abs)
		if !ok {
			t.Skip("the kernel fast path is not available here")
		}
		got, err := walk(abs)
		if err != nil || got != want {
			t.Errorf("walk(%q) = %q, %v; the kernel says %q", abs, got, err, want)
		}
	}
	if got, err := walk(f.root + "/wslink/src/main.go"); err != nil || got != f.ws+"/src/main.go" {
		t.Errorf("walk through the linked workspace = %q, %v", got, err)
	}
}

// TestResolveAgreesWithKernelAtEveryDepth checks resolve, which walks
// shallow paths itself and asks the kernel about deep ones
// (walkFirstDepth), against the kernel on paths on both sides of that
// depth, through absolute, relative and directory links.
func TestResolveAgreesWithKernelAtEveryDepth(t *testing.T) {
	f := newFixture(t)
	deep := f.ws + "/src/a/b/c/d/e"
	must(t, os.MkdirAll(deep, 0o755))
	must(t, os.Symlink(f.root+"/outside", deep+"/out"))
	shallow, deepest := 0, 0
	for _, abs := range []string{
		f.root + "/wslink", f.root + "/wslink/key", f.ws + "/relkey", f.ws + "/outdir/data.txt",
		f.ws + "/srclink/main.go", deep, deep + "/out/data.txt", deep + "/../../../../../../key",
	} {
		want, ok := kernelResolve(abs)
		if !ok {
			t.Skip("the kernel fast path is not available here")
		}
		got, err := resolve(abs)
		if err != nil || got != want {
			t.Errorf("resolve(%q) = %q, %v; the kernel says %q", abs, got, err, want)
		}
		if depth := strings.Count(abs, "/"); depth <= walkFirstDepth {
			shallow++
		} else {
			deepest = max(deepest, depth)
		}
	}
	if shallow == 0 || deepest == 0 {
		t.Skipf("the paths must lie on both sides of walkFirstDepth %d: %d shallow, deepest %d (TMPDIR is too deep)", walkFirstDepth, shallow, deepest)
	}
}

func TestStaticPrefix(t *testing.T) {
	tests := map[string]string{
		"~/.ssh/id_$KEY": "~/.ssh", "$HOME/.aws/$(x)/y": "$HOME/.aws", "${HOME}/$X": "${HOME}", "~/$X": "~",
		"$X/y": "", "/etc/$X": "/etc", "/$X": "", "a/`b`/c": "a", "~": "",
	}
	got := map[string]string{}
	for in := range tests {
		got[in] = staticPrefix(in)
	}
	if diff := cmp.Diff(tests, got); diff != "" {
		t.Errorf("staticPrefix (-want +got):\n%s", diff)
	}
}
