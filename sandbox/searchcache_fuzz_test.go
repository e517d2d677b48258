//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadSearch: the search cache's reader never panics, takes a file
// only for its own key, and returns absolute directories at depths of one
// and more.
func FuzzLoadSearch(f *testing.F) {
	f.Add(searchCacheMagic+`"k"`+"\n"+`dir 1 5 "/home/u"`+"\n"+`hole "/home/u/.env"`+"\n", "k")
	f.Add(searchCacheMagic+`"k"`+"\n"+`hole "/x"`+"\n", "k")
	f.Add(searchCacheMagic+`"k"`+"\n"+`dir 0 5 "rel"`+"\n", "k")
	f.Add("garbage", "k")
	f.Fuzz(func(t *testing.T, content, key string) {
		file := filepath.Join(t.TempDir(), "cache")
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		dirs := loadSearch(file, key)
		if dirs != nil && !strings.HasPrefix(content, searchCacheMagic) {
			t.Fatalf("a file without the header was read: %q", content)
		}
		for path, d := range dirs {
			if !filepath.IsAbs(path) || d.depth < 1 {
				t.Fatalf("loaded %q at depth %d", path, d.depth)
			}
		}
	})
}
