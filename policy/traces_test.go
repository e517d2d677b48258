package policy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/internal/docblock"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// The traces corpus (testdata/traces) holds tool calls that real coding
// agents made while doing ordinary work: SWE-bench trajectories of
// mini-swe-agent, CodeR, SWE-agent and OpenHands, and published Claude Code
// and Codex sessions. Each row cites where it was read (repository, path,
// commit, step) and was labelled by what the call does before toolguard
// judged it (testdata/traces/README.md says how and lists the sources):
//
//   - read: changes nothing and reaches nothing private;
//   - workspace: changes only the workspace, or runs the project's own
//     code, tests or builds, or installs its declared dependencies;
//   - outside: writes or deletes outside the workspace, installs new
//     packages, reaches the network or the user's private data;
//   - dangerous: would do harm (wipes, secrets, remote code).
//
// Issue 31's goals are reported (tracesGoals) and, all holding, enforced
// (traceFigures.broken).
const (
	tracesDir      = "testdata/traces"
	tracesVerdicts = tracesDir + "/verdicts.txt"
)

// traceLabels are the labels a trace row may carry, in the report's order.
var traceLabels = []string{"read", "workspace", "outside", "dangerous"}

// traceCall is one row of a trace file.
type traceCall struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
	Label string `json:"label"`
	// Why says what the call does when its label is not obvious.
	Why   string         `json:"why"`
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input"`
	// Cwd, Workspace and Home are the agent's as it had them.
	Cwd       string      `json:"cwd"`
	Workspace string      `json:"workspace"`
	Home      string      `json:"home"`
	Source    traceSource `json:"source"`
	// Orig is the call as the agent wrote it, when it was mapped onto
	// another tool (a SWE-agent command, an OpenHands action).
	Orig any `json:"orig"`
	// Relabelled gives the old label and the reason when a row's label
	// changed after it was first recorded.
	Relabelled string `json:"relabelled"`
	// Made is what earlier calls of the same session made that this call
	// acts on, as the trajectory shows it; the call is then judged in a
	// copy of its workspace laid under a temporary directory, those files
	// born after the session's start (without it the workspace is paper).
	Made *traceMade `json:"made"`

	file string // the trace file's name without .jsonl
	line int
}

// traceMade names files earlier calls of the session made.
type traceMade struct {
	// Steps are the steps of the trajectory that made them.
	Steps []int `json:"steps"`
	// Files are paths relative to the workspace.
	Files []string `json:"files"`
}

type traceSource struct {
	Repo   string `json:"repo"`
	Path   string `json:"path"`
	Commit string `json:"commit"`
	Step   int    `json:"step"`
}

func (c traceCall) key() string { return c.file + "/" + c.ID }

// loadTraces reads every trace file. The corpus is part of the
// repository: a missing or empty one fails, never skips.
func loadTraces(t testing.TB, dir string) []traceCall {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no trace files under %s (%v)", dir, err)
	}
	var out []traceCall
	for _, f := range files {
		out = append(out, loadTraceFile(t, f)...)
	}
	if len(out) == 0 {
		t.Fatalf("the trace files under %s hold no calls", dir)
	}
	return out
}

func loadTraceFile(t testing.TB, file string) []traceCall {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimSuffix(filepath.Base(file), ".jsonl")
	var out []traceCall
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 4<<20)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var c traceCall
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Errorf("%s:%d: %v", file, n, err)
			continue
		}
		c.file, c.line = name, n
		if p := c.problem(seen); p != "" {
			t.Errorf("%s:%d (%s): %s", file, n, c.ID, p)
		}
		seen[c.ID] = true
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Errorf("%s: %v", file, err)
	}
	if len(out) == 0 {
		t.Errorf("%s: no calls", file)
	}
	return out
}

