package policy_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/internal/docblock"
	"github.com/toolguard/toolguard/internal/peercorpus"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// The peer corpora live in ../shared/corpus/peers beside the repository and
// are read at run time, never copied here. Each case is a shell command
// with a peer's expectation, reduced to "must block" (the peer denies or
// asks because the command is dangerous) or "must pass" (the peer lets it
// through as harmless). Cases whose verdict depends on a peer-specific
// configuration we cannot express are skipped and counted.

type peerCase struct {
	corpus  string
	command string
	block   bool
	source  string
}

// peerTargets are issue 3's bars, in the trusted mode.
const (
	minBlockRate = 0.99
	minPassRate  = 0.95
)

// TestPeerCorpora runs every peer case through Decide in the trusted mode
// and reports agreement per corpus. Must-block cases must not be allowed;
// must-pass cases must be allowed. Deliberate divergences are listed in
// testdata/peers/divergences.toml and ../rules/testdata/divergences.toml
// by command hash with the reason. It fails below the targets, on an entry
// of the policy's list that matches no case or whose cases agree now, and
// when the raw figures (divergences counted as disagreements) move off the
// floor in testdata/peers/floor.txt, which only rises.
func TestPeerCorpora(t *testing.T) {
	peercorpus.Dir(t)
	cases := loadPeerCases(t)
	peercorpus.NonEmpty(t, len(cases), "the peer corpora's shell commands")
	div := loadDivergences(t)
	p := mustCompileHome(t, &policy.Settings{Mode: policy.ModeTrusted}, "/home/tester")
	stats := map[string]*peerStats{}
	var failures []string
	for _, c := range cases {
		d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: c.command, Cwd: "/work/project", Workspace: "/work/project"})
		ok := (d.Verdict != risk.Allow) == c.block
		listed := div[divKey(c)]
		if listed != nil {
			listed.matched = true
			listed.needed = listed.needed || !ok
		}
		s := statsFor(stats, c.corpus)
		s.count(c.block, ok, listed != nil)
		if !ok && listed == nil {
			failures = append(failures, fmt.Sprintf("%s %s [%s] %q → %s (%s)", c.corpus, divKey(c), wantWord(c.block), c.command, d.Verdict, d.Rule))
		}
	}
	table := reportPeers(t, stats)
	checkTargets(t, stats, failures)
	div.checkStale(t, policyDivergences)
	all := stats["ALL"]
	rawBlock, rawPass := all.blockOK-all.divBlock, all.passOK-(all.divergent-all.divBlock)
	peercorpus.CheckFloor(t, filepath.Join("testdata", "peers", "floor.txt"), map[string]peercorpus.Figure{
		"must-block": {Agree: rawBlock, Cases: all.block}, "must-pass": {Agree: rawPass, Cases: all.pass}}, *update)
	docblock.Check(t, benchmarksDoc, "peers", table, *update)
}

func wantWord(block bool) string {
	if block {
		return "must block"
	}
	return "must pass"
}

type peerStats struct {
	block, blockOK, pass, passOK, divergent, divBlock int
}

func statsFor(m map[string]*peerStats, corpus string) *peerStats {
	if m[corpus] == nil {
		m[corpus] = &peerStats{}
	}
	return m[corpus]
}

// count records one case; a listed divergence counts as agreeing.
func (s *peerStats) count(block, ok, divergent bool) {
	if divergent && !ok {
		s.divergent++
		if block {
			s.divBlock++
		}
		ok = true
	}
	if block {
		s.block++
		if ok {
			s.blockOK++
		}
		return
	}
	s.pass++
	if ok {
		s.passOK++
	}
}

