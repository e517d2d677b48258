package shell

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Look-alike program names. A program name with characters outside ASCII
// is unverifiable (a Problem: "сurl" with a Cyrillic es is no program
// toolguard knows). That alone is an ask: the agent may have made a
// program of that name (ln -s /usr/bin/curl ~/bin/сurl) and what it does
// would go unjudged — "сurl … | sh" an ask where "curl … | sh" is denied,
// "ѕh -c '…'" code nobody looked at. So a name that folds to an ASCII name
// — width and compatibility forms (ｒｍ, 𝐫𝐦), the Cyrillic and Greek
// letters that look like Latin ones, invisible characters (r\u200bm) — is
// the Name of the command (Argv keeps what was written): it is unwrapped,
// its code followed and its effects judged as the program it imitates, on
// top of being unverifiable.

// confusables maps letters that look like ASCII letters to them (the
// Cyrillic and Greek ones of Unicode's confusables list that fonts draw
// alike).
var confusables = map[rune]rune{
	'а': 'a', 'в': 'b', 'с': 'c', 'ԁ': 'd', 'е': 'e', 'һ': 'h', 'і': 'i', 'ј': 'j', 'к': 'k', 'ӏ': 'l', 'м': 'm',
	'н': 'h', 'о': 'o', 'р': 'p', 'ԛ': 'q', 'г': 'r', 'ѕ': 's', 'т': 't', 'ц': 'u', 'ѵ': 'v', 'ԝ': 'w', 'х': 'x',
	'у': 'y', 'А': 'A', 'В': 'B', 'С': 'C', 'Е': 'E', 'Н': 'H', 'І': 'I', 'Ј': 'J', 'К': 'K', 'М': 'M', 'О': 'O',
	'Р': 'P', 'Ѕ': 'S', 'Т': 'T', 'Х': 'X', 'Ү': 'Y',
	'α': 'a', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'γ': 'y',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T',
	'Χ': 'X', 'Υ': 'Y', 'Ζ': 'Z',
	'ı': 'i', 'ȷ': 'j', 'ℓ': 'l', '‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '−': '-', '․': '.',
}

// invisible are characters that draw as nothing.
func invisible(r rune) bool {
	switch r {
	case '\u00ad', '\u034f', '\u061c', '\u115f', '\u1160', '\u17b4', '\u17b5', '\u180e', '\u2060', '\u2061',
		'\u2062', '\u2063', '\u2064', '\ufeff', '\u3164', '\uffa0':
		return true
	}
	return r >= '\u200b' && r <= '\u200f' || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' ||
		r >= '\ufe00' && r <= '\ufe0f'
}

// Skeleton is the ASCII name a program name imitates: compatibility forms
// folded (NFKC), look-alike letters mapped, invisible characters dropped.
// ok is false when the name is ASCII already or does not fold to ASCII.
func Skeleton(name string) (string, bool) {
	if isASCII(name) || !utf8.ValidString(name) {
		return "", false
	}
	var b strings.Builder
	for _, r := range norm.NFKC.String(name) {
		switch {
		case invisible(r):
		case confusables[r] != 0:
			b.WriteRune(confusables[r])
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" || !isASCII(s) || s == name || strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return "", false
	}
	return s, true
}