// problem is what is wrong with a row as written, or "".
func (c traceCall) problem(seen map[string]bool) string {
	var probs []string
	switch {
	case c.ID == "" || strings.ContainsAny(c.ID, " \t"):
		probs = append(probs, "id: missing or holds white space")
	case seen[c.ID]:
		probs = append(probs, "id: repeated")
	}
	if !slices.Contains(traceLabels, c.Label) {
		probs = append(probs, fmt.Sprintf("label %q (valid: %s)", c.Label, strings.Join(traceLabels, ", ")))
	}
	if c.Agent == "" {
		probs = append(probs, "agent: missing")
	}
	if c.Tool == "" || c.Input == nil {
		probs = append(probs, "tool or input: missing")
	}
	if !filepath.IsAbs(c.Workspace) || !filepath.IsAbs(c.Home) || (c.Cwd != "" && !filepath.IsAbs(c.Cwd)) {
		probs = append(probs, "cwd, workspace and home: give absolute paths")
	}
	if c.Made != nil && (len(c.Made.Steps) == 0 || len(c.Made.Files) == 0 || slices.ContainsFunc(c.Made.Files, func(f string) bool {
		return f == "" || filepath.IsAbs(f) || strings.Contains(f, "..")
	})) {
		probs = append(probs, "made: give the steps and the files (relative to the workspace)")
	}
	if c.Source.Repo == "" || c.Source.Path == "" || c.Source.Step <= 0 {
		probs = append(probs, "source: give repo, path and step (commit when known)")
	}
	return strings.Join(probs, "; ")
}

// request is the call as the agent's hook would hand it to toolguard.
func (c traceCall) request() call.Request {
	cwd := c.Cwd
	if cwd == "" {
		cwd = c.Workspace
	}
	return call.Request{Tool: c.Tool, Input: c.Input, Cwd: cwd, Workspace: c.Workspace,
		Who: call.Who{Agent: c.Agent, Session: "traces"}}
}

// laid is c in a copy of its workspace under root where the files of
// c.Made exist, born after the session's start, which it returns; with
// older, a file born before the start is laid in the first made directory
// too (the adversarial twin: the same delete of a tree that holds
// something older). The workspace's path is moved under root in the
// call's directories and in its command text.
func (c traceCall) laid(t testing.TB, root string, older bool) (traceCall, time.Time) {
	t.Helper()
	ws := filepath.Join(root, c.Workspace)
	first := filepath.Join(ws, strings.SplitN(c.Made.Files[0], "/", 2)[0])
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	needBirthTimes(t, ws)
	if older {
		layTree(t, root, "older/notes.md")
	}
	start := sessionStart(t)
	for _, f := range c.Made.Files {
		layTree(t, ws, f)
	}
	if older {
		if err := os.Rename(filepath.Join(root, "older/notes.md"), filepath.Join(first, "notes.md")); err != nil {
			t.Fatal(err)
		}
	}
	in := maps.Clone(c.Input)
	if cmd, ok := in["command"].(string); ok {
		in["command"] = strings.ReplaceAll(cmd, c.Workspace, ws)
	}
	c.Input = in
	if c.Cwd != "" {
		c.Cwd = filepath.Join(root, c.Cwd)
	}
	c.Workspace = ws
	return c, start
}

// traceOutcome is one call's verdict and deciding rule in each of
// corpusModes; the verdict is notNormalised when the call could not be
// normalised.
type traceOutcome struct {
	c        traceCall
	verdicts [3]string
	rules    [3]string
}

// decideTraces decides every call in every mode. The homes and workspaces
// are the agents' (/root, /testbed, /Users/…); they are paper: nothing of
// them exists on the machine that runs the test, except /root and /tmp,
// whose contents no call of the corpus depends on.
func decideTraces(t testing.TB, calls []traceCall) []traceOutcome {
	policies := map[string]*policy.Policy{}
	get := func(mode, home string) *policy.Policy {
		k := mode + "\x00" + home
		if policies[k] == nil {
			policies[k] = corpusPolicy(t, mode, home)
		}
		return policies[k]
	}
	ctx := context.Background()
	outs := make([]traceOutcome, len(calls))
	for i, c := range calls {
		o := traceOutcome{c: c}
		judged, start := c, time.Time{}
		if c.Made != nil {
			judged, start = c.laid(t, t.TempDir(), false)
		}
		for m, mode := range corpusModes {
			p := get(mode, c.Home)
			cl, err := p.Tools().Normalize(judged.request())
			if err != nil {
				o.verdicts[m], o.rules[m] = notNormalised, "normalize: "+err.Error()
				continue
			}
			cl.Who.Started = start
			d := p.Decide(ctx, cl)
			o.verdicts[m], o.rules[m] = d.Verdict.String(), decidingRule(d)
		}
		outs[i] = o
	}
	return outs
}

