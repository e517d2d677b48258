// Package jsonscan reads JSON by a scan of its bytes, for the two hot paths
// that decode what an agent sends: the hook's payload (split into its
// members) and serve's deciding request (decoded into its fields).
// encoding/json's reflection and token decoder were each about a twentieth
// of a serve replica's CPU per decision, and the two hand-written scanners
// that replaced them had grown apart while doing the same job.
//
// A Scanner answers false rather than guess: it declines what it does not
// read exactly as encoding/json reads it (\u escapes and bytes that are not
// UTF-8 in a decoded string, nesting deeper than MaxDepth), so that every
// caller keeps encoding/json as its slow path, for those inputs and for the
// errors that say what is wrong. FuzzScanner checks the scan against
// encoding/json on random inputs.
package jsonscan

import (
	"encoding/binary"
	"strconv"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of objects and arrays Skip reads; deeper
// values are declined (encoding/json's own limit is 10,000, and no payload
// comes near either).
const MaxDepth = 1000

// Scanner reads JSON values from a byte slice, one after another. Every
// method first skips white space. A method that answers false may have
// moved the scanner anywhere: the caller then drops the scan.
type Scanner struct {
	b []byte
	i int
	// text is b as a string when the scanner was made by NewText, else
	// empty: a plain string is then a slice of it, not a copy.
	text string
}

// New is a scanner at the start of b.
func New(b []byte) Scanner { return Scanner{b: b} }

// NewText is a scanner at the start of b, whose bytes text holds (text is
// string(b), made by the caller): the plain strings Str returns are then
// slices of text rather than copies of b, one allocation for all of them,
// and b may be reused once the scan is done. Every string read keeps the
// whole of text alive as long as it is kept.
func NewText(b []byte, text string) Scanner {
	if len(text) != len(b) {
		panic("jsonscan: NewText: text is not b")
	}
	return Scanner{b: b, text: text}
}

func (s *Scanner) space() {
	if s.i < len(s.b) && s.b[s.i] > ' ' {
		return // the usual case, compact JSON, without a call
	}
	s.skipSpace()
}

func (s *Scanner) skipSpace() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// Peek is the next byte that is not white space, or 0 at the end.
func (s *Scanner) Peek() byte {
	s.space()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// Consume reads the byte c when it comes next.
func (s *Scanner) Consume(c byte) bool {
	if s.Peek() != c {
		return false
	}
	s.i++
	return true
}

// End reports whether nothing but white space is left.
func (s *Scanner) End() bool { return s.Peek() == 0 && s.i == len(s.b) }

// Members reads an object, calling member with each key; member must read
// the key's value from s and answer whether it could. Keys are decoded as
// by Str.
func (s *Scanner) Members(member func(key string) bool) bool {
	if !s.Consume('{') {
		return false
	}
	if s.Consume('}') {
		return true
	}
	for { // list's loop, written out: one call through a func value less a member
		key, ok := s.Str()
		if !ok || !s.Consume(':') || !member(key) {
			return false
		}
		if s.Consume('}') {
			return true
		}
		if !s.Consume(',') {
			return false
		}
	}
}

// list reads the comma-separated items of an array or an object (whose
// keys Skip does not decode), whose opening byte has been read, up to its
// closing byte.
func (s *Scanner) list(closing byte, item func() bool) bool {
	if s.Consume(closing) {
		return true
	}
	for {
		if !item() {
			return false
		}
		if s.Consume(closing) {
			return true
		}
		if !s.Consume(',') {
			return false
		}
	}
}

// Str reads a string and decodes it as encoding/json does; it declines
// \u escapes and bytes that are not UTF-8 (which encoding/json replaces).
func (s *Scanner) Str() (string, bool) {
	inner, plain, ok := s.str()
	if !ok {
		return "", false
	}
	if plain {
		if s.text != "" {
			end := s.i - 1 // the closing quote
			return s.text[end-len(inner) : end], true
		}
		return string(inner), true
	}
	return unescape(inner)
}

// Unquote decodes quoted, exactly one JSON string without white space
// around it (a value Skip returned), as Str does.
func Unquote(quoted []byte) (string, bool) {
	if len(quoted) == 0 || quoted[0] != '"' {
		return "", false
	}
	s := Scanner{b: quoted}
	v, ok := s.Str()
	return v, ok && s.i == len(quoted)
}

// str reads a string checked against JSON's grammar; inner is what is
// between its quotes, plain whether that is printable ASCII without
// escapes (so it is its own decoding).
func (s *Scanner) str() (inner []byte, plain, ok bool) {
	if !s.Consume('"') {
		return nil, false, false
	}
	start := s.i
	plain = true
	s.plainRun()
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return s.b[start : s.i-1], plain, true
		case c == '\\':
			plain = false
			if !s.escape() {
				return nil, false, false
			}
			s.plainRun()
		case c < 0x20:
			return nil, false, false
		case c >= utf8.RuneSelf:
			plain = false
			s.i++
			s.plainRun()
		default:
			s.i++
		}
	}
	return nil, false, false
}

