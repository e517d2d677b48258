package analysis

import (
	"testing"
)

// TestBlankPerlRegex: the bodies of perl's regex operators are blanked,
// code around them and code in them (the e flag, (?{…})) is kept.
func TestBlankPerlRegex(t *testing.T) {
	for _, tc := range []struct{ code, want string }{
		{`s#<a href="/x"/>#<b/>#g`, `                       `},
		{`s{/usr/local}{/opt}g; print "/etc/x"`, `                    ; print "/etc/x"`},
		{`tr/a-z/A-Z/`, `           `},
		{`print if m!/etc/shadow!`, `print if               `},
		{`$re = qr/\/tmp\/(\w+)/; unlink "/tmp/a"`, `$re =                 ; unlink "/tmp/a"`},
		{`s/foo/bar/g`, `           `},
		{`s/x/unlink "\/etc\/passwd"/e`, `s/ /unlink "\/etc\/passwd"/e`},
		{`/(?{ system("id") })/ and s/(?{ 1 })/y/`, `/(?{ system("id") })/ and s/(?{ 1 })/ /`},
		{`my $s = "/etc/x"; sort @a; $y = 2`, `my $s = "/etc/x"; sort @a; $y = 2`},
		{`s/unterminated`, `s/unterminated`},
	} {
		if got := blankPerlRegex(tc.code); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.code, got, tc.want)
		}
	}
}

// FuzzBlankPerlRegex: the text keeps its length and its newlines, and
// only ever turns bytes into spaces.
func FuzzBlankPerlRegex(f *testing.F) {
	f.Add(`s#a#b#g; tr{a}{b}; m!x!; qr/y/e`)
	f.Add("s/x/\n/e")
	f.Fuzz(func(t *testing.T, code string) {
		got := blankPerlRegex(code)
		if len(got) != len(code) {
			t.Fatalf("length %d, want %d", len(got), len(code))
		}
		for i := range len(code) {
			if got[i] != code[i] && (got[i] != ' ' || code[i] == '\n') {
				t.Fatalf("byte %d: %q became %q", i, code[i], got[i])
			}
		}
	})
}