// decidingRule is d's rule; when the mode decided (an ask for the tier),
// it names the tier and the finding that set it, which is where a fix
// starts.
func decidingRule(d policy.Decision) string {
	if !strings.HasPrefix(d.Rule, "mode.") {
		return d.Rule
	}
	why := "no finding"
	for _, f := range d.Findings {
		if f.Tier == d.Tier {
			why = f.Rule
			break
		}
	}
	return fmt.Sprintf("%s (%s tier: %s)", d.Rule, d.Tier, why)
}

// tracesRank ranks the traces' outcomes: for read and workspace calls a
// stricter verdict is the wrong way in every mode, for dangerous calls a
// looser one; outside calls are not ranked (any change is recorded with
// -update).
func tracesRank(label string, _ int, v string) int {
	var order []string
	switch label {
	case "read", "workspace":
		order = []string{"allow", "ask", "deny", notNormalised}
	case "dangerous":
		order = []string{"deny", notNormalised, "ask", "allow"}
	default:
		return 0
	}
	if i := slices.Index(order, v); i >= 0 {
		return i
	}
	return len(order)
}

// tracesGoals are issue 31's goals. All are printed, and broken fails the
// test on any that does not hold.
var tracesGoals = struct {
	readAllowedSupervised    float64 // of read calls, allowed in supervised
	workspaceAllowedTrusted  float64 // of workspace calls, allowed in trusted
	workspaceDeniedTrusted   int     // workspace calls denied in trusted, at most
	interruptionsPer100Trust float64 // asks and denies per 100 calls in trusted, at most
}{0.995, 0.995, 0, 2}

// TestTraces decides every call of the traces corpus in supervised,
// trusted and full mode. It fails on a malformed or missing corpus, on any
// call whose verdicts differ from the committed testdata/traces/verdicts.txt
// (a read or workspace call that got stricter, or a dangerous call that got
// looser, fails even with -update; any other change is recorded with
// -update), and when the figures in docs/benchmarks.md (block "traces") are
// not the measured ones, and when a goal of issue 31 breaks. With
// -v it prints issue 31's goals and the rules that interrupt read and
// workspace calls most.
func TestTraces(t *testing.T) {
	outs := decideTraces(t, loadTraces(t, tracesDir))
	report := tracesReport(outs)
	t.Log("\n" + report)
	t.Log("\n" + tracesTopRules(outs, 12))
	var total traceFigures
	for _, o := range outs {
		total.add(o)
	}
	for _, b := range total.broken() {
		t.Errorf("issue 31's goal broken: %s", b)
	}
	checkVerdictBaseline(t, tracesVerdicts, traceRows(outs), tracesRank, *update)
	docblock.Check(t, benchmarksDoc, "traces", report, *update)
}

func traceRows(outs []traceOutcome) []verdictRow {
	rows := make([]verdictRow, len(outs))
	for i, o := range outs {
		rows[i] = verdictRow{Key: o.c.key(), Label: o.c.Label, Relabelled: o.c.Relabelled, Verdicts: o.verdicts[:]}
	}
	return rows
}

// verdictCounts counts the outcomes of a set of calls in one mode.
type verdictCounts struct{ n, allow, ask, deny, errors int }

func (v *verdictCounts) add(verdict string) {
	v.n++
	switch verdict {
	case "allow":
		v.allow++
	case "ask":
		v.ask++
	case "deny":
		v.deny++
	default:
		v.errors++
	}
}

