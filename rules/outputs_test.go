package rules

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/shell"
)

// outputsReference is the class @outputs without the byte sets: every
// output pattern tried on the word.
func outputsReference(v string) bool {
	w := shell.Word{Value: v, Known: true}
	f := formsOf(v)
	return slices.ContainsFunc(outputPatterns(), func(p pattern) bool { return p.matchForms(w, f) })
}

// outputWords are words built around every output glob: the glob with
// its wildcards filled, below a directory, with a path below it, cut
// short by one byte, in upper case, from the home, and the short words rm
// is given.
func outputWords() []string {
	words := []string{"", "~", "~/", "/", ".", "..", "*", "./", "../..", "$HOME", "$HOME/", "${HOME}/build",
		"/root/dist", "/home/ada/build/x", "/users/ada/.cache", "src/main.go", "a", "ab"}
	for _, g := range outputGlobs {
		filled := strings.NewReplacer("**/", "", "*", "x", "?", "y").Replace(g)
		words = append(words, g, filled, filled[:len(filled)-1], "./"+filled, "a/"+filled, "/"+filled,
			filled+"/", filled+"/sub/file", "a/"+filled+"/b", "~/"+filled, "/home/ada/"+filled,
			"$HOME/"+filled, strings.ToUpper(filled), filled+"x", "x"+filled)
	}
	return words
}

// TestIsOutputForms holds the class @outputs with its byte sets to every
// output pattern tried on each word, and checks both ways are exercised.
func TestIsOutputForms(t *testing.T) {
	matched, unmatched := 0, 0
	for _, v := range outputWords() {
		want := outputsReference(v)
		if got := IsOutput(v); got != want {
			t.Errorf("IsOutput(%q) = %v, want %v", v, got, want)
		}
		if want {
			matched++
		} else {
			unmatched++
		}
	}
	if matched < len(outputGlobs) || unmatched < len(outputGlobs) {
		t.Errorf("%d words matched and %d did not: the words do not exercise both answers", matched, unmatched)
	}
}

// TestByteSetOf checks the byte sets of words and globs.
func TestByteSetOf(t *testing.T) {
	tests := []struct {
		glob, word string
		holds      bool
	}{
		{"node_modules", "a/node_modules/b", true},
		{"node_modules", "mode_nodules", true}, // the same bytes in another order: the glob decides
		{"**/.cache", "~", false},
		{"*.egg-info", "x.egg-inf", false},
		{"cmake-build-*", "cmake-build-", true},
		{"?", "", true}, // "?" needs a byte, not a given one: the set does not tell lengths
		{"*", "", true},
		{"a\xff", "\xffa", true},
	}
	for _, tt := range tests {
		need, has := byteSetOf(tt.glob, true), byteSetOf(tt.word, false)
		if got := has.holds(&need); got != tt.holds {
			t.Errorf("byteSetOf(%q) holds byteSetOf(%q, glob): %v, want %v", tt.word, tt.glob, got, tt.holds)
		}
	}
}

// FuzzIsOutput holds the class @outputs to every output pattern tried.
func FuzzIsOutput(f *testing.F) {
	for _, v := range outputWords() {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if got, want := IsOutput(v), outputsReference(v); got != want {
			t.Errorf("IsOutput(%q) = %v, want %v", v, got, want)
		}
	})
}
