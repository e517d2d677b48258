package paths

import (
	"path"
	"testing"
)

// TestJoinNamesIsPathJoin compares joinNames with path.Join on every list
// of up to three names built from pieces that exercise Clean.
func TestJoinNamesIsPathJoin(t *testing.T) {
	pieces := []string{"", ".", "..", "/", "a", "b/c", "a/", "/a", ".env", "a//b", "...", "x/../y"}
	dirs := append([]string{"/", "//", "/home/dev", "/home/dev/", "/home//dev", "/home/./dev", "rel", "./rel", "/a/.."}, pieces...)
	var lists [][]string
	var grow func(cur []string)
	grow = func(cur []string) {
		lists = append(lists, append([]string(nil), cur...))
		if len(cur) == 3 {
			return
		}
		for _, p := range pieces {
			grow(append(cur, p))
		}
	}
	grow(nil)
	for _, dir := range dirs {
		for _, names := range lists {
			want := path.Join(append([]string{dir}, names...)...)
			if got := joinNames(dir, names); got != want {
				t.Fatalf("joinNames(%q, %q) = %q, path.Join gives %q", dir, names, got, want)
			}
		}
	}
}

func FuzzJoinNames(f *testing.F) {
	f.Add("/home/dev", ".claude", "settings.json")
	f.Add("/", "..", "")
	f.Fuzz(func(t *testing.T, dir, a, b string) {
		for _, names := range [][]string{nil, {a}, {a, b}} {
			want := path.Join(append([]string{dir}, names...)...)
			if got := joinNames(dir, names); got != want {
				t.Fatalf("joinNames(%q, %q) = %q, path.Join gives %q", dir, names, got, want)
			}
		}
	})
}
