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
	want := uint8(needsAlways)
	if escapeHTML {
		want |= needsHTML
	}
	dst = append(dst, '"')
	done := 0 // s[:done] is in dst
	for i := 0; i < len(s); {
		// Eight plain bytes at a time: one look-up a byte in a table of
		// 256, ORed, which the compiler keeps in registers (a word test of
		// the eight bytes took five zero-byte tests and their constants,
		// about three times the instructions).
		for i+8 <= len(s) {
			w := s[i : i+8]
			if (needs[w[0]]|needs[w[1]]|needs[w[2]]|needs[w[3]]|needs[w[4]]|needs[w[5]]|needs[w[6]]|needs[w[7]])&want != 0 {
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		if needs[s[i]]&want == 0 {
			i++ // a plain byte among the last seven, or before one to escape
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

// Kinds of bytes in needs.
const (
	needsAlways = 1 << iota // a control byte, '"', '\\', or a byte of a multi-byte character
	needsHTML               // '<', '>' or '&': escaped with escapeHTML
)

// needs says of every byte whether it may need more than a copy (escapeAt
// decides for a byte of a multi-byte character). A literal of constants,
// laid out by the linker: no start-up work.
var needs = [256]uint8{
	0x00: 1, 0x01: 1, 0x02: 1, 0x03: 1, 0x04: 1, 0x05: 1, 0x06: 1, 0x07: 1,
	0x08: 1, 0x09: 1, 0x0a: 1, 0x0b: 1, 0x0c: 1, 0x0d: 1, 0x0e: 1, 0x0f: 1,
	0x10: 1, 0x11: 1, 0x12: 1, 0x13: 1, 0x14: 1, 0x15: 1, 0x16: 1, 0x17: 1,
	0x18: 1, 0x19: 1, 0x1a: 1, 0x1b: 1, 0x1c: 1, 0x1d: 1, 0x1e: 1, 0x1f: 1,
	'"': 1, '&': 2, '<': 2, '>': 2, '\\': 1, 0x80: 1, 0x81: 1, 0x82: 1,
	0x83: 1, 0x84: 1, 0x85: 1, 0x86: 1, 0x87: 1, 0x88: 1, 0x89: 1, 0x8a: 1,
	0x8b: 1, 0x8c: 1, 0x8d: 1, 0x8e: 1, 0x8f: 1, 0x90: 1, 0x91: 1, 0x92: 1,
	0x93: 1, 0x94: 1, 0x95: 1, 0x96: 1, 0x97: 1, 0x98: 1, 0x99: 1, 0x9a: 1,
	0x9b: 1, 0x9c: 1, 0x9d: 1, 0x9e: 1, 0x9f: 1, 0xa0: 1, 0xa1: 1, 0xa2: 1,
	0xa3: 1, 0xa4: 1, 0xa5: 1, 0xa6: 1, 0xa7: 1, 0xa8: 1, 0xa9: 1, 0xaa: 1,
	0xab: 1, 0xac: 1, 0xad: 1, 0xae: 1, 0xaf: 1, 0xb0: 1, 0xb1: 1, 0xb2: 1,
	0xb3: 1, 0xb4: 1, 0xb5: 1, 0xb6: 1, 0xb7: 1, 0xb8: 1, 0xb9: 1, 0xba: 1,
	0xbb: 1, 0xbc: 1, 0xbd: 1, 0xbe: 1, 0xbf: 1, 0xc0: 1, 0xc1: 1, 0xc2: 1,
	0xc3: 1, 0xc4: 1, 0xc5: 1, 0xc6: 1, 0xc7: 1, 0xc8: 1, 0xc9: 1, 0xca: 1,
	0xcb: 1, 0xcc: 1, 0xcd: 1, 0xce: 1, 0xcf: 1, 0xd0: 1, 0xd1: 1, 0xd2: 1,
	0xd3: 1, 0xd4: 1, 0xd5: 1, 0xd6: 1, 0xd7: 1, 0xd8: 1, 0xd9: 1, 0xda: 1,
	0xdb: 1, 0xdc: 1, 0xdd: 1, 0xde: 1, 0xdf: 1, 0xe0: 1, 0xe1: 1, 0xe2: 1,
	0xe3: 1, 0xe4: 1, 0xe5: 1, 0xe6: 1, 0xe7: 1, 0xe8: 1, 0xe9: 1, 0xea: 1,
	0xeb: 1, 0xec: 1, 0xed: 1, 0xee: 1, 0xef: 1, 0xf0: 1, 0xf1: 1, 0xf2: 1,
	0xf3: 1, 0xf4: 1, 0xf5: 1, 0xf6: 1, 0xf7: 1, 0xf8: 1, 0xf9: 1, 0xfa: 1,
	0xfb: 1, 0xfc: 1, 0xfd: 1, 0xfe: 1, 0xff: 1,
}

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
