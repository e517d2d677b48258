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
