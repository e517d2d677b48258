package server

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
)

// The lean path's request parser (see lean.go). It accepts only the
// plainest form of the deciding requests and says "not mine" to anything
// else, which net/http then parses from the same bytes: so it may refuse
// any request for any reason, but what it accepts must be exactly what
// net/http reads from those bytes (FuzzLeanHead checks that against
// http.ReadRequest), and no request it accepts may be framed in two ways.
//
// Accepted: "POST /v1/decide HTTP/1.1" or "POST /v1/hooks/NAME HTTP/1.1"
// (NAME of letters, digits, '-' and '_'), no query, then header lines
// "Name: value" ending in CRLF, each of Host (required), Content-Length
// (required, digits only, at most maxBody), Content-Type, Authorization,
// User-Agent, Accept, Accept-Encoding and Connection ("keep-alive" or
// "close") at most once, with printable ASCII values, and the empty line,
// all within leanMaxHead bytes. Everything else — another method, path or
// version, any other header (Transfer-Encoding, Expect, Upgrade, Origin,
// Cookie, …), a repeated one, a folded line, a bare LF or CR, a space
// before a colon, bytes outside ASCII, a longer head — goes to net/http.

// leanMaxHead bounds the head the lean path parses; a longer one goes to
// net/http (whose own bound is far larger).
const leanMaxHead = 4096

// leanMaxAgent bounds the agent name of a hook path.
const leanMaxAgent = 64

// leanHead is a request head the lean path accepts. Its strings are
// slices of one copy of the head.
type leanHead struct {
	size          int // bytes of the head, the empty line included
	path          string
	host          string
	contentLength int64
	close         bool // Connection: close
	// The other headers, canonical name and value, in the order sent.
	fields [leanFieldCount]leanField
	n      int
}

// leanField is one header of a head.
type leanField struct{ name, value string }

// leanFields are the headers the lean path takes, lower-case, with their
// canonical names; leanFieldCount is their number.
var leanFields = [...]struct{ lower, canonical string }{
	{"host", "Host"},
	{"content-length", "Content-Length"},
	{"content-type", "Content-Type"},
	{"authorization", "Authorization"},
	{"user-agent", "User-Agent"},
	{"accept", "Accept"},
	{"accept-encoding", "Accept-Encoding"},
	{"connection", "Connection"},
}

const leanFieldCount = len(leanFields)

// Indexes in leanFields of the fields field reads.
const (
	fieldHost          = 0
	fieldContentLength = 1
	fieldConnection    = 7
)

// parseLeanHead parses the head at the start of b. complete is false when
// b holds no whole head yet (and is shorter than leanMaxHead): more bytes
// may make it one. ok is true only for a whole head of the accepted form.
func parseLeanHead(b []byte, maxBody int64) (h leanHead, complete, ok bool) {
	end := plainHeadEnd(b)
	if end < 0 {
		// Not a plain head whole within leanMaxHead bytes (yet): found
		// and checked as before, which refuses it or waits for more.
		if end = bytes.Index(b, []byte("\r\n\r\n")); end < 0 {
			// net/http ends a head at an empty line ended by a bare LF
			// too: refuse at once rather than wait for a CRLF CRLF never
			// sent.
			return h, len(b) >= leanMaxHead || bytes.IndexByte(b, '\n') >= 0 && bareLF(b), false
		}
		if end+4 > leanMaxHead || !plainLines(b[:end+2]) {
			return h, true, false
		}
	}
	h.size = end + 4
	if h.size > leanMaxHead {
		return h, true, false
	}
	// Every line of text ends with CRLF, and no other CR or LF is in it
	// (plainHeadEnd, plainLines): a line ends at its first CR.
	text := string(b[:end+2]) // one copy; the strings below are slices of it
	i := strings.IndexByte(text, '\r')
	path, ok := leanRequestLine(text[:i])
	if !ok {
		return h, true, false
	}
	h.path = path
	var seen [leanFieldCount]bool
	for rest := text[i+2:]; rest != ""; rest = rest[i+2:] {
		i = strings.IndexByte(rest, '\r')
		if !h.field(rest[:i], &seen, maxBody) {
			return h, true, false
		}
	}
	return h, true, seen[0] && seen[1]
}

// plainHeadEnd is the index in b of the CRLF CRLF that ends a head whose
// bytes before it are lines of printable ASCII and tabs, each ended by
// CRLF (what plainLines accepts), found within leanMaxHead bytes; or -1
// when b has another byte first (a CR without its LF included), or ends
// first. It reads eight bytes at a time and goes from one byte that is
// not printable ASCII (a CR, a tab) to the next: one pass over the head
// instead of a search for its end and a check of every byte.
func plainHeadEnd(b []byte) int {
	n := min(len(b), leanMaxHead)
	for i := 0; i < n; {
		if i+8 <= n {
			// The bytes below 0x20 or from 0x7f on, by the high bits of
			// x-0x20 not set in x, and of x+1 or x. Those past the first
			// may be marked wrongly (a borrow or a carry), the first is
			// not: it is skipped to.
			const ones, highs = 0x0101010101010101, 0x8080808080808080
			x := binary.LittleEndian.Uint64(b[i:])
			m := ((x-0x20*ones)&^x | (x + ones) | x) & highs
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) / 8
		}
		switch c := b[i]; {
		case c >= 0x20 && c < 0x7f, c == '\t':
			i++
		case c == '\r' && i+1 < n && b[i+1] == '\n':
			if i+3 < len(b) && b[i+2] == '\r' && b[i+3] == '\n' {
				return i
			}
			i += 2
		default:
			return -1
		}
	}
	return -1
}