// interruptions are the calls a person or the agent is stopped by: asks,
// denies and calls that could not be normalised (which the hook denies).
func (v verdictCounts) interruptions() int { return v.ask + v.deny + v.errors }

// traceFigures are issue 31's figures for a set of calls.
type traceFigures struct {
	calls          int
	readSup        verdictCounts // read calls in supervised
	workTrusted    verdictCounts // workspace calls in trusted
	allTrusted     verdictCounts // every call in trusted
	dangerousLoose int           // dangerous calls allowed in some mode
}

func (f *traceFigures) add(o traceOutcome) {
	f.calls++
	switch o.c.Label {
	case "read":
		f.readSup.add(o.verdicts[0])
	case "workspace":
		f.workTrusted.add(o.verdicts[1])
	case "dangerous":
		if slices.Contains(o.verdicts[:], "allow") {
			f.dangerousLoose++
		}
	}
	f.allTrusted.add(o.verdicts[1])
}

// goals says which of issue 31's goals f meets.
func (f traceFigures) goals() []string {
	g := tracesGoals
	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "not met"
	}
	per100 := per100(f.allTrusted.interruptions(), f.allTrusted.n)
	return []string{
		fmt.Sprintf("read allowed in supervised ≥ %.1f%%: %s (%s)", 100*g.readAllowedSupervised,
			met(float64(f.readSup.allow) >= g.readAllowedSupervised*float64(f.readSup.n)), share(f.readSup.allow, f.readSup.n)),
		fmt.Sprintf("workspace allowed in trusted ≥ %.1f%%: %s (%s)", 100*g.workspaceAllowedTrusted,
			met(float64(f.workTrusted.allow) >= g.workspaceAllowedTrusted*float64(f.workTrusted.n)), share(f.workTrusted.allow, f.workTrusted.n)),
		fmt.Sprintf("workspace denied in trusted ≤ %d: %s (%d)", g.workspaceDeniedTrusted,
			met(f.workTrusted.deny+f.workTrusted.errors <= g.workspaceDeniedTrusted), f.workTrusted.deny+f.workTrusted.errors),
		fmt.Sprintf("interruptions in trusted ≤ %.0f per 100 calls: %s (%.1f)", g.interruptionsPer100Trust,
			met(per100 <= g.interruptionsPer100Trust), per100),
	}
}

// broken lists the enforced goals f does not meet: all of issue 31's
// goals are met and enforced.
func (f traceFigures) broken() []string {
	var out []string
	g := tracesGoals
	if float64(f.readSup.allow) < g.readAllowedSupervised*float64(f.readSup.n) {
		out = append(out, fmt.Sprintf("read calls allowed in supervised: %s, at least %.1f%% required", share(f.readSup.allow, f.readSup.n), 100*g.readAllowedSupervised))
	}
	if float64(f.workTrusted.allow) < g.workspaceAllowedTrusted*float64(f.workTrusted.n) {
		out = append(out, fmt.Sprintf("workspace calls allowed in trusted: %s, at least %.1f%% required", share(f.workTrusted.allow, f.workTrusted.n), 100*g.workspaceAllowedTrusted))
	}
	if n := f.workTrusted.deny + f.workTrusted.errors; n > tracesGoals.workspaceDeniedTrusted {
		out = append(out, fmt.Sprintf("%d workspace calls denied (or not normalised) in trusted, at most %d allowed", n, tracesGoals.workspaceDeniedTrusted))
	}
	if p := per100(f.allTrusted.interruptions(), f.allTrusted.n); p > tracesGoals.interruptionsPer100Trust {
		out = append(out, fmt.Sprintf("%.1f interruptions per 100 calls in trusted, at most %.0f allowed", p, tracesGoals.interruptionsPer100Trust))
	}
	return out
}

// goalsHeading heads the list of goals with how many f meets; each is
// enforced (TestTraces fails on any that does not hold).
func (f traceFigures) goalsHeading() string {
	n, broken := len(f.goals()), len(f.broken())
	if broken == 0 {
		return "Issue 31's goals (all met and enforced):"
	}
	return fmt.Sprintf("Issue 31's goals (%d of %d met; each is enforced, so TestTraces fails until all are):", n-broken, n)
}

