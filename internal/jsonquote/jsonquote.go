// Package jsonquote writes a Go string as a JSON string exactly as
// encoding/json does, without reflection.
//
// The hook replies and the audit records are encoded by hand: a hook is a
// fresh process for every call, and encoding/json's first use (reflecting
// over the types, building its encoder cache) costs it more than the
// encoding itself. Both need the one thing encoding/json does that is easy
// to get subtly wrong, quoting a string; this package is that, once.
package jsonquote

import "unicode/utf8"

// Append appends s to dst as a JSON string, escaped as json.Encoder
// escapes it with SetEscapeHTML(escapeHTML): '"' and '\\' get a backslash,
// control bytes the short escapes (\b \f \n \r \t) or \u00XX, invalid
// UTF-8 bytes become \ufffd, and U+2028 and U+2029 are escaped because
// JavaScript reads them as line ends; '<', '>' and '&' become \u003c,
// \u003e and \u0026 when escapeHTML is set. Everything else is copied.
func Append(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	done := 0 // s[:done] is in dst
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			x := load8(s[i:])
			m := plainMask(x) // mayEscape, inlined
			if escapeHTML {
				m |= htmlMask(x)
			}
			if m == 0 {
				i += 8 // eight plain bytes at once
				continue
			}
		}
		if c := s[i]; c < utf8.RuneSelf && (asciiEscape[c] == "" || !escapeHTML && isHTML(c)) {
			i++ // the common case, kept in the loop
			continue
		}
		esc, size := escapeAt(s, i)
		if esc != "" {
			dst = append(append(dst, s[done:i]...), esc...)
			done = i + size
		}
		i += size
	}
	dst = append(dst, s[done:]...)
	return append(dst, '"')
}

func isHTML(c byte) bool { return c == '<' || c == '>' || c == '&' }

// load8 reads the first eight bytes of s as a little-endian word (the
// compiler makes it one load).
func load8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

const (
	ones  = 0x0101010101010101 // 1 in every byte
	highs = 0x8080808080808080 // the high bit of every byte
)

// mayEscape reports whether any of the eight bytes of x may need more than
// a copy: a control byte, a byte of a multi-byte character, '"' or '\\',
// or, with html, '<', '>' or '&'. It may say yes when all are plain (a
// borrow between bytes); never no when one is not.
func mayEscape(x uint64, html bool) bool {
	m := plainMask(x)
	if html {
		m |= htmlMask(x)
	}
	return m != 0
}

// plainMask has the high bit of a byte of x set when it may be a control
// byte, a byte of a multi-byte character, '"' or '\\' (mayEscape without
// html); small enough to be inlined, as mayEscape is not.
func plainMask(x uint64) uint64 {
	m := (x-ones*0x20)&^x | x // a byte below 0x20, or with its high bit set
	return (m | hasZero(x^(ones*'"')) | hasZero(x^(ones*'\\'))) & highs
}

// htmlMask has the high bit of a byte of x set when it is '<', '>' or '&'.
func htmlMask(x uint64) uint64 {
	return hasZero(x^(ones*'<')) | hasZero(x^(ones*'>')) | hasZero(x^(ones*'&'))
}

// hasZero has the high bit of a byte set when a byte of x is zero.
func hasZero(x uint64) uint64 { return (x - ones) &^ x & highs }

// escapeAt returns how the character at s[i] is written when it must be
// escaped ("" when it is copied as is) and how many bytes of s it spans.
// An ASCII byte it is called for always has an escape.
func escapeAt(s string, i int) (string, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiEscape[c], 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return `\ufffd`, 1
	case r == '\u2028':
		return `\u2028`, size
	case r == '\u2029':
		return `\u2029`, size
	}
	return "", size
}

// asciiEscape holds the escape of each ASCII byte that may need one ('<',
// '>' and '&' only with HTML escaping). It is a literal of constants so the
// linker lays it out: no start-up work.
var asciiEscape = [utf8.RuneSelf]string{
	0x00: `\u0000`, 0x01: `\u0001`, 0x02: `\u0002`, 0x03: `\u0003`, 0x04: `\u0004`, 0x05: `\u0005`, 0x06: `\u0006`, 0x07: `\u0007`,
	0x08: `\b`, 0x09: `\t`, 0x0a: `\n`, 0x0b: `\u000b`, 0x0c: `\f`, 0x0d: `\r`, 0x0e: `\u000e`, 0x0f: `\u000f`,
	0x10: `\u0010`, 0x11: `\u0011`, 0x12: `\u0012`, 0x13: `\u0013`, 0x14: `\u0014`, 0x15: `\u0015`, 0x16: `\u0016`, 0x17: `\u0017`,
	0x18: `\u0018`, 0x19: `\u0019`, 0x1a: `\u001a`, 0x1b: `\u001b`, 0x1c: `\u001c`, 0x1d: `\u001d`, 0x1e: `\u001e`, 0x1f: `\u001f`,
	'"': `\"`, '\\': `\\`, '<': `\u003c`, '>': `\u003e`, '&': `\u0026`,
}