// plainRun skips plain bytes eight at a time (a command's or a file's
// text is mostly runs of them), up to the eight bytes that hold one that
// may not be plain.
func (s *Scanner) plainRun() {
	for s.i+8 <= len(s.b) && !maySpecial(binary.LittleEndian.Uint64(s.b[s.i:])) {
		s.i += 8
	}
}

// escape reads a backslash escape: one of \" \\ \/ \b \f \n \r \t, or \u
// and four hexadecimal digits.
func (s *Scanner) escape() bool {
	if s.i+1 >= len(s.b) {
		return false
	}
	switch s.b[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.b) {
			return false
		}
		for _, c := range s.b[s.i+2 : s.i+6] {
			if !isHex(c) {
				return false
			}
		}
		s.i += 6
		return true
	}
	return false
}

const (
	ones  = 0x0101010101010101 // 1 in every byte
	highs = 0x8080808080808080 // the high bit of every byte
)

// maySpecial reports whether any of the eight bytes of x may be other
// than plain inside a string: a control byte, a byte of a multi-byte
// character, '"' or '\\'. It may say yes when all are plain (a borrow
// between bytes); never no when one is not.
func maySpecial(x uint64) bool {
	m := (x-ones*0x20)&^x | x // a byte below 0x20, or with its high bit set
	m |= hasZero(x^(ones*'"')) | hasZero(x^(ones*'\\'))
	return m&highs != 0
}

// hasZero has the high bit of a byte set when a byte of x is zero.
func hasZero(x uint64) uint64 { return (x - ones) &^ x & highs }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// unescape decodes the inside of a grammatical string with escapes or
// non-ASCII bytes; false for \u escapes and bytes that are not UTF-8.
func unescape(s []byte) (string, bool) {
	if !utf8.Valid(s) {
		return "", false
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++ // str checked that an escape character follows
		switch s[i] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			return "", false
		default: // '"', '\\', '/'
			out = append(out, s[i])
		}
	}
	return string(out), true
}

// Bool reads true or false.
func (s *Scanner) Bool() (v, ok bool) {
	switch {
	case s.literal("true"):
		return true, true
	case s.literal("false"):
		return false, true
	}
	return false, false
}

// Null reads null.
func (s *Scanner) Null() bool { return s.literal("null") }

func (s *Scanner) literal(word string) bool {
	s.space()
	if len(s.b)-s.i < len(word) || string(s.b[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

// Number reads a number as encoding/json decodes it into an any: a
// float64; it declines a number out of float64's range, as encoding/json
// refuses it.
func (s *Scanner) Number() (float64, bool) {
	s.space()
	start := s.i
	if !s.number() {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
	return f, err == nil
}

// number reads a number checked against JSON's grammar.
func (s *Scanner) number() bool {
	s.skipByte('-')
	switch c := s.next(); {
	case c == '0':
		s.i++
	case c >= '1' && c <= '9':
		s.digits()
	default:
		return false
	}
	if s.skipByte('.') && !s.digits() {
		return false
	}
	if s.skipByte('e') || s.skipByte('E') {
		if !s.skipByte('+') {
			s.skipByte('-')
		}
		return s.digits()
	}
	return true
}

// next is the byte at the scanner, without skipping space; 0 at the end.
func (s *Scanner) next() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// skipByte reads c when it is the very next byte.
func (s *Scanner) skipByte(c byte) bool {
	if s.next() != c {
		return false
	}
	s.i++
	return true
}

// digits reads one or more digits.
func (s *Scanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// Scalar reads a string, number, boolean or null as encoding/json decodes
// it into an any; it declines objects and arrays.
func (s *Scanner) Scalar() (any, bool) {
	switch c := s.Peek(); {
	case c == '"':
		return s.Str()
	case c == 't' || c == 'f':
		return s.Bool()
	case c == 'n':
		return nil, s.Null()
	case c == '-' || c >= '0' && c <= '9':
		return s.Number()
	}
	return nil, false
}

// Skip reads any value, checked against JSON's grammar as json.Valid
// checks it, and returns its bytes undecoded.
func (s *Scanner) Skip() ([]byte, bool) {
	s.space()
	start := s.i
	if !s.skip(0) {
		return nil, false
	}
	return s.b[start:s.i], true
}

// skip reads a value nested depth deep.
func (s *Scanner) skip(depth int) bool {
	switch c := s.Peek(); {
	case c == '"':
		_, _, ok := s.str()
		return ok
	case c == '{':
		s.i++
		return depth < MaxDepth && s.list('}', func() bool {
			_, _, ok := s.str()
			return ok && s.Consume(':') && s.skip(depth+1)
		})
	case c == '[':
		s.i++
		return depth < MaxDepth && s.list(']', func() bool { return s.skip(depth + 1) })
	case c == 't' || c == 'f':
		_, ok := s.Bool()
		return ok
	case c == 'n':
		return s.Null()
	case c == '-' || c >= '0' && c <= '9':
		return s.number()
	}
	return false
}