// bareLF reports whether b holds an LF not after a CR.
func bareLF(b []byte) bool {
	for i, c := range b {
		if c == '\n' && (i == 0 || b[i-1] != '\r') {
			return true
		}
	}
	return false
}

// plainLines reports whether b is lines of printable ASCII and tabs, each
// ended by CRLF, with no other CR or LF.
func plainLines(b []byte) bool {
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= 0x20 && c < 0x7f, c == '\t':
		case c == '\r' && i+1 < len(b) && b[i+1] == '\n':
			i++
		default:
			return false
		}
	}
	return true
}

// leanRequestLine returns the path of an accepted request line.
func leanRequestLine(line string) (string, bool) {
	target, ok := strings.CutPrefix(line, "POST ")
	if !ok {
		return "", false
	}
	target, ok = strings.CutSuffix(target, " HTTP/1.1")
	if !ok {
		return "", false
	}
	if target == "/v1/decide" {
		return target, true
	}
	agent, ok := strings.CutPrefix(target, "/v1/hooks/")
	if !ok || agent == "" || len(agent) > leanMaxAgent {
		return "", false
	}
	for i := 0; i < len(agent); i++ {
		c := agent[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return "", false
		}
	}
	return target, true
}

// field takes one header line.
func (h *leanHead) field(line string, seen *[leanFieldCount]bool, maxBody int64) bool {
	colon := strings.IndexByte(line, ':')
	if colon <= 0 {
		return false
	}
	name, value := line[:colon], trimSpaceTab(line[colon+1:])
	for i := 0; i < len(name); i++ {
		if !isTokenByte(name[i]) {
			return false // a space before the colon, a folded line, …
		}
	}
	k := leanFieldIndex(name)
	if k < 0 || seen[k] {
		return false
	}
	seen[k] = true
	switch k {
	case fieldHost:
		if !leanHost(value) {
			return false
		}
		h.host = value
		return true
	case fieldContentLength:
		n, ok := leanLength(value, maxBody)
		if !ok {
			return false
		}
		h.contentLength = n
	case fieldConnection:
		switch {
		case strings.EqualFold(value, "keep-alive"):
		case strings.EqualFold(value, "close"):
			h.close = true
		default:
			return false
		}
	}
	h.fields[h.n] = leanField{leanFields[k].canonical, value}
	h.n++
	return true
}

// trimSpaceTab is strings.Trim(v, " \t"), without the set built per call.
func trimSpaceTab(v string) string {
	for v != "" && (v[0] == ' ' || v[0] == '\t') {
		v = v[1:]
	}
	for v != "" && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t') {
		v = v[:len(v)-1]
	}
	return v
}

// leanFieldIndex is the index in leanFields of the header name, in any
// case, or -1: one comparison for the name of its length (two for length
// 10), not one for every field until it matches.
func leanFieldIndex(name string) int {
	var try [2]int8
	switch len(name) {
	case 4:
		try = [2]int8{0, -1} // host
	case 14:
		try = [2]int8{1, -1} // content-length
	case 12:
		try = [2]int8{2, -1} // content-type
	case 13:
		try = [2]int8{3, -1} // authorization
	case 10:
		try = [2]int8{4, 7} // user-agent, connection
	case 6:
		try = [2]int8{5, -1} // accept
	case 15:
		try = [2]int8{6, -1} // accept-encoding
	default:
		return -1
	}
	for _, i := range try {
		// Clients send the canonical names; any other case compares
		// folded.
		if i >= 0 && (name == leanFields[i].canonical || strings.EqualFold(name, leanFields[i].lower)) {
			return int(i)
		}
	}
	return -1
}

// leanHost accepts a host name or address with an optional port: letters,
// digits and . - : [ ] only.
func leanHost(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == ':' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}

// leanLength parses a Content-Length of 1 to 9 digits, at most maxBody.
func leanLength(v string, maxBody int64) (int64, bool) {
	if v == "" || len(v) > 9 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, n <= maxBody
}

// isTokenByte reports whether c may appear in a header name (RFC 9110
// token: letters, digits and !#$%&'*+-.^_`|~), by a bit of tokenBytes.
func isTokenByte(c byte) bool {
	return c < 128 && tokenBytes[c>>6]&(1<<(c&63)) != 0
}

// tokenBytes has bit c%64 of word c/64 set for each token byte c
// (TestTokenBytes lists them).
var tokenBytes = [2]uint64{0x03ff6cfa00000000, 0x57ffffffc7fffffe}
