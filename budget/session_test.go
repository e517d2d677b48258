package budget_test

import (
	"context"
	"testing"
	"time"

	"github.com/toolguard/toolguard/budget"
)

// TestSessionStarts: a session's first call records its start, later
// calls (any process) read the same one; sessions are apart; a call
// without a session id has no start.
func TestSessionStarts(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := budget.NewSessionStarts(dir)
	t0 := time.Date(2026, 11, 28, 17, 0, 0, 0, time.UTC)
	for i, tc := range []struct {
		session string
		now     time.Time
		want    time.Time
	}{
		{"a", t0, t0},
		{"a", t0.Add(time.Hour), t0},
		{"b/../x", t0.Add(2 * time.Hour), t0.Add(2 * time.Hour)},
		{"", t0, time.Time{}},
	} {
		got, err := s.Start(ctx, tc.session, tc.now)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%d: Start(%q) = %v, %v; want %v", i, tc.session, got, err, tc.want)
		}
	}
	if got, err := budget.NewSessionStarts(dir).Start(ctx, "a", t0.Add(3*time.Hour)); err != nil || !got.Equal(t0) {
		t.Errorf("another process: %v, %v; want %v", got, err, t0)
	}
}
