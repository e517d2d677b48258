package audit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

func writeAll(t *testing.T, w *Writer, recs ...Record) {
	t.Helper()
	for _, r := range recs {
		if err := w.Write(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

func TestQueryFilter(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	w := NewWriter(path, WriterOptions{MaxSize: 300, Keep: 10}) // rotates often
	t.Cleanup(func() { w.Close() })
	recs := []Record{
		{Time: t0, Tool: "Bash", Kind: call.Shell, Verdict: risk.Allow, Rule: "a"},
		{Time: t0.Add(time.Minute), Tool: "Write", Kind: call.Write, Verdict: risk.Ask, Rule: "b"},
		{Time: t0.Add(2 * time.Minute), Tool: "Bash", Kind: call.Shell, Verdict: risk.Deny, Rule: "c"},
		{Time: t0.Add(3 * time.Minute), Tool: "mcp__x__y", Kind: call.MCP, Verdict: risk.Deny, Rule: "d"},
	}
	writeAll(t, w, recs...)
	tests := []struct {
		name string
		f    Filter
		want []string
	}{
		{"all", Filter{}, []string{"a", "b", "c", "d"}},
		{"since", Filter{Since: t0.Add(90 * time.Second)}, []string{"c", "d"}},
		{"verdict", Filter{Verdicts: []risk.Verdict{risk.Deny}}, []string{"c", "d"}},
		{"two verdicts", Filter{Verdicts: []risk.Verdict{risk.Allow, risk.Ask}}, []string{"a", "b"}},
		{"tool name", Filter{Tool: "bash"}, []string{"a", "c"}},
		{"tool kind", Filter{Tool: "mcp"}, []string{"d"}},
		{"combined", Filter{Tool: "Bash", Verdicts: []risk.Verdict{risk.Deny}}, []string{"c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Query(path, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var rules []string
			for _, r := range got {
				rules = append(rules, r.Rule)
			}
			if diff := cmp.Diff(tt.want, rules); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestQueryMalformed(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	content := `{"time":"2026-11-21T09:00:00Z","tool":"Bash","kind":"shell","verdict":"allow","tier":"read","blast_radius":"none","rule":"a","latency_ms":1}
not json
{"time":"2026-11-21T09:00:00Z","tool":"Bash","kind":"shell","verdict":"maybe","rule":"b"}
{"time":"2026-11-21T09:00:00Z","tool":"Bash","kind":"shell","verdict":"deny","tier":"read","blast_radius":"none","rule":"c","latency_ms":1}
{"time":"2026-11-21T09:00:00Z","tool":"Ba`
	os.WriteFile(path, []byte(content), 0o600)
	got, err := Query(path, Filter{})
	var rules []string
	for _, r := range got {
		rules = append(rules, r.Rule)
	}
	if diff := cmp.Diff([]string{"a", "c"}, rules); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	me, ok := errors.AsType[*MalformedError](err)
	if !ok || me.Lines != 2 || me.First != path+`:2: invalid character 'o' in literal null (expecting 'u')` {
		t.Errorf("error = %#v, want 2 malformed lines starting at line 2", err)
	}
}

func TestFollow(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	w := NewWriter(path, WriterOptions{MaxSize: 300, Keep: 10})
	t.Cleanup(func() { w.Close() })
	writeAll(t, w, Record{Time: t0, Tool: "Bash", Rule: "old1"}, Record{Time: t0, Tool: "Read", Rule: "old2"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var mu sync.Mutex
	var got []string
	done := make(chan error)
	go func() {
		done <- Follow(ctx, path, Filter{Tool: "Bash"}, func(r Record) error {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, r.Rule)
			if len(got) == 4 {
				cancel()
			}
			return nil
		})
	}()
	time.Sleep(2 * PollInterval)
	writeAll(t, w, Record{Time: t0, Tool: "Bash", Rule: "new1"}, Record{Time: t0, Tool: "Write", Rule: "skip"})
	time.Sleep(2 * PollInterval)
	writeAll(t, w, Record{Time: t0, Tool: "Bash", Rule: "new2"}, Record{Time: t0, Tool: "Bash", Rule: "new3"})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"old1", "new1", "new2", "new3"}, got); diff != "" {
		t.Errorf("followed records (-want +got):\n%s", diff)
	}
}

func TestFollowCallbackError(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	writeAll(t, NewWriter(path, WriterOptions{}), Record{Time: t0, Tool: "Bash"})
	stop := errors.New("enough")
	err := Follow(context.Background(), path, Filter{}, func(Record) error { return stop })
	if !errors.Is(err, stop) {
		t.Errorf("Follow = %v, want the callback's error", err)
	}
}

func TestSummarize(t *testing.T) {
	long := make([]byte, 300)
	for i := range long {
		long[i] = 'x'
	}
	tests := []struct {
		name string
		c    call.Call
		want string
	}{
		{"shell", call.Call{Kind: call.Shell, Command: "curl -u bob:pw https://bob:pw@h/ -H 'Authorization: Bearer abcdefgh123'"},
			"curl -u bob:*** https://bob:***@h/ -H 'Authorization: ***'"},
		{"path first", call.Call{Kind: call.Write, Input: map[string]any{"content": "hi\nthere", "file_path": "/w/a.go", "mode": 420.0}},
			"file_path=/w/a.go content=hi⏎there mode=420"},
		{"secret key", call.Call{Kind: call.MCP, Input: map[string]any{"api_key": "abc", "query": "q"}},
			"api_key=*** query=q"},
		{"nested", call.Call{Kind: call.MCP, Input: map[string]any{"headers": map[string]any{"Cookie": "c", "A": "b"}}},
			`headers={"A":"b","Cookie":"***"}`},
		{"cut", call.Call{Kind: call.Write, Input: map[string]any{"content": string(long)}},
			"content=" + string(long[:MaxValueLen]) + "…"},
		{"cut at rune", call.Call{Kind: call.Write, Input: map[string]any{"content": string(long[:199]) + "é"}},
			"content=" + string(long[:199]) + "…"},
		{"no arguments", call.Call{Kind: call.MCP, Input: map[string]any{}}, ""},
		{"one", call.Call{Kind: call.Read, Input: map[string]any{"file_path": "/w/a.go"}}, "file_path=/w/a.go"},
		{"every path key", call.Call{Kind: call.MCP, Input: map[string]any{"z": true, "pattern": "*.go", "url": "https://h/",
			"notebook_path": "/w/n.ipynb", "path": "/w", "file_path": "/w/a.go", "a": nil}},
			"file_path=/w/a.go path=/w notebook_path=/w/n.ipynb url=https://h/ pattern=*.go a=null z=true"},
		{"more than eight", call.Call{Kind: call.MCP, Input: map[string]any{"k9": "9", "k1": "1", "path": "/p", "k8": "8", "k2": "2",
			"k7": "7", "k3": "3", "k6": "6", "k4": "4", "k5": "5", "token": "t"}},
			"path=/p k1=1 k2=2 k3=3 k4=4 k5=5 k6=6 k7=7 k8=8 k9=9 token=***"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Summarize(tt.c)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewRecord(t *testing.T) {
	c := call.Call{Kind: call.Shell, Tool: "Bash", Command: "rm -rf build", Who: call.Who{Agent: "claude-code", Session: "s1", Sender: "u"}}
	d := policy.Decision{Verdict: risk.Ask, Tier: risk.Destructive, Blast: risk.BlastMedium, Category: risk.CatFSDelete,
		Rule: "core.fs.rm-recursive", Reason: "deletes build with token=abc", Unverifiable: true}
	got := NewRecord(t0, c, d, 1500*time.Microsecond)
	want := Record{Time: t0, Agent: "claude-code", Session: "s1", Sender: "u", Tool: "Bash", Kind: call.Shell,
		Args: "rm -rf build", Verdict: risk.Ask, Tier: risk.Destructive, Blast: risk.BlastMedium, Category: risk.CatFSDelete,
		Rule: "core.fs.rm-recursive", Reason: "deletes build with token=***", LatencyMS: 1.5, Unverifiable: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzQuery(f *testing.F) {
	f.Add([]byte(`{"time":"2026-11-21T09:00:00Z","tool":"Bash","verdict":"deny"}` + "\n"))
	f.Add([]byte("{}\n\n{\"verdict\":7}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), FileName)
		os.WriteFile(path, data, 0o600)
		recs, err := Query(path, Filter{Verdicts: []risk.Verdict{risk.Deny}})
		if _, ok := errors.AsType[*MalformedError](err); err != nil && !ok {
			t.Fatalf("unexpected error %v", err)
		}
		for _, r := range recs {
			if r.Verdict != risk.Deny {
				t.Errorf("filter let through %v", r.Verdict)
			}
		}
	})
}
