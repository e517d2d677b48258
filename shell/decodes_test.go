package shell

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDecodes lists which producers hide the text a shell or eval runs:
// decoders, and escapes that spell letters or digits.
func TestDecodes(t *testing.T) {
	cases := []struct {
		src  string
		want bool
	}{
		{`echo Y2F0IFJFQURNRS5tZA== | base64 -d | sh`, true},
		{`echo Y2F0IFJFQURNRS5tZA== | base64 --decode | sh`, true},
		{`echo Y2F0IFJFQURNRS5tZA== | base64 | sh`, false}, // encodes: the text shown is the text run
		{`echo 6c73 | xxd -r -p | sh`, true},
		{`echo 6c73 | xxd -p | sh`, false},
		{`printf '\x6c\x73' | sh`, true},
		{`printf '\154\163' | sh`, true},
		{`printf '\0154\0163' | sh`, true},
		{`printf 'ls\n' | sh`, false},
		{`printf '%s\n' ls | sh`, false},
		{`printf '\x2d\x2d' | sh`, false}, // escapes of punctuation hide no word
		{`echo -e '\x6c\x73' | sh`, true},
		{`echo '\x6c\x73' | sh`, false}, // bash's echo prints the backslashes
		{`echo -e 'ls\tfoo' | sh`, false},
		{`cat README.md | sh`, false},
	}
	for _, c := range cases {
		s, err := Parse(c.src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		var producer *Command
		for _, cmd := range s.Commands {
			if cmd.Name == "sh" && cmd.Stdin != nil {
				producer = cmd.Stdin.From
			}
		}
		if producer == nil {
			t.Fatalf("%s: no producer feeds sh", c.src)
		}
		if got := Decodes(producer); got != c.want {
			t.Errorf("Decodes(%s) = %v, want %v", c.src, got, c.want)
		}
	}
}

func TestEscapesAlphanumeric(t *testing.T) {
	got := map[string]bool{}
	for _, s := range []string{`\x41`, `\x2f`, `\101`, `\0101`, `\057`, `\9`, `\x`, `\x4`, `a\\b`, `\0`, `plain`, `\x7a\x2f`, `\377`, `\477`} {
		got[s] = escapesAlphanumeric(s)
	}
	want := map[string]bool{`\x41`: true, `\x2f`: false, `\101`: true, `\0101`: true, `\057`: false, `\9`: false, `\x`: false,
		`\x4`: false, `a\\b`: false, `\0`: false, `plain`: false, `\x7a\x2f`: true, `\377`: false, `\477`: false}
	if d := cmp.Diff(want, got); d != "" {
		t.Error(d)
	}
}

// FuzzEscapesAlphanumeric checks that escapesAlphanumeric never panics
// and answers true only for text holding a backslash followed by the
// escape of a letter or digit.
func FuzzEscapesAlphanumeric(f *testing.F) {
	for _, s := range []string{`\x41`, `\101`, `\0101`, `\x`, `\`, `\\\x7a`, "\\x4\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !escapesAlphanumeric(s) {
			return
		}
		for i := 0; i+2 < len(s); i++ {
			if s[i] != '\\' {
				continue
			}
			for _, n := range []struct {
				from, to, base int
			}{{i + 2, i + 4, 16}, {i + 2, i + 5, 8}, {i + 1, i + 4, 8}} {
				if n.to > len(s) {
					continue
				}
				if v, err := strconv.ParseUint(s[n.from:n.to], n.base, 8); err == nil && isAlnum(byte(v)) {
					return
				}
			}
		}
		t.Fatalf("escapesAlphanumeric(%q) = true without an escape of a letter or digit", s)
	})
}

func isAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
