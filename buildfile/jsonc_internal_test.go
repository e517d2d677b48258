package buildfile

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseJSONC: comments and trailing commas go, strings keep what
// looks like either, and what is not JSONC is refused.
func TestParseJSONC(t *testing.T) {
	for _, tc := range []struct {
		text string
		want any
		ok   bool
	}{
		{`{"a": [1, 2,], // c
 /* d */ "b": "x//y,]",}`, map[string]any{"a": []any{1.0, 2.0}, "b": "x//y,]"}, true},
		{`{"a": "q\"/*",}`, map[string]any{"a": `q"/*`}, true},
		{`[1, /* , */ ]`, []any{1.0}, true},
		{`{"a": 1 /* open`, nil, false},
		{`{"a": 1,, }`, nil, false},
		{`[,]`, []any{}, true}, // lenient, as VS Code is
	} {
		got, ok := parseJSONC(tc.text)
		if ok != tc.ok || !cmp.Equal(got, tc.want) {
			t.Errorf("%q: %v (ok %v), want %v (ok %v)", tc.text, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzStripJSONC: plain JSON reads as encoding/json reads it.
func FuzzStripJSONC(f *testing.F) {
	f.Add(`{"a": [1, "x,]"]}`)
	f.Add(`"\\"`)
	f.Fuzz(func(t *testing.T, text string) {
		var want any
		if json.Unmarshal([]byte(text), &want) != nil {
			parseJSONC(text)
			return
		}
		got, ok := parseJSONC(text)
		if !ok || !cmp.Equal(got, want) {
			t.Fatalf("%q: %v (ok %v), want %v", text, got, ok, want)
		}
	})
}
