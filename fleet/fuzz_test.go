package fleet

import (
	"encoding/json"
	"testing"
)

// FuzzDispatchEvents feeds notification payloads (what any client of the
// database could send on the channels) to the part of a replica's
// dispatcher that needs no database: it must never panic, and pass on
// only named events with valid JSON data.
func FuzzDispatchEvents(f *testing.F) {
	for _, seed := range []string{
		`{"from":"B","id":"x","owner":"A","status":"approved","answer":{"approved":true,"scope":"session"}}`,
		`{"from":"B","id":"x","owner":"C","status":"approved","answer":{"approved":true}}`,
		`{"from":"A","id":"x","owner":"A","status":"approved","answer":{"approved":true}}`,
		`{"from":"B","events":[{"name":"decision","data":{"tool":"Bash"}}]}`,
		`{"from":"B","status":"watch","watched":true}`,
		`{"from":"B","events":[{"name":"x","data":null}]}`,
		`not json`, `{}`, `[]`, `{"from":1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		s := &Store{replica: "A", closed: make(chan struct{})}
		b := &Board{s: s, h: BoardHandlers{Event: func(e Event) {
			if e.Name == "" || !json.Valid(e.Data) {
				t.Fatalf("passed on %+v from %q", e, payload)
			}
		}}}
		if w, ok := b.decode(payload); ok {
			b.dispatchEvents(w)
		}
	})
}