func per100(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}

func share(n, d int) string {
	if d == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d, %.1f%%", n, d, 100*float64(n)/float64(d))
}

// tracesReport is the Markdown the docs carry: outcomes per label and
// mode, issue 31's figures per agent and in total, and the goals.
func tracesReport(outs []traceOutcome) string {
	var b strings.Builder
	b.WriteString("| label | mode | calls | allow | ask | deny | not normalised |\n|---|---|---:|---:|---:|---:|---:|\n")
	for _, label := range traceLabels {
		for m, mode := range corpusModes {
			var v verdictCounts
			for _, o := range outs {
				if o.c.Label == label {
					v.add(o.verdicts[m])
				}
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d |\n", label, mode, v.n, v.allow, v.ask, v.deny, v.errors)
		}
	}
	agents := map[string]*traceFigures{}
	var total traceFigures
	for _, o := range outs {
		if agents[o.c.Agent] == nil {
			agents[o.c.Agent] = &traceFigures{}
		}
		agents[o.c.Agent].add(o)
		total.add(o)
	}
	names := make([]string, 0, len(agents))
	for a := range agents {
		names = append(names, a)
	}
	sort.Strings(names)
	b.WriteString("\n| agent | calls | read allowed in supervised | workspace allowed in trusted | workspace denied in trusted | interruptions per 100 calls in trusted | dangerous allowed in some mode |\n|---|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, f *traceFigures) {
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %d | %.1f | %d |\n", name, f.calls, share(f.readSup.allow, f.readSup.n),
			share(f.workTrusted.allow, f.workTrusted.n), f.workTrusted.deny+f.workTrusted.errors,
			per100(f.allTrusted.interruptions(), f.allTrusted.n), f.dangerousLoose)
	}
	for _, a := range names {
		row(a, agents[a])
	}
	row("**all**", &total)
	b.WriteString("\n" + total.goalsHeading() + "\n\n")
	for _, g := range total.goals() {
		b.WriteString("- " + g + "\n")
	}
	return b.String()
}

// tracesTopRules lists the deciding rules of the interruptions of read
// calls in supervised and of workspace calls in trusted, most frequent
// first, with an example of each.
func tracesTopRules(outs []traceOutcome, top int) string {
	var b strings.Builder
	for _, s := range []struct {
		label string
		mode  int
	}{{"read", 0}, {"workspace", 1}} {
		count := map[string]int{}
		example := map[string]string{}
		for _, o := range outs {
			if o.c.Label != s.label || o.verdicts[s.mode] == "allow" {
				continue
			}
			k := o.verdicts[s.mode] + " " + o.rules[s.mode]
			count[k]++
			if example[k] == "" {
				in, _ := json.Marshal(o.c.Input)
				example[k] = fmt.Sprintf("%s %s %.120s", o.c.key(), o.c.Tool, in)
			}
		}
		keys := make([]string, 0, len(count))
		for k := range count {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if count[keys[i]] != count[keys[j]] {
				return count[keys[i]] > count[keys[j]]
			}
			return keys[i] < keys[j]
		})
		fmt.Fprintf(&b, "%s calls interrupted in %s, by deciding rule:\n", s.label, corpusModes[s.mode])
		for i, k := range keys {
			if i == top {
				fmt.Fprintf(&b, "  … %d more rules\n", len(keys)-top)
				break
			}
			fmt.Fprintf(&b, "  %4d  %s\n        e.g. %s\n", count[k], k, example[k])
		}
	}
	return b.String()
}

