package policy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

var update = flag.Bool("update", false, "rewrite testdata/policies/*/want.jsonl with the current decisions")

// conformanceHome and conformanceWork are fixed, non-existent directories so
// that decisions do not depend on the machine.
const (
	conformanceHome = "/home/tester"
	conformanceWork = "/work/project"
)

// wantLine is the part of a decision a conformance case pins down.
type wantLine struct {
	Verdict string `json:"verdict"`
	Tier    string `json:"tier"`
	Blast   string `json:"blast_radius"`
	Rule    string `json:"rule"`
	Comment string `json:"call,omitempty"`
}

type caseCall struct {
	Tool      string         `json:"tool"`
	Input     map[string]any `json:"input"`
	Cwd       string         `json:"cwd"`
	Workspace string         `json:"workspace"`
	Agent     string         `json:"agent"`
}

// TestPolicyConformance runs every case folder under testdata/policies:
// policy.toml (optional) is compiled, each line of calls.jsonl is decided,
// and the decisions are compared with want.jsonl. Run with -update to
// rewrite the goldens after a deliberate change, then review the diff.
func TestPolicyConformance(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/policies/*")
	if len(dirs) == 0 {
		t.Fatal("no conformance cases found")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) { runCase(t, dir) })
	}
}

func runCase(t *testing.T, dir string) {
	p := compileCase(t, dir)
	var got []wantLine
	for _, c := range readCalls(t, filepath.Join(dir, "calls.jsonl")) {
		d := p.Decide(context.Background(), normalizeCase(t, p, c))
		got = append(got, wantLine{Verdict: d.Verdict.String(), Tier: d.Tier.String(), Blast: d.Blast.String(), Rule: d.Rule, Comment: describe(c)})
	}
	wantFile := filepath.Join(dir, "want.jsonl")
	if *update {
		writeWant(t, wantFile, got)
		return
	}
	want := readWant(t, wantFile)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decisions differ from %s (-want +got):\n%s", wantFile, diff)
	}
}

func compileCase(t *testing.T, dir string) *policy.Policy {
	t.Helper()
	opts := policy.LoadOptions{}
	if _, err := os.Stat(filepath.Join(dir, "policy.toml")); err == nil {
		opts.ConfigFile = filepath.Join(dir, "policy.toml")
	}
	loaded, err := policy.Load(opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policy.Compile(loaded.Config, policy.Options{Home: conformanceHome})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func normalizeCase(t *testing.T, p *policy.Policy, c caseCall) call.Call {
	t.Helper()
	cwd := c.Cwd
	if cwd == "" {
		cwd = conformanceWork
	}
	ws := c.Workspace
	if ws == "" {
		ws = conformanceWork
	}
	n, err := p.Tools().Normalize(call.Request{Tool: c.Tool, Input: c.Input, Cwd: cwd, Workspace: ws, Who: call.Who{Agent: c.Agent}})
	if err != nil {
		return call.Call{Tool: c.Tool} // invalid: Decide must deny it
	}
	return n
}

func describe(c caseCall) string {
	b, _ := json.Marshal(c.Input)
	return c.Tool + " " + string(b)
}

func readCalls(t *testing.T, file string) []caseCall {
	t.Helper()
	var out []caseCall
	for _, line := range readLines(t, file) {
		var c caseCall
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s: %v in %q", file, err, line)
		}
		out = append(out, c)
	}
	return out
}

func readWant(t *testing.T, file string) []wantLine {
	t.Helper()
	var out []wantLine
	for _, line := range readLines(t, file) {
		var w wantLine
		if err := json.Unmarshal([]byte(line), &w); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out = append(out, w)
	}
	return out
}

func readLines(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

func writeWant(t *testing.T, file string, lines []wantLine) {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
