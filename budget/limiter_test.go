package budget

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSubAgentDefaults(t *testing.T) {
	l, err := NewLimiter(SubAgentLimits{MaxTotal: 7})
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultSubAgentLimits
	want.MaxTotal = 7
	if diff := cmp.Diff(want, l.Limits()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := NewLimiter(SubAgentLimits{MaxDepth: -1}); err == nil || !strings.Contains(err.Error(), "max_depth") {
		t.Errorf("negative max_depth: %v", err)
	}
}

func TestAcquireChecks(t *testing.T) {
	l, _ := NewLimiter(SubAgentLimits{MaxPromptChars: 10, MaxDepth: 2})
	tests := []struct {
		name          string
		depth, prompt int
		want          string // LimitError.Limit; "" for success
	}{
		{"ok top level", 0, 5, ""},
		{"ok depth 1", 1, 10, ""},
		{"empty prompt", 0, 0, "prompt"},
		{"long prompt", 0, 11, "prompt"},
		{"too deep", 2, 5, "depth"},
		{"negative depth", -1, 5, "depth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			release, err := l.Acquire(context.Background(), tt.depth, tt.prompt)
			got := ""
			if le, ok := errors.AsType[*LimitError](err); ok {
				got = le.Limit
			} else if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("limit = %q, want %q (err %v)", got, tt.want, err)
			}
			if release != nil {
				release()
			}
		})
	}
}

func TestAcquireTotal(t *testing.T) {
	l, _ := NewLimiter(SubAgentLimits{MaxTotal: 3})
	for range 3 {
		release, err := l.Acquire(context.Background(), 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		release()
		release() // a second call does nothing
	}
	_, err := l.Acquire(context.Background(), 0, 1)
	if got, want := err.Error(), "sub-agent refused: 3 sub-agents were already started; the limit is 3"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
}

func TestAcquireConcurrent(t *testing.T) {
	l, _ := NewLimiter(SubAgentLimits{MaxConcurrent: 2, MaxTotal: 100, SlotWait: 20 * time.Millisecond})
	r1, _ := l.Acquire(context.Background(), 0, 1)
	r2, _ := l.Acquire(context.Background(), 0, 1)
	_, err := l.Acquire(context.Background(), 0, 1)
	if le, ok := errors.AsType[*LimitError](err); !ok || le.Limit != "concurrent" {
		t.Fatalf("third concurrent Acquire = %v, want a concurrent LimitError", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Acquire(ctx, 0, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Acquire = %v", err)
	}
	r1()
	r3, err := l.Acquire(context.Background(), 0, 1)
	if err != nil {
		t.Fatalf("after a release: %v", err)
	}
	r2()
	r3()
	// Refused attempts gave their total back: 3 granted so far.
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total != 3 {
		t.Errorf("total = %d, want 3", l.total)
	}
}

func TestAcquireRace(t *testing.T) {
	l, _ := NewLimiter(SubAgentLimits{MaxConcurrent: 3, MaxTotal: 1000})
	var mu sync.Mutex
	running, peak := 0, 0
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			release, err := l.Acquire(context.Background(), 0, 1)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			running++
			peak = max(peak, running)
			mu.Unlock()
			time.Sleep(time.Millisecond)
			mu.Lock()
			running--
			mu.Unlock()
			release()
		})
	}
	wg.Wait()
	if peak > 3 {
		t.Errorf("peak concurrency %d, limit 3", peak)
	}
}

func TestTrimOutput(t *testing.T) {
	l, _ := NewLimiter(SubAgentLimits{MaxOutputChars: 3})
	tests := map[string]string{
		"":     "",
		"abc":  "abc",
		"abcd": "abc\n[output cut at 3 characters]",
		"éèêë": "éèê\n[output cut at 3 characters]",
	}
	for in, want := range tests {
		if got := l.TrimOutput(in); got != want {
			t.Errorf("TrimOutput(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWithDeadline(t *testing.T) {
	l, _ := NewLimiter(SubAgentLimits{Timeout: time.Minute})
	ctx, cancel := l.WithDeadline(context.Background())
	defer cancel()
	dl, ok := ctx.Deadline()
	if !ok || time.Until(dl) > time.Minute || time.Until(dl) < 50*time.Second {
		t.Errorf("deadline %v, want about a minute from now", dl)
	}
}

func TestSessionTotals(t *testing.T) {
	dir := t.TempDir()
	s, err := NewSessionTotals(dir, 3)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted := 0
	for range 10 {
		wg.Go(func() {
			other, _ := NewSessionTotals(dir, 3) // as if another hook process
			if _, err := other.Take(context.Background(), "s1"); err == nil {
				mu.Lock()
				granted++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if granted != 3 {
		t.Errorf("granted %d of 10, want 3", granted)
	}
	n, err := s.Take(context.Background(), "s1")
	if got, want := err.Error(), "sub-agent refused: this session already started 3 sub-agents; the limit is 3"; got != want || n != 3 {
		t.Errorf("Take = %d, %q; want 3, %q", n, got, want)
	}
	if n, err := s.Take(context.Background(), "s2"); n != 1 || err != nil {
		t.Errorf("another session: %d, %v", n, err)
	}
	if _, err := NewSessionTotals(dir, -1); err == nil {
		t.Error("negative max_total accepted")
	}
	if d, _ := NewSessionTotals(dir, 0); d.max != 10 {
		t.Errorf("default max_total %d", d.max)
	}
}