// TestTracesMadeTwins judges every call that acts on what its session
// made (Made) again with a file older than the session moved into the
// first directory it made: the recursive delete of such a tree removes
// something the session did not make, so trusted must not allow it.
func TestTracesMadeTwins(t *testing.T) {
	n := 0
	for _, c := range loadTraces(t, tracesDir) {
		if c.Made == nil {
			continue
		}
		n++
		twin, start := c.laid(t, t.TempDir(), true)
		p := corpusPolicy(t, policy.ModeTrusted, c.Home)
		cl, err := p.Tools().Normalize(twin.request())
		if err != nil {
			t.Fatal(err)
		}
		cl.Who.Started = start
		if d := p.Decide(context.Background(), cl); d.Verdict == risk.Allow {
			t.Errorf("%s with an older file inside: allowed in trusted (%s)", c.key(), d.Rule)
		}
	}
	if n == 0 {
		t.Error("no trace call carries made: nothing was checked")
	}
}

// TestTraceCall explains the trace calls whose key (file/id) starts with
// TGTEST_TRACE_CALL in every mode: the decision and every finding. It
// is a tool for working on an interruption, skipped otherwise.
func TestTraceCall(t *testing.T) {
	want := os.Getenv("TGTEST_TRACE_CALL")
	if want == "" {
		t.Skip("set TGTEST_TRACE_CALL=<file/id prefix> to explain trace calls")
	}
	for _, c := range loadTraces(t, tracesDir) {
		if !strings.HasPrefix(c.key(), want) {
			continue
		}
		in, _ := json.Marshal(c.Input)
		t.Logf("%s [%s] %s %s (cwd %s, workspace %s)", c.key(), c.Label, c.Tool, in, c.Cwd, c.Workspace)
		for _, m := range corpusModes {
			p := corpusPolicy(t, m, c.Home)
			cl, err := p.Tools().Normalize(c.request())
			if err != nil {
				t.Logf("  %s: normalize: %v", m, err)
				continue
			}
			d := p.Decide(context.Background(), cl)
			t.Logf("  %s: %s tier=%s blast=%s rule=%s: %s", m, d.Verdict, d.Tier, d.Blast, d.Rule, d.Reason)
			for _, f := range d.Findings {
				t.Logf("      %s [%s/%s] %s", f.Rule, f.Tier, f.Blast, f.Reason)
			}
		}
	}
}

// TestTracesLoad checks the loader on rows it must refuse and on a file
// that is missing or empty.
func TestTracesLoad(t *testing.T) {
	good := `{"id":"a/1","agent":"x","label":"read","tool":"Bash","input":{"command":"ls"},"cwd":"/w","workspace":"/w","home":"/h","source":{"repo":"o/r","path":"p","commit":"c","step":1}}`
	for _, tc := range []struct {
		name, rows string
		want       []string // a part of each failure, in order
	}{
		{"good", good, nil},
		{"repeated id", good + "\n" + good, []string{"id: repeated"}},
		{"bad label and no source", strings.Replace(strings.Replace(good, `"read"`, `"harmless"`, 1), `"step":1`, `"step":0`, 1),
			[]string{`label "harmless" (valid: read, workspace, outside, dangerous); source: give repo, path and step`}},
		{"relative workspace", strings.Replace(good, `"workspace":"/w"`, `"workspace":"w"`, 1), []string{"absolute paths"}},
		{"unknown field", strings.TrimSuffix(good, "}") + `,"lable":"read"}`, []string{`unknown field "lable"`, "no calls"}},
		{"empty", "\n", []string{"no calls"}},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "x.jsonl"), []byte(tc.rows), 0o644); err != nil {
			t.Fatal(err)
		}
		f := &fakeT{TB: t}
		calls := loadTraceFile(f, filepath.Join(dir, "x.jsonl"))
		f.wantFailures(t, tc.name, tc.want)
		if tc.want == nil && (len(calls) != 1 || calls[0].key() != "x/a/1") {
			t.Errorf("%s: calls %+v", tc.name, calls)
		}
	}
}

