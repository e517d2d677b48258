package policy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// The adversarial corpus (testdata/adversarial) is toolguard's own: tool
// calls written from public material (GTFOBins, bypass reports against other
// guards, agents' advisories, incident write-ups) and labelled by what they
// do before toolguard was run on them. dev/ is the part engineers read while
// working; holdout/ is kept out of sight (only its totals are printed unless
// TOOLGUARD_CORPUS_SHOW=1) so that it measures how the guard generalises.
//
// Labels:
//   - allow: a harmless read; supervised must allow it without a prompt;
//   - not-silent: supervised must not allow it (ask or deny);
//   - deny: every mode, full included, must deny it.
const (
	corpusDir  = "testdata/adversarial"
	corpusHome = "/home/dev"
	corpusWork = "/home/dev/project"
	corpusExe  = "/home/dev/go/bin/toolguard"
)

type corpusFile struct {
	Family      string       `toml:"family"`
	Description string       `toml:"description"`
	Cases       []corpusCase `toml:"case"`
}

type corpusCase struct {
	ID      string         `toml:"id"`
	Label   string         `toml:"label"`
	Tool    string         `toml:"tool"`
	Command string         `toml:"command"`
	Input   map[string]any `toml:"input"`
	Cwd     string         `toml:"cwd"`
	Source  string         `toml:"source"`
	Why     string         `toml:"why"`

	family string
	split  string // "dev", "holdout" or "holdout2"
	file   string
}

func (c corpusCase) key() string { return c.split + "/" + c.family + "/" + c.ID }

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	var out []corpusCase
	for _, split := range []string{"dev", "holdout", "holdout2"} {
		files, _ := filepath.Glob(filepath.Join(corpusDir, split, "*.toml"))
		for _, f := range files {
			out = append(out, loadCorpusFile(t, split, f)...)
		}
	}
	return out
}

func loadCorpusFile(t *testing.T, split, file string) []corpusCase {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cf corpusFile
	dec := toml.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cf); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if cf.Family == "" {
		t.Errorf("%s: no family", file)
	}
	seen := map[string]bool{}
	for i := range cf.Cases {
		c := &cf.Cases[i]
		c.family, c.split, c.file = cf.Family, split, file
		if c.Tool == "" {
			c.Tool = "Bash"
		}
		switch {
		case c.ID == "" || seen[c.ID]:
			t.Errorf("%s: case %d: missing or repeated id %q", file, i, c.ID)
		case !slices.Contains([]string{"allow", "not-silent", "deny"}, c.Label):
			t.Errorf("%s: %s: label %q (valid: allow, not-silent, deny)", file, c.ID, c.Label)
		case c.Source == "":
			t.Errorf("%s: %s: no source", file, c.ID)
		case c.Command == "" && c.Input == nil:
			t.Errorf("%s: %s: neither command nor input", file, c.ID)
		}
		seen[c.ID] = true
	}
	return cf.Cases
}

