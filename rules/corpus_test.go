package rules

import (
	"bufio"
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

	"github.com/toolguard/toolguard/internal/peercorpus"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// corpusCase is one peer case: a shell command and what the peer expects.
type corpusCase struct {
	corpus string
	cmd    string
	want   expectation
}

// expectation is what a peer case asks of the trusted mode.
type expectation int

const (
	// mustPass: the peer allows it.
	mustPass expectation = iota
	// mustBlock: the peer denies it or asks because it is dangerous.
	mustBlock
	// notRead: the peer asks only because the command is not known to be
	// read-only (docker-agent "unknown", Codex "not known safe"); the
	// trusted mode allows those by design, so they are reported apart:
	// agreement means a tier above read.
	notRead
)

// divergence is a case where these packs deliberately disagree with a peer.
type divergence struct {
	Corpus string `toml:"corpus"`
	ID     string `toml:"id"` // first 12 hex digits of the command's SHA-256
	Reason string `toml:"reason"`
}

// caseID identifies a corpus command without copying it.
func caseID(command string) string {
	sum := sha256.Sum256([]byte(command))
	return hex.EncodeToString(sum[:])[:12]
}

// corpusHome is the home directory the corpus commands are analysed with.
const corpusHome = "/home/user"

// TestCorpusReport runs every peer corpus command through shell.Parse and
// Classify and reports, per corpus, how many must-block commands are flagged
// (a destructive finding, an ask/deny floor, or anything unverifiable) and
// how many must-pass commands stay at or below tier execute with no floor.
// Listed divergences are left out of the figures. It fails when the totals
// fall below the goals (99% of must-block flagged, 95% of must-pass
// passed), when a listed divergence matches no case or its cases agree now,
// and when the raw agreement (divergences counted as disagreements) moves
// off the floor in testdata/peer-floor.txt, which only rises.
func TestCorpusReport(t *testing.T) {
	peercorpus.Dir(t)
	cases := loadCorpora(t)
	peercorpus.NonEmpty(t, len(cases), "the peer corpora's shell commands")
	div := loadDivergences(t)
	s := builtin(t)
	per := map[string]*corpusTally{}
	var total corpusTally
	var misses []string
	for _, c := range cases {
		tl := per[c.corpus]
		if tl == nil {
			tl = &corpusTally{}
			per[c.corpus] = tl
		}
		ok := corpusAgrees(s, c)
		if d := div.lookup(c); d != nil {
			d.matched = true
			if !ok {
				d.needed = true
				tl.diverged++
				total.diverged++
				continue
			}
		}
		tl.count(c.want, ok)
		total.count(c.want, ok)
		if !ok {
			misses = append(misses, missLine(map[expectation]string{mustBlock: "MISS", mustPass: "FP", notRead: "READ"}[c.want], c))
		}
	}
	reportCorpus(t, per, &total)
	if os.Getenv("RULES_CORPUS_MISSES") != "" {
		sort.Strings(misses)
		for _, m := range misses {
			t.Log(m)
		}
	}
	if float64(total.flagged) < 0.99*float64(total.block) || float64(total.passed) < 0.95*float64(total.pass) {
		t.Errorf("below goal: must-block %s (goal 99%%), must-pass %s (goal 95%%); set RULES_CORPUS_MISSES=1 to list the cases",
			pct(total.flagged, total.block), pct(total.passed, total.pass))
	}
	div.checkStale(t)
	peercorpus.CheckFloor(t, filepath.Join("testdata", "peer-floor.txt"), map[string]peercorpus.Figure{"raw": total.raw()}, *update)
}

// corpusTally counts one corpus's cases by expectation and agreement.
type corpusTally struct{ block, flagged, pass, passed, diverged, notRead, aboveRead int }

func (tl *corpusTally) count(want expectation, ok bool) {
	switch want {
	case mustBlock:
		tl.block++
		if ok {
			tl.flagged++
		}
	case mustPass:
		tl.pass++
		if ok {
			tl.passed++
		}
	case notRead:
		tl.notRead++
		if ok {
			tl.aboveRead++
		}
	}
}

// raw is the agreement with divergences counted as disagreements.
func (tl *corpusTally) raw() peercorpus.Figure {
	return peercorpus.Figure{Agree: tl.flagged + tl.passed + tl.aboveRead, Cases: tl.block + tl.pass + tl.notRead + tl.diverged}
}

// corpusAgrees reports whether the packs judge c as its peer expects.
func corpusAgrees(s *Set, c corpusCase) bool {
	switch c.want {
	case mustBlock:
		return corpusFlagged(s, c.cmd)
	case mustPass:
		return !corpusFlagged(s, c.cmd)
	}
	return corpusTier(s, c.cmd) > risk.Read
}

func reportCorpus(t *testing.T, per map[string]*corpusTally, total *corpusTally) {
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tl := per[n]
		t.Logf("%-40s must-block flagged %4d/%-4d %6s  must-pass passed %4d/%-4d %6s  not-read above read %3d/%-3d  divergences %d",
			n, tl.flagged, tl.block, pct(tl.flagged, tl.block), tl.passed, tl.pass, pct(tl.passed, tl.pass), tl.aboveRead, tl.notRead, tl.diverged)
	}
	raw := total.raw()
	t.Logf("%-40s (divergences counted as disagreements: %d of %d cases agree, %s)", "RAW", raw.Agree, raw.Cases, pct(raw.Agree, raw.Cases))
	t.Logf("%-40s must-block flagged %4d/%-4d %6s  must-pass passed %4d/%-4d %6s  not-read above read %3d/%-3d  divergences %d",
		"TOTAL", total.flagged, total.block, pct(total.flagged, total.block), total.passed, total.pass, pct(total.passed, total.pass), total.aboveRead, total.notRead, total.diverged)
}