// reportPeers logs the figures, adds the total to stats as "ALL", and
// returns them as the Markdown table docs/benchmarks.md carries.
func reportPeers(t *testing.T, stats map[string]*peerStats) string {
	names := make([]string, 0, len(stats))
	for n := range stats {
		names = append(names, n)
	}
	sort.Strings(names)
	var total peerStats
	var md strings.Builder
	md.WriteString("| corpus | must block | must pass | listed divergences |\n|---|---:|---:|---:|\n")
	for _, n := range names {
		s := stats[n]
		t.Logf("%-28s must-block %4d/%4d (%5.1f%%)  must-pass %4d/%4d (%5.1f%%)  listed divergences %d",
			n, s.blockOK, s.block, pct(s.blockOK, s.block), s.passOK, s.pass, pct(s.passOK, s.pass), s.divergent)
		fmt.Fprintf(&md, "| %s | %d/%d | %d/%d | %d |\n", n, s.blockOK, s.block, s.passOK, s.pass, s.divergent)
		total.block += s.block
		total.blockOK += s.blockOK
		total.pass += s.pass
		total.passOK += s.passOK
		total.divergent += s.divergent
		total.divBlock += s.divBlock
	}
	t.Logf("%-28s must-block %4d/%4d (%5.1f%%)  must-pass %4d/%4d (%5.1f%%)  listed divergences %d",
		"ALL", total.blockOK, total.block, pct(total.blockOK, total.block), total.passOK, total.pass, pct(total.passOK, total.pass), total.divergent)
	rawBlock, rawPass := total.blockOK-total.divBlock, total.passOK-(total.divergent-total.divBlock)
	t.Logf("%-28s must-block %4d/%4d (%5.1f%%)  must-pass %4d/%4d (%5.1f%%)  (listed divergences counted as disagreements)",
		"RAW", rawBlock, total.block, pct(rawBlock, total.block), rawPass, total.pass, pct(rawPass, total.pass))
	fmt.Fprintf(&md, "| **all** | **%d/%d (%.1f%%)** | **%d/%d (%.1f%%)** | %d |\n", total.blockOK, total.block, pct(total.blockOK, total.block),
		total.passOK, total.pass, pct(total.passOK, total.pass), total.divergent)
	fmt.Fprintf(&md, "| all, divergences counted as disagreements (the floor) | %d/%d (%.1f%%) | %d/%d (%.1f%%) | |\n",
		rawBlock, total.block, pct(rawBlock, total.block), rawPass, total.pass, pct(rawPass, total.pass))
	stats["ALL"] = &total
	return md.String()
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func checkTargets(t *testing.T, stats map[string]*peerStats, failures []string) {
	all := stats["ALL"]
	blockRate := float64(all.blockOK) / float64(max(all.block, 1))
	passRate := float64(all.passOK) / float64(max(all.pass, 1))
	if os.Getenv("TGTEST_PEER_FAILURES") != "" || blockRate < minBlockRate || passRate < minPassRate {
		for _, f := range failures {
			t.Log("disagrees:", f)
		}
	}
	if blockRate < minBlockRate {
		t.Errorf("must-block agreement %.2f%% is under %.0f%%", 100*blockRate, 100*minBlockRate)
	}
	if passRate < minPassRate {
		t.Errorf("must-pass agreement %.2f%% is under %.0f%%", 100*passRate, 100*minPassRate)
	}
}

// divKey identifies a case without copying it: the first twelve hex
// digits of the command's SHA-256.
func divKey(c peerCase) string {
	sum := sha256.Sum256([]byte(c.command))
	return hex.EncodeToString(sum[:])[:12]
}

type divergence struct {
	Corpus string `toml:"corpus"`
	ID     string `toml:"id"`
	Reason string `toml:"reason"`
}

// divergenceFiles hold the deliberate divergences: the rule packs' (which
// the rules package's own corpus report shares, and checks for staleness)
// and the policy's (paths, URLs, modes). Cases are matched by id in every
// corpus.
const policyDivergences = "testdata/peers/divergences.toml"

var divergenceFiles = []string{"../rules/testdata/divergences.toml", policyDivergences}

// listedDivergence is one entry, with what this run found of it.
type listedDivergence struct {
	divergence
	file    string
	matched bool // some case has its id
	needed  bool // some such case disagrees with its peer
}

type divergenceList map[string]*listedDivergence

func loadDivergences(t *testing.T) divergenceList {
	out := divergenceList{}
	for _, f := range divergenceFiles {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Divergence []divergence `toml:"divergence"`
		}
		if err := toml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, d := range doc.Divergence {
			if d.ID == "" || d.Reason == "" {
				t.Fatalf("%s: every divergence needs corpus, id and reason: %+v", f, d)
			}
			if prev := out[d.ID]; prev != nil && prev.file == f && prev.Corpus == d.Corpus {
				t.Errorf("%s: %s %s is listed twice", f, d.Corpus, d.ID)
			}
			if out[d.ID] == nil || f == policyDivergences {
				out[d.ID] = &listedDivergence{divergence: d, file: f}
			}
		}
	}
	return out
}