// corpusPolicy compiles the policy of the corpus machine as the CLI does
// for a user whose HOME is corpusHome: the agents' settings files and
// toolguard's own directories, token and program protected.
func corpusPolicy(t *testing.T, mode string) *policy.Policy {
	t.Helper()
	state := corpusHome + "/.local/state/toolguard"
	protected := append(hook.ProtectedPaths(), state+"/**", corpusHome+"/.config/toolguard/**", corpusExe)
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: mode}},
		policy.Options{Home: corpusHome, Protected: protected, Denied: []string{state + "/*.token"}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (c corpusCase) call(t *testing.T, p *policy.Policy) (call.Call, error) {
	in := c.Input
	if c.Command != "" {
		in = map[string]any{"command": c.Command}
	}
	cwd := c.Cwd
	if cwd == "" {
		cwd = corpusWork
	}
	return p.Tools().Normalize(call.Request{Tool: c.Tool, Input: in, Cwd: cwd, Workspace: corpusWork,
		Who: call.Who{Agent: "claude-code", Session: "corpus"}})
}

// corpusModes are the modes every case is decided in.
var corpusModes = []string{policy.ModeSupervised, policy.ModeTrusted, policy.ModeFull}

// outcome of one case: the verdict in each mode.
type corpusOutcome struct {
	c        corpusCase
	verdicts map[string]risk.Verdict
	rule     string // deciding rule in supervised
}

// ok reports whether the case meets its label's requirement.
func (o corpusOutcome) ok() bool {
	sup := o.verdicts[policy.ModeSupervised]
	switch o.c.Label {
	case "allow":
		return sup == risk.Allow
	case "not-silent":
		return sup != risk.Allow
	}
	for _, v := range o.verdicts {
		if v != risk.Deny {
			return false
		}
	}
	return true
}

// TestAdversarialCorpus decides every case in supervised, trusted and full
// mode and reports per family. It fails on the hard goals: no
// not-silent or deny case allowed in supervised, no deny case allowed in
// any mode. The rates (deny cases denied outright in supervised, harmless
// reads allowed) are reported, and written to docs/benchmarks.md by hand.
func TestAdversarialCorpus(t *testing.T) {
	cases := loadCorpus(t)
	if len(cases) == 0 {
		t.Skip("no corpus under " + corpusDir)
	}
	pols := map[string]*policy.Policy{}
	for _, m := range corpusModes {
		pols[m] = corpusPolicy(t, m)
	}
	var outs []corpusOutcome
	for _, c := range cases {
		o := corpusOutcome{c: c, verdicts: map[string]risk.Verdict{}}
		for _, m := range corpusModes {
			cl, err := c.call(t, pols[m])
			d := pols[m].Decide(context.Background(), cl)
			if err != nil {
				d.Verdict, d.Rule = risk.Deny, "normalize: "+err.Error()
			}
			o.verdicts[m] = d.Verdict
			if m == policy.ModeSupervised {
				o.rule = d.Rule
			}
		}
		outs = append(outs, o)
	}
	show := os.Getenv("TOOLGUARD_CORPUS_SHOW") != ""
	report := corpusReport(outs)
	t.Log("\n" + report)
	var hard []string
	for _, o := range outs {
		if o.c.split != "dev" && !show {
			continue
		}
		if !o.ok() {
			t.Logf("MISS %s [%s] %s → sup=%s trusted=%s full=%s (%s)", o.c.key(), o.c.Label, o.c.describe(),
				o.verdicts[policy.ModeSupervised], o.verdicts[policy.ModeTrusted], o.verdicts[policy.ModeFull], o.rule)
		}
		if o.hardMiss() {
			hard = append(hard, o.c.key())
		}
	}
	if n := countHard(outs); n > 0 && os.Getenv("TOOLGUARD_CORPUS_ENFORCE") != "" {
		t.Errorf("%d cases break a hard goal (a not-silent or deny case allowed in supervised, or a deny case allowed in trusted or full): %s", n, strings.Join(hard, ", "))
	}
}

// hardMiss is a case that breaks a hard goal.
func (o corpusOutcome) hardMiss() bool {
	switch o.c.Label {
	case "not-silent":
		return o.verdicts[policy.ModeSupervised] == risk.Allow
	case "deny":
		return slices.Contains([]risk.Verdict{o.verdicts[policy.ModeSupervised], o.verdicts[policy.ModeTrusted], o.verdicts[policy.ModeFull]}, risk.Allow)
	}
	return false
}

func countHard(outs []corpusOutcome) int {
	n := 0
	for _, o := range outs {
		if o.hardMiss() {
			n++
		}
	}
	return n
}

func (c corpusCase) describe() string {
	if c.Command != "" {
		return fmt.Sprintf("%q", c.Command)
	}
	return fmt.Sprintf("%s %v", c.Tool, c.Input)
}

// familyStats are the figures of one family (or a total).
type familyStats struct {
	allow, allowOK             int // harmless reads; allowed in supervised
	notSilent, notSilentOK     int // must not pass silently; not allowed in supervised
	deny, denySup, denyAll     int // must deny; denied in supervised; denied in every mode
	denyAllowedTrusted, hardNS int // deny cases allowed in trusted or full; not-silent allowed in supervised
}

func (s *familyStats) add(o corpusOutcome) {
	sup := o.verdicts[policy.ModeSupervised]
	switch o.c.Label {
	case "allow":
		s.allow++
		if sup == risk.Allow {
			s.allowOK++
		}
	case "not-silent":
		s.notSilent++
		if sup != risk.Allow {
			s.notSilentOK++
		} else {
			s.hardNS++
		}
	case "deny":
		s.deny++
		if sup == risk.Deny {
			s.denySup++
		}
		if o.ok() {
			s.denyAll++
		}
		if o.verdicts[policy.ModeTrusted] == risk.Allow || o.verdicts[policy.ModeFull] == risk.Allow || sup == risk.Allow {
			s.denyAllowedTrusted++
		}
	}
}

func (s *familyStats) merge(o familyStats) {
	s.allow += o.allow
	s.allowOK += o.allowOK
	s.notSilent += o.notSilent
	s.notSilentOK += o.notSilentOK
	s.deny += o.deny
	s.denySup += o.denySup
	s.denyAll += o.denyAll
	s.denyAllowedTrusted += o.denyAllowedTrusted
	s.hardNS += o.hardNS
}

// corpusReport is a Markdown table: one row per family, totals per split.
func corpusReport(outs []corpusOutcome) string {
	fams := map[string]*familyStats{}
	for _, o := range outs {
		k := o.c.split + "/" + o.c.family
		if fams[k] == nil {
			fams[k] = &familyStats{}
		}
		fams[k].add(o)
	}
	keys := make([]string, 0, len(fams))
	for k := range fams {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("| family | cases | harmless allowed | not-silent held | deny: denied in supervised | deny: denied in every mode | deny allowed in some mode |\n|---|---:|---:|---:|---:|---:|---:|\n")
	totals := map[string]*familyStats{"dev": {}, "holdout": {}, "holdout2": {}, "all": {}}
	for _, k := range keys {
		s := fams[k]
		writeStatsRow(&b, k, s)
		split, _, _ := strings.Cut(k, "/")
		totals[split].merge(*s)
		totals["all"].merge(*s)
	}
	for _, k := range []string{"dev", "holdout", "holdout2", "all"} {
		if n := totals[k]; n.allow+n.notSilent+n.deny > 0 {
			writeStatsRow(&b, "**"+k+"**", n)
		}
	}
	return b.String()
}

func writeStatsRow(b *strings.Builder, name string, s *familyStats) {
	fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %s | %d |\n", name, s.allow+s.notSilent+s.deny,
		frac(s.allowOK, s.allow), frac(s.notSilentOK, s.notSilent), frac(s.denySup, s.deny), frac(s.denyAll, s.deny), s.denyAllowedTrusted)
}

func frac(n, d int) string {
	if d == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", n, d, 100*float64(n)/float64(d))
}

// TestCorpusCase explains one corpus case, named by TOOLGUARD_CORPUS_CASE
// (its id, or family/id), in every mode: the decision and every finding.
// It is a tool for working on a miss, skipped otherwise.
func TestCorpusCase(t *testing.T) {
	want := os.Getenv("TOOLGUARD_CORPUS_CASE")
	if want == "" {
		t.Skip("set TOOLGUARD_CORPUS_CASE=<id> to explain one corpus case")
	}
	for _, c := range loadCorpus(t) {
		if c.ID != want && c.key() != want && !strings.HasSuffix(c.key(), "/"+want) {
			continue
		}
		for _, m := range corpusModes {
			p := corpusPolicy(t, m)
			cl, err := c.call(t, p)
			if err != nil {
				t.Logf("%s: normalize: %v", m, err)
				continue
			}
			d := p.Decide(context.Background(), cl)
			t.Logf("%s [%s] %s: %s tier=%s blast=%s rule=%s: %s", c.key(), c.Label, m, d.Verdict, d.Tier, d.Blast, d.Rule, d.Reason)
			for _, f := range d.Findings {
				t.Logf("    %s [%s/%s] %s", f.Rule, f.Tier, f.Blast, f.Reason)
			}
		}
	}
}

// BenchmarkDecideAdversarial times Decide on every case of the adversarial
// corpus in the trusted mode, one call at a time, and reports the per-call
// median and 99th percentile (budgets: p50 ≤ 20 µs, p99 ≤ 200 µs).
func BenchmarkDecideAdversarial(b *testing.B) {
	t := &testing.T{}
	cases := loadCorpus(t)
	if len(cases) == 0 {
		b.Skip("no corpus under " + corpusDir)
	}
	p := corpusPolicy(t, policy.ModeTrusted)
	var calls []call.Call
	for _, c := range cases {
		if cl, err := c.call(t, p); err == nil {
			calls = append(calls, cl)
		}
	}
	ctx := context.Background()
	var samples []time.Duration
	for b.Loop() {
		for _, c := range calls {
			start := time.Now()
			p.Decide(ctx, c)
			samples = append(samples, time.Since(start))
		}
	}
	slices.Sort(samples)
	b.ReportMetric(float64(samples[len(samples)/2].Nanoseconds())/1000, "p50-µs")
	b.ReportMetric(float64(samples[len(samples)*99/100].Nanoseconds())/1000, "p99-µs")
	b.ReportMetric(float64(len(calls)), "calls")
}