// missLine renders a disagreement as one JSON object, for tooling.
func missLine(kind string, c corpusCase) string {
	b, _ := json.Marshal(map[string]string{"kind": kind, "corpus": c.corpus, "command": c.cmd})
	return string(b)
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// corpusFlagged reports whether the command would not be allowed in the
// trusted mode on account of the rules or the shell analysis: a destructive
// finding, a finding with an ask/deny floor or critical blast radius, or an
// unverifiable part.
func corpusFlagged(s *Set, cmd string) bool {
	sc, err := shell.Parse(cmd, shell.Options{Home: corpusHome})
	if err != nil || sc == nil || len(sc.Problems) > 0 {
		return true
	}
	for _, c := range sc.Commands {
		for _, f := range s.Classify(c).Findings {
			if f.Tier == risk.Destructive || f.Verdict != risk.Allow || f.Blast == risk.BlastCritical || f.Unverifiable {
				return true
			}
		}
	}
	return false
}

// corpusTier is the worst tier of the command's simple commands.
func corpusTier(s *Set, cmd string) risk.Tier {
	sc, err := shell.Parse(cmd, shell.Options{Home: corpusHome})
	if err != nil || sc == nil || len(sc.Problems) > 0 {
		return risk.Destructive
	}
	var tier risk.Tier
	for _, c := range sc.Commands {
		tier = tier.Worse(s.Classify(c).Tier)
	}
	return tier
}

// divergenceList is testdata/divergences.toml, with what this run found of
// each entry.
type divergenceList map[string]*listedDivergence

type listedDivergence struct {
	divergence
	matched bool // some corpus case has its id
	needed  bool // some such case disagrees with its peer
}

func loadDivergences(t *testing.T) divergenceList {
	data, err := os.ReadFile(filepath.Join("testdata", "divergences.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Divergence []divergence `toml:"divergence"`
	}
	if err := toml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("testdata/divergences.toml: %v", err)
	}
	out := divergenceList{}
	for _, d := range doc.Divergence {
		if d.Reason == "" || d.ID == "" || d.Corpus == "" {
			t.Errorf("divergence %+v: corpus, id and reason are required", d)
		}
		k := d.Corpus + "\x00" + d.ID
		if out[k] != nil {
			t.Errorf("divergence %s %s is listed twice", d.Corpus, d.ID)
		}
		out[k] = &listedDivergence{divergence: d}
	}
	return out
}

// lookup returns the entry listing c, by its corpus or for every corpus.
func (l divergenceList) lookup(c corpusCase) *listedDivergence {
	if d := l[c.corpus+"\x00"+caseID(c.cmd)]; d != nil {
		return d
	}
	return l["*\x00"+caseID(c.cmd)]
}

// checkStale fails on entries that excuse nothing: no corpus case has
// their id, or every such case agrees with its peer now. (An entry whose
// cases agree here but which the policy's peer test still needs belongs
// in policy/testdata/peers/divergences.toml.)
func (l divergenceList) checkStale(t *testing.T) {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		d := l[k]
		switch {
		case !d.matched:
			t.Errorf("testdata/divergences.toml: %s %s matches no corpus case; remove it", d.Corpus, d.ID)
		case !d.needed:
			t.Errorf("testdata/divergences.toml: %s %s: its cases agree with the peer now; remove it", d.Corpus, d.ID)
		}
	}
}

func loadCorpora(t testing.TB) []corpusCase {
	var out []corpusCase
	for _, f := range []string{"dcg/dcg_rust_tests.jsonl", "cc-safety-net/cc_safety_net_ts_tests.jsonl",
		"cc-safety-net/probe_results_npm_2_4_5.jsonl", "docker-agent/docker_agent_go_tests.jsonl",
		"codex/codex_command_safety_tests.jsonl", "issue-reports/bypass_and_fp_reports.jsonl"} {
		out = append(out, loadJSONL(t, f)...)
	}
	for _, f := range []string{"aar/commands.jsonl", "ai-chat/commands.jsonl"} {
		out = append(out, loadJSONL(t, f)...)
	}
	out = append(out, loadDCGToml(t)...)
	return append(out, loadDCGText(t)...)
}

