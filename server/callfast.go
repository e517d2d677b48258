package server

import "github.com/toolguard/toolguard/internal/jsonscan"

// The body of a deciding request is decoded by a scan of its bytes
// (internal/jsonscan, shared with the hook's payload) when it has the
// shape agents send: one object of the known fields in lower case, each at
// most once, with plain strings and booleans, and an input object of
// strings, numbers, booleans and nulls. Anything else — nested input
// values, \u escapes, bytes that are not UTF-8, a policy override,
// malformed JSON — goes through decodeStrict, whose errors say what is
// wrong. encoding/json's reflection was about a twentieth of serve's CPU
// per decision; FuzzDecodeCallFast checks that both give the same request.

// decodeCallFast decodes body into req as decodeStrict would, and reports
// whether it could; false leaves req to be decoded by decodeStrict.
//
// The strings of a body of up to presizedBody bytes are slices of one
// string copy of it (one allocation, not one a string), so that the body's
// buffer can be reused; a larger body's are copies, so that a name kept
// from it does not keep the whole of it.
func decodeCallFast(body []byte, req *CallRequest) bool {
	s := jsonscan.New(body)
	if len(body) <= presizedBody {
		s = jsonscan.NewText(body, string(body))
	}
	var seen uint16
	return s.Members(func(key string) bool {
		bit, ok := field(&s, key, req)
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	}) && s.End()
}

// field decodes the value of the field named key into req; bit is the
// field's bit for finding it twice.
func field(s *jsonscan.Scanner, key string, req *CallRequest) (bit uint16, ok bool) {
	switch key {
	case "tool":
		req.Tool, ok = s.Str()
		return 1 << 0, ok
	case "cwd":
		req.Cwd, ok = s.Str()
		return 1 << 1, ok
	case "workspace":
		req.Workspace, ok = s.Str()
		return 1 << 2, ok
	case "agent":
		req.Agent, ok = s.Str()
		return 1 << 3, ok
	case "session":
		req.Session, ok = s.Str()
		return 1 << 4, ok
	case "sender":
		req.Sender, ok = s.Str()
		return 1 << 5, ok
	case "will_run":
		req.WillRun, ok = s.Bool()
		return 1 << 6, ok
	case "try":
		req.Try, ok = s.Bool()
		return 1 << 7, ok
	case "input":
		req.Input, ok = input(s)
		return 1 << 8, ok
	}
	return 0, false // "policy", another case, an unknown field
}

// input reads the input object: string keys, and values that are
// strings, numbers, booleans or null.
func input(s *jsonscan.Scanner) (map[string]any, bool) {
	m := make(map[string]any, 4)
	ok := s.Members(func(key string) bool {
		v, ok := s.Scalar()
		m[key] = v
		return ok
	})
	return m, ok
}
