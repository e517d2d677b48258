package cli

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/risk"
)

// syncBuffer is a bytes.Buffer safe to read while a command writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestAuditFollow(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	path, _ := audit.DefaultPath()
	w := audit.NewWriter(path, audit.WriterOptions{})
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	write := func(rule string, v risk.Verdict) {
		if err := w.Write(context.Background(), audit.Record{Time: at, Tool: "Bash", Kind: "shell", Verdict: v, Rule: rule}); err != nil {
			t.Fatal(err)
		}
	}
	write("old", risk.Deny)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int)
	go func() {
		done <- Run(ctx, []string{"audit", "--follow", "--verdict", "deny", "--json"}, IO{Stdout: &out, Stderr: &errOut})
	}()
	waitOutput(t, &out, `"rule":"old"`)
	write("skipped", risk.Allow)
	write("new", risk.Deny)
	waitOutput(t, &out, `"rule":"new"`)
	cancel()
	if code := <-done; code != ExitAllow {
		t.Errorf("exit code %d, stderr %s", code, errOut.String())
	}
	var rules []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		rules = append(rules, line[strings.Index(line, `"rule":`):strings.Index(line, `,"latency_ms"`)])
	}
	if diff := cmp.Diff([]string{`"rule":"old"`, `"rule":"new"`}, rules); diff != "" {
		t.Errorf("followed (-want +got):\n%s", diff)
	}
}

func waitOutput(t *testing.T, b *syncBuffer, s string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(b.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("output never contained %s; got:\n%s", s, b.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := map[string]time.Time{
		"90m":                  now.Add(-90 * time.Minute),
		"24h":                  now.Add(-24 * time.Hour),
		"7d":                   now.AddDate(0, 0, -7),
		"2026-11-20":           time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC),
		"2026-11-21T09:30:00Z": time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC),
	}
	for in, want := range tests {
		got, err := parseSince(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "-5m", "yesterday", "3x", "-1d"} {
		if _, err := parseSince(bad, now); err == nil {
			t.Errorf("parseSince(%q) accepted", bad)
		}
	}
}
