package policy

import (
	"strings"
	"testing"
)

// nameMatchesReference is nameMatches as it was written first.
func nameMatchesReference(pat, name string) bool {
	return name == pat || strings.HasPrefix(name, pat+".")
}

// procPathWords are words procPath may see: entries of /proc and things
// that look like them.
var procPathWords = []string{"", "/", "/proc", "/proc/", "/proc/1", "/proc/1/fd", "/proc/self/environ", "/proc/12/environ",
	"/proc/12/task/3/mem", "/proc/12/cwd/x", "proc/1/fd", "//proc/1/fd", "/PROC/1/fd", "./proc/1/mem", "/proc//fd",
	"/procs/1/fd", " /proc/1/fd", "/proc/1/fdx", "/proc/thread-self/fd", "/tmp/proc/1/fd"}

// TestShortcutsMatchReference compares the denied patterns' name test and
// procPath's prefix test with the forms they replace on generated words.
func TestShortcutsMatchReference(t *testing.T) {
	parts := []string{"", "m", "mkfs", ".", "ext4", "mkfs.", "dd", "x.y"}
	n := 0
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				for _, pat := range []string{a, a + b} {
					name := b + c
					if got, want := nameMatches(pat, name), nameMatchesReference(pat, name); got != want {
						t.Errorf("nameMatches(%q, %q) = %v, want %v", pat, name, got, want)
					}
					n++
				}
			}
		}
	}
	for _, v := range procPathWords {
		if procEntry.Get().MatchString(v) && !strings.HasPrefix(v, "/proc/") {
			t.Errorf("%q is a /proc entry without the prefix procPath tests first", v)
		}
	}
	if n < 500 {
		t.Fatalf("only %d pairs", n)
	}
}

func FuzzShortcuts(f *testing.F) {
	for _, v := range procPathWords {
		f.Add("mkfs", v)
	}
	f.Add("mkfs", "mkfs.ext4")
	f.Fuzz(func(t *testing.T, pat, name string) {
		if got, want := nameMatches(pat, name), nameMatchesReference(pat, name); got != want {
			t.Fatalf("nameMatches(%q, %q) = %v, want %v", pat, name, got, want)
		}
		if procEntry.Get().MatchString(name) && !strings.HasPrefix(name, "/proc/") {
			t.Fatalf("%q is a /proc entry without the prefix", name)
		}
	})
}
