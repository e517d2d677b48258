package paths

import (
	"path"
	"strings"
	"testing"
)

func TestCleanPath(t *testing.T) {
	for _, c := range []struct {
		p     string
		clean bool // isCleanAbs
		want  string
	}{
		{"/", true, "/"},
		{"/work/app", true, "/work/app"},
		{"/work/app/.env", true, "/work/app/.env"},
		{"/work/..x/a..", true, "/work/..x/a.."},
		{"/a/...", true, "/a/..."},
		{"", false, "."},
		{"work/app", false, "work/app"},
		{"/work/app/", false, "/work/app"},
		{"//work", false, "/work"},
		{"/work//app", false, "/work/app"},
		{"/work/./app", false, "/work/app"},
		{"/work/.", false, "/work"},
		{"/work/../app", false, "/app"},
		{"/work/..", false, "/"},
		{"/..", false, "/"},
		{"/.", false, "/"},
		{"/./", false, "/"},
	} {
		if got := isCleanAbs(c.p); got != c.clean {
			t.Errorf("isCleanAbs(%q) = %v, want %v", c.p, got, c.clean)
		}
		if got := cleanPath(c.p); got != c.want {
			t.Errorf("cleanPath(%q) = %q, want %q", c.p, got, c.want)
		}
	}
}

// FuzzCleanPath: cleanPath is path.Clean, and a path isCleanAbs calls
// clean is one Clean leaves as it is.
func FuzzCleanPath(f *testing.F) {
	for _, s := range []string{"/", "/a/b", "/a/./b", "/a/../b", "//a", "/a/", "/.", "/..", "/a/.b/..c", "a/b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := cleanPath(p), path.Clean(p); got != want {
			t.Fatalf("cleanPath(%q) = %q, path.Clean %q", p, got, want)
		}
		if isCleanAbs(p) && path.Clean(p) != p {
			t.Fatalf("isCleanAbs(%q) but path.Clean gives %q", p, path.Clean(p))
		}
		if !isCleanAbs(p) && strings.HasPrefix(p, "/") && path.Clean(p) == p {
			t.Fatalf("isCleanAbs(%q) is false for a clean absolute path", p)
		}
	})
}
