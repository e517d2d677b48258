package audit

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// corpusCase is one case of testdata/redact/*.txt.
type corpusCase struct {
	name    string
	line    int
	in      string
	secrets []string
	want    string
}

// readCorpus reads a corpus file: "== name" starts a case, "-- secret"
// and "-- want" start its sections; lines before the first case are
// comments. A section ends at the blank line before the next case.
func readCorpus(t *testing.T, name string) []corpusCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "redact", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		cases   []corpusCase
		cur     *corpusCase
		section string
		lines   []string
	)
	flush := func() {
		if cur == nil {
			return
		}
		text := strings.Join(lines, "\n")
		switch section {
		case "in":
			cur.in = text
		case "secret":
			cur.secrets = append(cur.secrets, lines...)
		case "want":
			cur.want = text
		}
		lines = nil
	}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "== "):
			flush()
			if cur != nil {
				cases = append(cases, *cur)
			}
			cur, section = &corpusCase{name: strings.TrimPrefix(line, "== "), line: n}, "in"
		case cur != nil && (line == "-- secret" || line == "-- want"):
			flush()
			section = strings.TrimPrefix(line, "-- ")
		case cur != nil:
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	flush()
	if cur != nil {
		cases = append(cases, *cur)
	}
	for i := range cases { // the blank line that separates cases
		c := &cases[i]
		c.in = strings.TrimSuffix(c.in, "\n")
		c.want = strings.TrimSuffix(c.want, "\n")
		for len(c.secrets) > 0 && c.secrets[len(c.secrets)-1] == "" {
			c.secrets = c.secrets[:len(c.secrets)-1]
		}
	}
	return cases
}

// outputs returns every text toolguard stores or shows for a call whose
// command, or whose argument, is s: the audit record (its fields and its
// JSON line, the reason quoting the command), the live feed's summary and
// reason, approval cards for non-shell tools, and Redact of raw inputs.
func outputs(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{"RedactString": RedactString(s)}
	d := policy.Decision{Verdict: risk.Ask, Rule: "r", Reason: "it runs " + s}
	shell := call.Call{Tool: "Bash", Kind: call.Shell, Command: s, Input: map[string]any{"command": s}}
	rec := NewRecord(time.Unix(0, 0), shell, d, time.Millisecond)
	out["record args"] = rec.Args
	out["record reason"] = rec.Reason
	out["record JSON"] = string(rec.AppendJSON(nil))
	mcp := call.Call{Tool: "mcp__ops__run", Kind: call.MCP, Input: map[string]any{
		"cmd":    s,
		"nested": map[string]any{"argv": []any{"sh", "-c", s}, "script": []string{s}},
	}}
	out["summary of input"] = Summarize(mcp)
	rec = NewRecord(time.Unix(0, 0), mcp, d, time.Millisecond)
	out["record JSON of input"] = string(rec.AppendJSON(nil))
	b, err := json.Marshal(Redact(mcp.Input))
	if err != nil {
		t.Fatal(err)
	}
	out["Redact of input"] = string(b)
	return out
}

// leaks returns the outputs that hold secret, as is or JSON-escaped.
func leaks(outs map[string]string, secret string) []string {
	esc, _ := json.Marshal(secret)
	escaped := strings.Trim(string(esc), `"`)
	var where []string
	for name, o := range outs {
		if strings.Contains(o, secret) || strings.Contains(o, escaped) {
			where = append(where, name)
		}
	}
	sort.Strings(where)
	return where
}

// TestRedactCorpus runs every secret form of testdata/redact/secrets.txt
// through every entry point whose output is stored or shown: none may keep
// the secret, and RedactString must give exactly the expected text (so the
// rest of the command stays readable).
func TestRedactCorpus(t *testing.T) {
	cases := readCorpus(t, "secrets.txt")
	if len(cases) < 60 {
		t.Fatalf("the corpus has %d secret forms, want at least 60", len(cases))
	}
	leaked := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if len(c.secrets) == 0 || c.in == "" {
				t.Fatalf("secrets.txt:%d: case without input or secret", c.line)
			}
			outs := outputs(t, c.in)
			bad := false
			for _, s := range c.secrets {
				if !strings.Contains(c.in, s) {
					t.Errorf("secrets.txt:%d: secret %q is not in the input", c.line, s)
				}
				if where := leaks(outs, s); len(where) > 0 {
					bad = true
					t.Errorf("secrets.txt:%d: LEAK %q survives in %v", c.line, s, where)
				}
			}
			if bad {
				leaked++
			}
			if diff := cmp.Diff(c.want, outs["RedactString"]); diff != "" {
				t.Errorf("secrets.txt:%d: RedactString(%q) (-want +got):\n%s", c.line, c.in, diff)
			}
			if diff := cmp.Diff(cut(c.want), outs["record args"]); diff != "" {
				t.Errorf("secrets.txt:%d: record args (-want +got):\n%s", c.line, diff)
			}
		})
	}
	t.Logf("%d of %d secret forms leaked", leaked, len(cases))
}

// TestRedactCorpusTolerant runs the secret forms through the tolerant
// tokenizer that takes over when the shell parser refuses the text: no
// secret may survive it either.
func TestRedactCorpusTolerant(t *testing.T) {
	for _, c := range readCorpus(t, "secrets.txt") {
		got := redactWith(c.in, false)
		for _, s := range c.secrets {
			if strings.Contains(got, s) {
				t.Errorf("secrets.txt:%d %s: LEAK %q survives the tolerant tokenizer: %q", c.line, c.name, s, got)
			}
		}
	}
}

// TestRedactHarmless checks that the commands of testdata/redact/harmless.txt
// come out of every entry point unchanged.
func TestRedactHarmless(t *testing.T) {
	cases := readCorpus(t, "harmless.txt")
	if len(cases) < 20 {
		t.Fatalf("the harmless corpus has %d forms, want at least 20", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if diff := cmp.Diff(c.in, RedactString(c.in)); diff != "" {
				t.Errorf("harmless.txt:%d: RedactString changed a harmless command (-want +got):\n%s", c.line, diff)
			}
			if diff := cmp.Diff(c.in, redactWith(c.in, false)); diff != "" {
				t.Errorf("harmless.txt:%d: the tolerant tokenizer changed a harmless command (-want +got):\n%s", c.line, diff)
			}
			sh := call.Call{Tool: "Bash", Kind: call.Shell, Command: c.in}
			if diff := cmp.Diff(cut(c.in), Summarize(sh)); diff != "" {
				t.Errorf("harmless.txt:%d: Summarize (-want +got):\n%s", c.line, diff)
			}
		})
	}
}
