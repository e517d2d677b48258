package fleet

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestNewRID: an id is a canonical UUID of version 7 and RFC 9562's
// variant whose first 48 bits are the time in milliseconds, and ids drawn
// across several refills of the random buffer are all different.
func TestNewRID(t *testing.T) {
	now := time.UnixMilli(0x0123_4567_89ab)
	seen := map[string]bool{}
	for i := range 3*ridBatch + 5 {
		id := newRID(now)
		if !validRID(id) {
			t.Fatalf("id %d: %q is not a canonical UUID", i, id)
		}
		if id[:13] != "01234567-89ab" || id[14] != '7' || !strings.ContainsRune("89ab", rune(id[19])) {
			t.Errorf("id %d: %q: want the time 01234567-89ab, version 7 and variant 8, 9, a or b", i, id)
		}
		if seen[id] {
			t.Fatalf("id %d: %q was drawn before", i, id)
		}
		seen[id] = true
	}
}

// TestRandomBitsHandsOutEachByteOnce: bytes come from the end of the
// buffer in order, and a request larger than what is left refills it.
func TestRandomBitsHandsOutEachByteOnce(t *testing.T) {
	var r randomBits
	for i := range r.buf {
		r.buf[i] = byte(i)
	}
	n := len(r.buf)
	r.left = 25
	got := make([]byte, 10)
	r.take(got)
	if want := seq(n-25, 10); !cmp.Equal(got, want) {
		t.Errorf("first take: %v, want %v", got, want)
	}
	r.take(got)
	if want := seq(n-15, 10); !cmp.Equal(got, want) {
		t.Errorf("second take: %v, want %v", got, want)
	}
	if r.left != 5 {
		t.Errorf("left %d after two takes of 10 from 25, want 5", r.left)
	}
	r.take(got) // 10 > 5 left: refilled from crypto/rand
	if r.left != n-10 {
		t.Errorf("left %d after a take past the end, want %d (a refill, then 10 handed out)", r.left, n-10)
	}
	if cmp.Equal(r.buf[:n-25], seq(0, n-25)) {
		t.Error("the buffer was not refilled")
	}
}

func seq(from, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(from + i)
	}
	return out
}