func loadJSONL(t testing.TB, rel string) []corpusCase {
	f, err := os.Open(peercorpus.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := strings.TrimSuffix(filepath.Base(rel), ".jsonl")
	name = filepath.Dir(rel) + "/" + name
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var row struct {
			Command, Input, Kind, Label, Mode string
			Expect                            any
			Context                           any
			Options                           []string
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		layer := ""
		if m, ok := row.Context.(map[string]any); ok {
			layer, _ = m["layer"].(string)
			if m["policy"] != nil || m["safety"] != nil || m["custom_patterns"] != nil {
				continue // holds only under a non-default configuration
			}
		}
		if !genericPeerRow(row.Mode, row.Context, row.Options) {
			continue
		}
		if c, ok := corpusRow(name, row.Command, row.Input, row.Kind, layer, row.Expect); ok {
			c.want = relabel(c.want, row.Label)
			out = append(out, c)
		}
	}
	return out
}

// genericPeerRow leaves out cc-safety-net rows that hold only under a
// stricter level, special options, or a test-specific cwd, environment or
// custom rule file (the context string says so).
func genericPeerRow(mode string, context any, options []string) bool {
	if mode != "" && mode != "standard" {
		return false
	}
	if ctx, ok := context.(string); ok && ctx != "" {
		return false
	}
	for _, o := range options {
		if strings.HasPrefix(o, "paranoid") || strings.HasPrefix(o, "strict") {
			return false
		}
	}
	return true
}

// relabel maps docker-agent and Codex labels: only "destructive" and
// "dangerous" are must-block; "unknown"/"not-safe"/"not-known-safe"/
// "not-dangerous" asks are about not being read-only.
func relabel(want expectation, label string) expectation {
	switch {
	case label == "":
		return want
	case label == "destructive" || strings.HasPrefix(label, "dangerous"):
		return mustBlock
	case label == "safe" || label == "known-safe":
		return mustPass
	}
	return notRead
}

// corpusRow turns one JSONL row into a case. Rows of the seed systems'
// corpora are used only when they test command classification (not their
// network, package or sandbox switches, which are configuration here).
func corpusRow(corpus, command, input, kind, layer string, expect any) (corpusCase, bool) {
	cmd := command
	if kind != "" {
		if kind != "command" || strings.Contains(layer, "network") || strings.Contains(layer, "ToolExecutor") || strings.Contains(layer, "package") ||
			strings.Contains(layer, "sandbox") || strings.Contains(layer, "bash.py") || strings.Contains(layer, "blocked_path") ||
			strings.Contains(layer, "custom_patterns") {
			return corpusCase{}, false
		}
		cmd = input
	}
	exp, _ := expect.(string)
	switch exp {
	case "allow", "none":
		return corpusCase{corpus: corpus, cmd: cmd, want: mustPass}, cmd != ""
	case "ask", "deny", "hard_block":
		return corpusCase{corpus: corpus, cmd: cmd, want: mustBlock}, cmd != ""
	}
	return corpusCase{}, false
}

func loadDCGToml(t testing.TB) []corpusCase {
	var out []corpusCase
	root := peercorpus.Path(t, filepath.Join("dcg", "tests", "corpus"))
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".toml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var doc struct {
			Case []struct {
				Command          string `toml:"command"`
				Expected         string `toml:"expected"`
				ExpectedDecision string `toml:"expected_decision"`
			} `toml:"case"`
		}
		if err := toml.Unmarshal(data, &doc); err != nil {
			t.Logf("skipping %s: %v", p, err)
			return nil
		}
		for _, c := range doc.Case {
			exp := c.Expected + c.ExpectedDecision
			if c.Command == "" || (exp != "allow" && exp != "deny" && exp != "ask") {
				continue
			}
			out = append(out, corpusCase{corpus: "dcg/corpus-toml", cmd: c.Command, want: blockIf(exp != "allow")})
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading %s: %v", root, err)
	}
	peercorpus.NonEmpty(t, len(out), root)
	return out
}

func loadDCGText(t testing.TB) []corpusCase {
	var out []corpusCase
	dir := filepath.Join("dcg", "tests", "e2e", "fixtures", "commands")
	for _, f := range []string{"dangerous.txt", "safe.txt", "heredocs.txt", "edge_cases.txt"} {
		data, err := os.ReadFile(peercorpus.Path(t, filepath.Join(dir, f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			block := f == "dangerous.txt"
			if f == "heredocs.txt" || f == "edge_cases.txt" {
				verdict, cmd, ok := strings.Cut(line, ":")
				if !ok || (verdict != "BLOCK" && verdict != "ALLOW") {
					continue
				}
				block, line = verdict == "BLOCK", strings.ReplaceAll(cmd, `\n`, "\n")
			}
			out = append(out, corpusCase{corpus: "dcg/e2e-txt", cmd: line, want: blockIf(block)})
		}
	}
	return out
}

func blockIf(b bool) expectation {
	if b {
		return mustBlock
	}
	return mustPass
}
