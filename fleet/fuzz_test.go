package fleet

import (
	"bytes"
	"encoding/json"
	"testing"
)

// testKey is the fleet key of the fuzz targets.
var testKey = []byte("0123456789abcdef0123456789abcdef-fuzz")

// FuzzDispatchEvents feeds notification payloads (what any client of the
// database could send on the channels), signed and not, to the part of a
// replica's dispatcher that needs no database: it must never panic, pass
// on only named events with valid JSON data, never pass on a new
// approval's card from a notification (those are read from their rows),
// and take nothing unsigned.
func FuzzDispatchEvents(f *testing.F) {
	for _, seed := range []string{
		`{"from":"B","id":"x","owner":"A","status":"approved","answer":{"approved":true,"scope":"session"}}`,
		`{"from":"B","id":"x","owner":"C","status":"approved","answer":{"approved":true}}`,
		`{"from":"A","id":"x","owner":"A","status":"approved","answer":{"approved":true}}`,
		`{"from":"B","events":[{"name":"decision","data":{"tool":"Bash"}}]}`,
		`{"from":"B","events":[{"name":"approval_required","data":{"id":"AAAAAAAAAAAAAAAAAAAAAA","call":{"command":"ls -la"}}}]}`,
		`{"from":"B","status":"watch","watched":true}`,
		`{"from":"B","events":[{"name":"x","data":null}]}`,
		`not json`, `{}`, `[]`, `{"from":1}`,
	} {
		f.Add([]byte(seed), true)
		f.Add([]byte(seed), false)
	}
	f.Fuzz(func(t *testing.T, payload []byte, signed bool) {
		s := &Store{replica: "A", closed: make(chan struct{}), seal: newSealer(testKey)}
		b := &Board{s: s, h: BoardHandlers{Event: func(e Event) {
			if e.Name == "" || !json.Valid(e.Data) || e.Name == EventApprovalRequired {
				t.Fatalf("passed on %+v from %q", e, payload)
			}
		}}}
		if signed {
			sealed, err := s.seal.sealNotice(chanEvents, payload)
			if err != nil {
				t.Fatal(err)
			}
			payload = []byte(sealed)
		}
		w, ok := b.decode(chanEvents, payload)
		if !ok {
			return
		}
		if !signed {
			t.Fatalf("an unsigned payload %q was taken", payload)
		}
		b.dispatchEvents(w)
	})
}

// FuzzNotice checks the notification envelope: what one replica seals on
// a channel opens to the same body there and nowhere else, and a payload
// changed in any byte does not open.
func FuzzNotice(f *testing.F) {
	f.Add("toolguard_events", []byte(`{"from":"B"}`), 3, byte('x'))
	f.Add("toolguard_approvals", []byte(``), 0, byte('.'))
	f.Add("", []byte("a.b.c"), 50, byte(0))
	f.Fuzz(func(t *testing.T, channel string, body []byte, at int, b byte) {
		s := newSealer(testKey)
		sealed, err := s.sealNotice(channel, body)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := s.openNotice(channel, []byte(sealed))
		if !ok || !bytes.Equal(got, body) {
			t.Fatalf("open(seal(%q)) = %q, %v", body, got, ok)
		}
		if _, ok := s.openNotice(channel+"x", []byte(sealed)); ok {
			t.Fatal("opened on another channel")
		}
		if _, ok := newSealer([]byte("another key, also 32 characters long")).openNotice(channel, []byte(sealed)); ok {
			t.Fatal("opened with another key")
		}
		if _, ok := newSealer(nil).openNotice(channel, []byte(sealed)); ok {
			t.Fatal("opened without a key")
		}
		changed := []byte(sealed)
		if at < 0 {
			at = -at
		}
		at %= len(changed)
		if changed[at] == b {
			return
		}
		changed[at] = b
		if _, ok := s.openNotice(channel, changed); ok {
			t.Fatalf("a payload changed at %d opened: %q", at, changed)
		}
	})
}

// FuzzDecodeSpooled feeds spool lines (the file is toolguard's, but a
// torn write or a full disk can leave anything): never a panic, and a
// line that decodes has a well-formed id and a time, and encodes back to
// a line that decodes to the same.
func FuzzDecodeSpooled(f *testing.F) {
	f.Add([]byte(`{"rid":"0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b","record":{"time":"2026-11-24T12:00:00Z","tool":"Bash","verdict":"deny","rule":"audit.write"}}`))
	f.Add([]byte(`{"rid":"x","record":{}}`))
	f.Add([]byte(`{"rid":"0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b","record":{"time":"2026-11-24T12:00:00Z","verdict":"bogus"}}`))
	f.Add([]byte(`{"rid":"0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b","rec`))
	f.Fuzz(func(t *testing.T, line []byte) {
		e, err := decodeSpooled(line)
		if err != nil {
			return
		}
		if !validRID(e.RID) || e.Record.Time.IsZero() {
			t.Fatalf("decoded %+v from %q", e, line)
		}
		again, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		e2, err := decodeSpooled(again)
		if err != nil || e2.RID != e.RID || !e2.Record.Time.Equal(e.Record.Time) || e2.Record.Verdict != e.Record.Verdict {
			t.Fatalf("re-encoded %q decodes to %+v, %v", again, e2, err)
		}
	})
}
