package cli

import (
	"bytes"
	"context"
	"path/filepath"
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

// TestAuditReadsCompressedRotations: `toolguard audit` lists the records of
// rotated, compressed files with the current one's, oldest first by time.
func TestAuditReadsCompressedRotations(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	path, _ := audit.DefaultPath()
	w := audit.NewWriter(path, audit.WriterOptions{MaxSize: 400})
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	for _, rule := range []string{"r1", "r3", "r2", "r4", "r5"} { // r2 waited for a person: written after r3
		min := int(rule[1] - '0')
		if err := w.Write(context.Background(), audit.Record{Time: at.Add(time.Duration(min) * time.Minute), Agent: "codex", Session: "s9", Tool: "Bash", Kind: "shell", Verdict: risk.Allow, Rule: rule}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	gz, _ := filepath.Glob(path + ".*.gz")
	if len(gz) < 2 {
		t.Fatalf("%d compressed rotated files, want several", len(gz))
	}
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), []string{"audit"}, IO{Stdout: &out, Stderr: &errOut}); code != ExitAllow {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		f := strings.Fields(line)
		got = append(got, strings.Join([]string{f[3], f[4], f[6]}, " "))
	}
	want := []string{"codex s9 r1", "codex s9 r2", "codex s9 r3", "codex s9 r4", "codex s9 r5"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit (-want +got):\n%s", diff)
	}
}