// checkStale fails on the entries of file that excuse nothing here: no
// case has their id, or every such case agrees with its peer now.
func (l divergenceList) checkStale(t *testing.T, file string) {
	ids := make([]string, 0, len(l))
	for id, d := range l {
		if d.file == file {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		switch d := l[id]; {
		case !d.matched:
			t.Errorf("%s: %s %s matches no corpus case; remove it", file, d.Corpus, id)
		case !d.needed:
			t.Errorf("%s: %s %s: its cases agree with the peer now; remove it", file, d.Corpus, id)
		}
	}
}

func mustCompileHome(t *testing.T, s *policy.Settings, home string) *policy.Policy {
	t.Helper()
	p, err := policy.Compile(&policy.Config{Settings: *s}, policy.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ---- loaders, one per corpus shape ----

func loadPeerCases(t *testing.T) []peerCase {
	var cases []peerCase
	for _, l := range []func(*testing.T) []peerCase{loadFlat, loadKinded, loadDCGCorpus, loadDCGFixtures} {
		for _, c := range l(t) {
			if strings.TrimSpace(c.command) != "" { // an empty command is not a tool call
				cases = append(cases, c)
			}
		}
	}
	return cases
}

type flatRecord struct {
	Command string          `json:"command"`
	Expect  string          `json:"expect"`
	Source  string          `json:"source"`
	Mode    string          `json:"mode"`
	Label   string          `json:"label"`
	Context json.RawMessage `json:"context"`
	Options json.RawMessage `json:"options"`
}

// loadFlat reads the corpora with a top-level command field.
func loadFlat(t *testing.T) []peerCase {
	var out []peerCase
	for _, f := range []string{"cc-safety-net/cc_safety_net_ts_tests.jsonl", "cc-safety-net/probe_results_npm_2_4_5.jsonl",
		"codex/codex_command_safety_tests.jsonl", "dcg/dcg_rust_tests.jsonl", "docker-agent/docker_agent_go_tests.jsonl",
		"issue-reports/bypass_and_fp_reports.jsonl"} {
		corpus := filepath.Dir(f) + "/" + strings.SplitN(filepath.Base(f), "_", 2)[0]
		for _, line := range peerLines(t, f) {
			var r flatRecord
			if json.Unmarshal([]byte(line), &r) != nil || strings.TrimSpace(r.Command) == "" {
				continue
			}
			if block, ok := flatExpectation(r); ok {
				out = append(out, peerCase{corpus: corpus, command: r.Command, block: block, source: r.Source})
			}
		}
	}
	return out
}

// flatExpectation maps a record onto must-block / must-pass; ok is false
// for cases that depend on a peer-specific setting or that only say "not
// known safe" (codex and docker-agent ask for every unknown command).
func flatExpectation(r flatRecord) (block, ok bool) {
	if len(r.Context) > 0 && string(r.Context) != "null" || len(r.Options) > 0 && string(r.Options) != "null" {
		return false, false
	}
	if r.Mode != "" && r.Mode != "standard" {
		return false, false
	}
	switch r.Label {
	case "not-known-safe", "not-safe", "unknown", "not-dangerous":
		return false, false
	}
	switch r.Expect {
	case "deny", "ask":
		return true, true
	case "allow":
		return false, true
	}
	return false, false
}

type kindedRecord struct {
	Kind    string         `json:"kind"`
	Input   any            `json:"input"`
	Expect  any            `json:"expect"`
	Source  string         `json:"source"`
	Context map[string]any `json:"context"`
}

// loadKinded reads Aar, ai-chat and ZeroClaw command tests that ran with
// the peer's default configuration.
func loadKinded(t *testing.T) []peerCase {
	var out []peerCase
	for _, f := range []string{"aar/commands.jsonl", "ai-chat/commands.jsonl", "zeroclaw/commands.jsonl"} {
		for _, line := range peerLines(t, f) {
			var r kindedRecord
			if json.Unmarshal([]byte(line), &r) != nil || r.Kind != "command" {
				continue
			}
			cmd, _ := r.Input.(string)
			expect, _ := r.Expect.(string)
			if block, ok := kindedExpectation(r.Context, expect); ok && strings.TrimSpace(cmd) != "" {
				out = append(out, peerCase{corpus: filepath.Dir(f), command: cmd, block: block, source: r.Source})
			}
		}
	}
	return out
}

// kindedExpectation keeps the layers that judge danger: Aar's deny list,
// ai-chat's destructive and hard-block patterns, ZeroClaw's high-risk
// level. Allow-list membership (ZeroClaw is_command_allowed) and Aar's
// blanket ask for every shell command are about configuration, not danger.
func kindedExpectation(ctx map[string]any, expect string) (block, ok bool) {
	for _, k := range []string{"policy", "safety", "custom_patterns", "blocked_paths", "bash_sandbox", "patterns", "safety_config", "rule_enforcer"} {
		if v, set := ctx[k]; set && !isEmpty(v) {
			return false, false
		}
	}
	if d, _ := ctx["dialect"].(string); d != "" && d != "posix" {
		return false, false // PowerShell and cmd.exe: toolguard parses POSIX shells
	}
	layer, _ := ctx["layer"].(string)
	method, _ := ctx["method"].(string)
	switch {
	case strings.HasPrefix(layer, "SafetyPolicy") && expect == "deny":
		return true, true
	case strings.HasPrefix(layer, "SafetyPolicy") && expect == "allow":
		return false, true
	case strings.HasSuffix(layer, "check_bash_command") && (expect == "ask" || expect == "allow"):
		return expect == "ask", true
	case strings.HasSuffix(layer, "check_hard_block") && expect == "hard_block":
		return true, true
	case strings.HasPrefix(method, "command_risk_level") && expect == "high":
		return true, true
	}
	return false, false
}

func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

type dcgCorpusFile struct {
	Case []struct {
		Command          string `toml:"command"`
		Expected         string `toml:"expected"`
		ExpectedDecision string `toml:"expected_decision"`
	} `toml:"case"`
}

// loadDCGCorpus reads dcg's tests/corpus TOML cases.
func loadDCGCorpus(t *testing.T) []peerCase {
	root := peercorpus.Path(t, "dcg/tests/corpus")
	files, _ := filepath.Glob(filepath.Join(root, "*/*.toml"))
	more, _ := filepath.Glob(filepath.Join(root, "*.toml"))
	var out []peerCase
	for _, f := range append(files, more...) {
		var doc dcgCorpusFile
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := toml.Unmarshal(data, &doc); err != nil {
			t.Logf("%s is not TOML this test reads (%v); its cases are not counted", f, err)
			continue
		}
		for _, c := range doc.Case {
			exp := c.Expected + c.ExpectedDecision
			if exp == "deny" || exp == "allow" {
				out = append(out, peerCase{corpus: "dcg/corpus", command: c.Command, block: exp == "deny", source: f})
			}
		}
	}
	peercorpus.NonEmpty(t, len(out), root)
	return out
}

// loadDCGFixtures reads dcg's end-to-end command fixtures.
func loadDCGFixtures(t *testing.T) []peerCase {
	var out []peerCase
	for name, block := range map[string]bool{"dangerous.txt": true, "safe.txt": false} {
		for _, line := range peerLines(t, "dcg/tests/e2e/fixtures/commands/"+name) {
			out = append(out, peerCase{corpus: "dcg/e2e", command: unescapeNewlines(line), block: block})
		}
	}
	for _, name := range []string{"heredocs.txt", "edge_cases.txt"} {
		for _, line := range peerLines(t, "dcg/tests/e2e/fixtures/commands/"+name) {
			verdict, cmd, ok := strings.Cut(line, ":")
			if ok && (verdict == "BLOCK" || verdict == "ALLOW") {
				out = append(out, peerCase{corpus: "dcg/e2e", command: unescapeNewlines(cmd), block: verdict == "BLOCK"})
			}
		}
	}
	return out
}

func unescapeNewlines(s string) string { return strings.ReplaceAll(s, `\n`, "\n") }

// peerLines returns the non-empty, non-comment lines of a corpus file.
func peerLines(t *testing.T, rel string) []string {
	f, err := os.Open(peercorpus.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// BenchmarkDecidePeerCorpus times Decide on every peer-corpus command in
// the trusted mode and reports the per-call median and 99th percentile
// (budgets: p50 ≤ 20 µs, p99 ≤ 200 µs).
func BenchmarkDecidePeerCorpus(b *testing.B) {
	peercorpus.Dir(b)
	cases := loadPeerCases(&testing.T{})
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: policy.ModeTrusted}}, policy.Options{Home: "/home/tester"})
	if err != nil {
		b.Fatal(err)
	}
	calls := make([]judgedCall, len(cases))
	for i, c := range cases {
		calls[i] = judgedCall{p, call.Call{Kind: call.Shell, Tool: "Bash", Command: c.command, Cwd: "/work/project", Workspace: "/work/project"}}
	}
	benchDecide(b, calls, "commands")
}
