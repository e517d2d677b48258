package fleet

import (
	"testing"
	"time"
)

// GrantCacheHits is how many grant reads s answered from memory (for the
// external tests).
func GrantCacheHits(s *Store) int64 { return s.grantCache.hits.Load() }

// TestGrantCacheKeepsOnlyWhatIsSafe: an entry is kept only while
// listening and when nothing was forgotten since its read started, and
// only for grantCacheAge.
func TestGrantCacheKeepsOnlyWhatIsSafe(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	var c grantCache
	gen, on := c.generation()
	c.remember("s", gen, now)
	if on || c.none("s", now) {
		t.Fatal("remembered while not listening")
	}
	c.listen(true)
	gen, on = c.generation()
	c.forget() // a grant changed while the read ran
	c.remember("s", gen, now)
	if !on || c.none("s", now) {
		t.Fatal("remembered a read that raced a change")
	}
	gen, _ = c.generation()
	c.remember("s", gen, now)
	for _, tc := range []struct {
		session string
		at      time.Time
		want    bool
	}{
		{"s", now, true},
		{"s", now.Add(grantCacheAge), true},
		{"s", now.Add(grantCacheAge + time.Nanosecond), false},
		{"s", now.Add(-time.Second), false}, // the clock went back
		{"other", now, false},
	} {
		if got := c.none(tc.session, tc.at); got != tc.want {
			t.Errorf("none(%q, %s) = %v; want %v", tc.session, tc.at, got, tc.want)
		}
	}
	if n := c.hits.Load(); n != 2 {
		t.Errorf("hits %d; want 2", n)
	}
	c.listen(false) // the listener lost its connection
	if c.none("s", now) {
		t.Fatal("an entry outlived the listener")
	}
	c.listen(true)
	gen, _ = c.generation()
	for i := range grantCacheSize + 1 {
		c.remember(string(rune('a'+i%26))+time.Duration(i).String(), gen, now)
	}
	if len(c.empty) > grantCacheSize {
		t.Fatalf("%d entries; want at most %d", len(c.empty), grantCacheSize)
	}
}

// FuzzGrantCache runs interleavings of grant reads, changes of the grants
// (each followed, some time later, by the notification that forgets), and
// losses and returns of the listener against a model of the database, and
// checks what makes the cache safe: once every change's notification
// arrived, a session the cache answers for has no grant in the database;
// and a session that has a grant is never answered from memory once its
// change was notified.
//
// Each op byte: the low three bits pick a session, the rest the action
// (start a read, finish the oldest read, grant, revoke, deliver the
// pending notifications, lose or regain the listener, ask the cache).
func FuzzGrantCache(f *testing.F) {
	f.Add([]byte{0x00, 0x08, 0x10, 0x20, 0x00, 0x08, 0x30})
	f.Add([]byte{0x00, 0x10, 0x20, 0x08, 0x30, 0x38})
	f.Add([]byte{0x00, 0x28, 0x08, 0x10, 0x20, 0x38, 0x01, 0x09})
	f.Fuzz(func(t *testing.T, ops []byte) {
		now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		var c grantCache
		c.listen(true)
		granted := map[string]bool{} // the database
		pending := false             // a change whose notification has not arrived
		type read struct {
			session string
			gen     uint64
			on      bool
			found   bool
		}
		var reads []read
		for _, op := range ops {
			s := string(rune('a' + op&7))
			switch op >> 3 & 7 {
			case 0: // a read starts: its snapshot is the database now
				gen, on := c.generation()
				reads = append(reads, read{s, gen, on, granted[s]})
			case 1: // the oldest read ends
				if len(reads) > 0 {
					r := reads[0]
					reads = reads[1:]
					if !r.found && r.on {
						c.remember(r.session, r.gen, now)
					}
				}
			case 2: // a grant is made elsewhere
				granted[s], pending = true, true
			case 3: // revoked elsewhere
				delete(granted, s)
				pending = true
			case 4: // the notifications arrive
				c.forget()
				pending = false
			case 5: // the listener loses its connection (and reconnects)
				c.listen(false)
				c.listen(true)
				pending = false // reconnecting forgets everything
			default: // a decision asks
				if c.none(s, now) && granted[s] && !pending {
					t.Fatalf("session %s has a grant, notified, but the cache answers none (ops % x)", s, ops)
				}
			}
		}
	})
}
