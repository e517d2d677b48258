package server

import (
	"strconv"
	"unicode/utf8"
)

// The body of a deciding request is decoded by a scan of its bytes when it
// has the shape agents send: one object of the known fields in lower case,
// each at most once, with plain strings and booleans, and an input object
// of strings, numbers, booleans and nulls. Anything else — nested input
// values, \u escapes, bytes that are not UTF-8, a policy override,
// malformed JSON — goes through decodeStrict, whose errors say what is
// wrong. encoding/json's reflection was about a twentieth of serve's CPU
// per decision; FuzzDecodeCallFast checks that both give the same request.

// decodeCallFast decodes body into req as decodeStrict would, and reports
// whether it could; false leaves req to be decoded by decodeStrict.
func decodeCallFast(body []byte, req *CallRequest) bool {
	d := fastDecoder{b: body}
	if !d.byte('{') {
		return false
	}
	var seen uint16
	for first := true; ; first = false {
		d.space()
		if first && d.peek() == '}' {
			d.i++
			break
		}
		key, ok := d.str()
		if !ok || !d.byte(':') {
			return false
		}
		bit, ok := d.field(key, req)
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		d.space()
		if c := d.peek(); c == '}' {
			d.i++
			break
		} else if c != ',' {
			return false
		}
		d.i++
	}
	d.space()
	return d.i == len(d.b)
}

// fastDecoder scans a JSON body from i.
type fastDecoder struct {
	b []byte
	i int
}

func (d *fastDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *fastDecoder) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// byte skips space and then c.
func (d *fastDecoder) byte(c byte) bool {
	d.space()
	if d.peek() != c {
		return false
	}
	d.i++
	return true
}

// field decodes the value of the field named key into req; bit is the
// field's bit for finding it twice.
func (d *fastDecoder) field(key string, req *CallRequest) (bit uint16, ok bool) {
	switch key {
	case "tool":
		req.Tool, ok = d.str()
		return 1 << 0, ok
	case "cwd":
		req.Cwd, ok = d.str()
		return 1 << 1, ok
	case "workspace":
		req.Workspace, ok = d.str()
		return 1 << 2, ok
	case "agent":
		req.Agent, ok = d.str()
		return 1 << 3, ok
	case "session":
		req.Session, ok = d.str()
		return 1 << 4, ok
	case "sender":
		req.Sender, ok = d.str()
		return 1 << 5, ok
	case "will_run":
		req.WillRun, ok = d.boolean()
		return 1 << 6, ok
	case "try":
		req.Try, ok = d.boolean()
		return 1 << 7, ok
	case "input":
		req.Input, ok = d.input()
		return 1 << 8, ok
	}
	return 0, false // "policy", another case, an unknown field
}

// str reads a string after optional space: plain characters and the
// escapes other than \u, in valid UTF-8.
func (d *fastDecoder) str() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	start, plain := d.i, true
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == '"':
			s := d.b[start:d.i]
			d.i++
			if plain {
				return string(s), true
			}
			return unescape(s)
		case c == '\\':
			plain = false
			d.i += 2
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			plain = false
			d.i++
		default:
			d.i++
		}
	}
	return "", false
}

// unescape decodes the inside of a string with escapes or non-ASCII
// bytes; false for \u escapes, unknown escapes and bytes that are not
// UTF-8 (encoding/json replaces those).
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
		if i++; i == len(s) {
			return "", false
		}
		switch s[i] {
		case '"', '\\', '/':
			out = append(out, s[i])
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
		default:
			return "", false
		}
	}
	return string(out), true
}

// boolean reads true or false after optional space.
func (d *fastDecoder) boolean() (v, ok bool) {
	d.space()
	switch rest := d.b[d.i:]; {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		d.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		d.i += 5
		return false, true
	}
	return false, false
}

// input reads the input object: string keys, and values that are
// strings, numbers, booleans or null.
func (d *fastDecoder) input() (map[string]any, bool) {
	if !d.byte('{') {
		return nil, false
	}
	m := make(map[string]any, 4)
	d.space()
	if d.peek() == '}' {
		d.i++
		return m, true
	}
	for {
		key, ok := d.str()
		if !ok || !d.byte(':') {
			return nil, false
		}
		d.space()
		var v any
		switch c := d.peek(); {
		case c == '"':
			v, ok = d.str()
		case c == 't' || c == 'f':
			v, ok = d.boolean()
		case c == 'n':
			ok = len(d.b)-d.i >= 4 && string(d.b[d.i:d.i+4]) == "null"
			d.i += 4
		case c == '-' || c >= '0' && c <= '9':
			v, ok = d.number()
		default:
			ok = false
		}
		if !ok {
			return nil, false
		}
		m[key] = v
		d.space()
		switch d.peek() {
		case ',':
			d.i++
		case '}':
			d.i++
			return m, true
		default:
			return nil, false
		}
	}
}

// number reads a JSON number as encoding/json decodes it into an any: a
// float64.
func (d *fastDecoder) number() (any, bool) {
	start := d.i
	if d.peek() == '-' {
		d.i++
	}
	switch c := d.peek(); {
	case c == '0':
		d.i++
	case c >= '1' && c <= '9':
		d.digits()
	default:
		return nil, false
	}
	if d.peek() == '.' {
		d.i++
		if !d.digits() {
			return nil, false
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if !d.digits() {
			return nil, false
		}
	}
	f, err := strconv.ParseFloat(string(d.b[start:d.i]), 64)
	return f, err == nil
}

// digits skips one or more digits.
func (d *fastDecoder) digits() bool {
	start := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}