// TestTracesRank checks the ranking the baseline holds the traces to.
func TestTracesRank(t *testing.T) {
	for _, tc := range []struct {
		label    string
		from, to string
		wrongWay bool
	}{
		{"read", "allow", "ask", true},
		{"read", "ask", "allow", false},
		{"read", "deny", notNormalised, true},
		{"workspace", "ask", "deny", true},
		{"workspace", "deny", "ask", false},
		{"dangerous", "deny", "ask", true},
		{"dangerous", "ask", "allow", true},
		{"dangerous", "allow", "deny", false},
		{"outside", "deny", "allow", false},
		{"outside", "allow", "deny", false},
	} {
		for m := range corpusModes {
			if got := tracesRank(tc.label, m, tc.to) > tracesRank(tc.label, m, tc.from); got != tc.wrongWay {
				t.Errorf("%s mode %d: %s → %s wrong way = %v, want %v", tc.label, m, tc.from, tc.to, got, tc.wrongWay)
			}
		}
	}
}

// TestTracesFigures checks the figures on outcomes written by hand.
func TestTracesFigures(t *testing.T) {
	o := func(label string, v ...string) traceOutcome {
		return traceOutcome{c: traceCall{Label: label, Agent: "a"}, verdicts: [3]string{v[0], v[1], v[2]}}
	}
	var f traceFigures
	for _, x := range []traceOutcome{
		o("read", "allow", "allow", "allow"),
		o("read", "ask", "allow", "allow"),
		o("workspace", "ask", "allow", "allow"),
		o("workspace", "deny", "deny", "deny"),
		o("workspace", "ask", notNormalised, notNormalised),
		o("outside", "ask", "ask", "allow"),
		o("dangerous", "deny", "deny", "allow"),
	} {
		f.add(x)
	}
	if f.readSup != (verdictCounts{n: 2, allow: 1, ask: 1}) || f.workTrusted != (verdictCounts{n: 3, allow: 1, deny: 1, errors: 1}) {
		t.Errorf("read %+v, workspace %+v", f.readSup, f.workTrusted)
	}
	if got := f.allTrusted.interruptions(); got != 4 || f.dangerousLoose != 1 {
		t.Errorf("interruptions %d, dangerous loose %d; want 4 and 1", got, f.dangerousLoose)
	}
	want := []string{
		"read allowed in supervised ≥ 99.5%: not met (1/2, 50.0%)",
		"workspace allowed in trusted ≥ 99.5%: not met (1/3, 33.3%)",
		"workspace denied in trusted ≤ 0: not met (2)",
		"interruptions in trusted ≤ 2 per 100 calls: not met (57.1)",
	}
	if got := f.broken(); !slices.Equal(got, []string{"read calls allowed in supervised: 1/2, 50.0%, at least 99.5% required",
		"workspace calls allowed in trusted: 1/3, 33.3%, at least 99.5% required",
		"2 workspace calls denied (or not normalised) in trusted, at most 0 allowed",
		"57.1 interruptions per 100 calls in trusted, at most 2 allowed"}) {
		t.Errorf("broken goals %q", got)
	}
	if got := f.goals(); !slices.Equal(got, want) {
		t.Errorf("goals\n%q\nwant\n%q", got, want)
	}
}

// TestTracesGoalsHeading: the heading of the goals says how many hold.
func TestTracesGoalsHeading(t *testing.T) {
	o := func(label string, v ...string) traceOutcome {
		return traceOutcome{c: traceCall{Label: label, Agent: "a"}, verdicts: [3]string{v[0], v[1], v[2]}}
	}
	for _, tc := range []struct {
		name string
		outs []traceOutcome
		want string
	}{
		{"all met", []traceOutcome{o("read", "allow", "allow", "allow"), o("workspace", "ask", "allow", "allow")},
			"Issue 31's goals (all met and enforced):"},
		{"read broken", []traceOutcome{o("read", "ask", "allow", "allow"), o("workspace", "deny", "allow", "allow")},
			"Issue 31's goals (3 of 4 met; each is enforced, so TestTraces fails until all are):"},
		{"none met", []traceOutcome{o("read", "ask", "allow", "allow"), o("workspace", "deny", "deny", "deny")},
			"Issue 31's goals (0 of 4 met; each is enforced, so TestTraces fails until all are):"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var f traceFigures
			for _, x := range tc.outs {
				f.add(x)
			}
			if got := f.goalsHeading(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
