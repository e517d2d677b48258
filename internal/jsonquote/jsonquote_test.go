package jsonquote

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/jsonquote/jsonquotetest"
)

// std is encoding/json's quoting of s, as json.Encoder writes it with
// SetEscapeHTML(html), without the trailing newline.
func std(t testing.TB, s string, html bool) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(s); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func TestAppend(t *testing.T) {
	tests := []struct {
		in        string
		plain     string // without HTML escaping
		htmlEsc   string // with it, when different
		whyListed string
	}{
		{"", `""`, "", "empty"},
		{"plain text", `"plain text"`, "", "nothing to escape"},
		{`a"b`, `"a\"b"`, "", "quote"},
		{`a\b`, `"a\\b"`, "", "backslash"},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`, "", "short escapes"},
		{"\x00\x01\x0b\x1f", `"\u0000\u0001\u000b\u001f"`, "", "other control bytes"},
		{"\x7f", "\"\x7f\"", "", "DEL is copied"},
		{"<a>&</a>", `"<a>&</a>"`, `"\u003ca\u003e\u0026\u003c/a\u003e"`, "HTML"},
		{"\u2028\u2029", `"\u2028\u2029"`, "", "JavaScript line ends"},
		{"\u2027\u202a", "\"\u2027\u202a\"", "", "their neighbours are copied"},
		{"a\xffb", `"a\ufffdb"`, "", "invalid byte"},
		{"\xe2\x80", `"\ufffd\ufffd"`, "", "cut rune"},
		{"\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`, "", "a UTF-16 surrogate is not UTF-8"},
		{"é世🎉…", `"é世🎉…"`, "", "non-ASCII"},
	}
	for _, tt := range tests {
		for _, html := range []bool{false, true} {
			want := tt.plain
			if html && tt.htmlEsc != "" {
				want = tt.htmlEsc
			}
			got := string(Append([]byte("x"), tt.in, html))
			if diff := cmp.Diff("x"+want, got); diff != "" {
				t.Errorf("%s: Append(%q, html=%v) (-want +got):\n%s", tt.whyListed, tt.in, html, diff)
			}
			if s := std(t, tt.in, html); s != want {
				t.Errorf("%s: table entry %s disagrees with encoding/json %s", tt.whyListed, want, s)
			}
		}
	}
}

func TestAppendMatchesEncodingJSON(t *testing.T) {
	for _, s := range slices.Concat(jsonquotetest.Samples, []string{allBytes(), allRunesNear(0x2028)}) {
		for _, html := range []bool{false, true} {
			if diff := cmp.Diff(std(t, s, html), string(Append(nil, s, html))); diff != "" {
				t.Errorf("Append(%q, html=%v) (-encoding/json +Append):\n%s", s, html, diff)
			}
		}
	}
}

// TestAppendEveryPlace puts every byte value at every place of strings of
// 1 to 17 plain bytes — in the eight-byte step, in the last bytes, before
// and after a word — and compares Append with encoding/json.
func TestAppendEveryPlace(t *testing.T) {
	for n := 1; n <= 17; n++ {
		for pos := range n {
			for b := range 256 {
				for _, fill := range []byte{'a', '~', ' '} {
					w := []byte(strings.Repeat(string(fill), n))
					w[pos] = byte(b)
					for _, html := range []bool{false, true} {
						if got, want := string(Append(nil, string(w), html)), std(t, string(w), html); got != want {
							t.Fatalf("Append(%q, html=%v) = %s, encoding/json %s", w, html, got, want)
						}
					}
				}
			}
		}
	}
}

// allBytes is every byte value once, most of them invalid UTF-8 alone.
func allBytes() string {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}

func allRunesNear(r rune) string {
	var sb strings.Builder
	for c := r - 0x20; c <= r+0x20; c++ {
		sb.WriteRune(c)
	}
	return sb.String()
}

func FuzzAppend(f *testing.F) {
	for _, s := range jsonquotetest.Samples {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, html bool) {
		if got, want := string(Append(nil, s, html)), std(t, s, html); got != want {
			t.Fatalf("Append(%q, html=%v) = %s, encoding/json %s", s, html, got, want)
		}
	})
}

// TestNeeds checks the table of bytes that may need more than a copy
// against its definition, for every byte.
func TestNeeds(t *testing.T) {
	for b := range 256 {
		c := byte(b)
		var want uint8
		switch {
		case c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\':
			want = needsAlways
		case c == '<' || c == '>' || c == '&':
			want = needsHTML
		}
		if needs[c] != want {
			t.Errorf("needs[%#x] = %d, want %d", c, needs[c], want)
		}
	}
}

func BenchmarkAppend(b *testing.B) {
	s := "The supervised mode asks a person before destructive-tier calls: git push --force origin main"
	buf := make([]byte, 0, 256)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		buf = Append(buf[:0], s, true)
	}
}
