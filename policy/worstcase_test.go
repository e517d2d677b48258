package policy_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// worstSize is the largest size the worst cases are made at: just under
// the shell analysis's 64 KiB input limit, so that all of it is analysed.
const worstSize = 60 << 10

// worstFamily makes a hostile input within the size limits, of about size
// bytes (the generated text is test input for Decide; nothing runs it).
type worstFamily struct {
	name     string
	make     func(size int) string
	patterns int // custom_patterns in the policy
}

// fill repeats unit after prefix until the text would pass size, then
// adds suffix.
func fill(size int, prefix, unit, suffix string) string {
	n := max((size-len(prefix)-len(suffix))/len(unit), 1)
	return prefix + strings.Repeat(unit, n) + suffix
}

// nestQuoted wraps code in wrap (a function that quotes it as the next
// level's code) until one more level would pass size.
func nestQuoted(size int, code string, wrap func(string) string) string {
	for {
		next := wrap(code)
		if len(next) > size {
			return code
		}
		code = next
	}
}

// nestPairs nests open … close around "rm -rf /tmp/x" as deep as fits in
// size.
func nestPairs(size int, open, close string) string {
	n := max((size-20)/(len(open)+len(close)), 1)
	return strings.Repeat(open, n) + "rm -rf /tmp/x" + strings.Repeat(close, n)
}

func dquote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`")
	return `"` + r.Replace(s) + `"`
}

func squote(s string) string { return `'` + strings.ReplaceAll(s, `'`, `'\''`) + `'` }

// worstFamilies are the hostile shapes: 12,000 nested evals, eval and
// bash -c quoted inside each other as deep as the size allows, thousands
// of operands (plain, globs, globs under the home directory), long
// pipelines and && lists, a script fed to bash by a here-document, brace
// expansions of a thousand words each, many and deeply nested $(…),
// subshells, blocks, conditionals, loops, arithmetic, parameter
// expansions and process substitutions, chains of wrappers (sudo, xargs,
// find -exec), function calls, spawns in interpreter code, variables that
// double or are expanded thousands of times, thousands of exported
// variables, redirects, assignments and case branches, one 60 KB word, and
// 1,000 custom_patterns against all of that.
var worstFamilies = []worstFamily{
	{name: "nested-eval", make: func(n int) string { return fill(n, "", "eval ", "rm -rf /tmp/x") }},
	{name: "nested-eval-quoted", make: func(n int) string {
		return nestQuoted(n, "rm -rf /tmp/x", func(s string) string { return "eval " + dquote(s) })
	}},
	{name: "nested-bash-c", make: func(n int) string {
		return nestQuoted(n, "rm -rf /tmp/x", func(s string) string { return "bash -c " + squote(s) })
	}},
	{name: "nested-eval-operands", make: func(n int) string { return fill(n, strings.Repeat("eval ", 8)+"cat", " d/*.go", "") }},
	{name: "many-operands", make: func(n int) string { return fill(n, "cat", " a/b", "") }},
	{name: "many-glob-operands", make: func(n int) string { return fill(n, "rm -rf", " d/*.go", "") }},
	{name: "many-home-globs", make: func(n int) string { return fill(n, "cat", " ~/.*/*", "") }},
	{name: "long-pipeline", make: func(n int) string { return fill(n, "", "cat a | ", "cat") }},
	{name: "many-commands", make: func(n int) string { return fill(n, "", "rm a/b; ", "") }},
	{name: "many-and", make: func(n int) string { return fill(n, "", "a&&", "a") }},
	{name: "heredoc-to-bash", make: func(n int) string { return fill(n, "bash <<'EOF'\n", "rm -rf a/*\n", "EOF") }},
	{name: "brace-expansion", make: func(n int) string {
		return fill(n, "rm -rf", " {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}{s,t}", "")
	}},
	{name: "many-cmdsubst", make: func(n int) string { return fill(n, "echo", " $(cat a/b)", "") }},
	{name: "nested-cmdsubst", make: func(n int) string { return "echo " + nestPairs(n, "$(", ")") }},
	{name: "nested-subshells", make: func(n int) string { return nestPairs(n, "( ", ")") }},
	{name: "nested-blocks", make: func(n int) string { return nestPairs(n, "{ ", "; }") }},
	{name: "nested-ifs", make: func(n int) string { return nestPairs(n, "if a; then ", "; fi") }},
	{name: "nested-loops", make: func(n int) string { return nestPairs(n, "while a; do ", "; done") }},
	{name: "nested-arith", make: func(n int) string {
		return "echo $((" + strings.Repeat("(", n/2-6) + "1" + strings.Repeat(")", n/2-6) + "))"
	}},
	{name: "nested-params", make: func(n int) string { return "echo " + strings.Repeat("${a:-", n/6) + strings.Repeat("}", n/6) }},
	{name: "nested-procsubst", make: func(n int) string { return "cat " + nestPairs(n, "<(cat ", ")") }},
	{name: "many-sudo", make: func(n int) string { return fill(n, "", "sudo ", "rm -rf /tmp/x") }},
	{name: "xargs-chain", make: func(n int) string { return fill(n, "", "xargs ", "rm -rf /tmp/x") }},
	{name: "find-exec-chain", make: func(n int) string { return fill(n, "", "find . -exec ", "rm -rf /tmp/x") }},
	{name: "functions", make: func(n int) string { return fill(n, "f0(){ rm -rf a/*; }; ", "f0; ", "") }},
	{name: "python-spawns", make: func(n int) string { return fill(n, `python3 -c "import os`, `; os.system('rm -rf a/*')`, `"`) }},
	{name: "doubling-variable", make: func(n int) string { return fill(n, "X=aaaaaaaa;", " X=$X$X;", " cat $X") }},
	{name: "many-exported-vars", make: func(n int) string {
		var b strings.Builder
		b.WriteString("export")
		for i := 0; b.Len() < n/2; i++ {
			fmt.Fprintf(&b, " V%d=1", i)
		}
		b.WriteString("; ")
		return b.String() + fill(n/2, "", "ls; ", "")
	}},
	{name: "many-redirects", make: func(n int) string { return fill(n, "cat", " >a/b", "") }},
	{name: "many-assigns", make: func(n int) string { return fill(n, "", "A=1 ", "ls") }},
	{name: "case-branches", make: func(n int) string { return fill(n, "case x in", " a) ls;;", " esac") }},
	{name: "function-defs", make: func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			fmt.Fprintf(&b, "f%d(){ rm a; }; ", i)
		}
		return b.String()
	}},
	{name: "long-word", make: func(n int) string { return "cat " + strings.Repeat("a", n) }},
	{name: "big-variable", make: func(n int) string {
		return "X=" + strings.Repeat("a", n/2) + "; " + fill(n/2, "echo", " $X", "")
	}},
	{name: "custom-patterns", make: func(n int) string { return fill(n, "cat", " a/b", "") }, patterns: 1000},
	{name: "custom-patterns-eval", make: func(n int) string { return fill(n, "", "eval ", "true") }, patterns: 1000},
}

// worstPolicy compiles the default policy, with n custom patterns.
func worstPolicy(t testing.TB, n int) *policy.Policy {
	t.Helper()
	s := &policy.Settings{}
	for i := range n {
		s.Commands.CustomPatterns = append(s.Commands.CustomPatterns, fmt.Sprintf(`rm\s+-rf\s+.*/important%d(/|$)`, i))
	}
	return mustCompile(t, s)
}

func worstCall(t testing.TB, p *policy.Policy, cmd string) call.Call {
	t.Helper()
	c, err := p.Tools().Normalize(call.Request{Tool: "Bash", Input: bash(cmd), Cwd: ws, Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// worstSizes are the sizes the tests try every family at: a family is at
// its worst at the largest size whose parse the budget still affords,
// which differs from family to family.
var worstSizes = []int{2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 45 << 10, worstSize}

// mcpCall is a tool call whose arguments are a megabyte of text shaped to
// make the credential patterns slow (each "eyJ" starts a possible JWT).
func mcpCall(t testing.TB, p *policy.Policy) call.Call {
	t.Helper()
	in := map[string]any{"text": strings.Repeat("eyJ", (1<<20)/3)}
	c, err := p.Tools().Normalize(call.Request{Tool: "mcp__notes__save", Input: in, Cwd: ws, Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestWorstCaseBounded decides every hostile family at every size and
// checks the bounds of DESIGN §10: the work stays within the budget, the
// allocations within 8 MB, and a call whose budget ran out is
// unverifiable, never allowed. Time is not compared with the budget here
// (it varies with the machine): the work units stand for it, and a
// generous bound on the thread's CPU catches a runaway, that is work the
// units do not charge (BenchmarkDecideWorstCase has the figures).
func TestWorstCaseBounded(t *testing.T) {
	pols := map[int]*policy.Policy{0: worstPolicy(t, 0), 1000: worstPolicy(t, 1000)}
	sizes := worstSizes
	if testing.Short() {
		sizes = []int{8 << 10, worstSize}
	}
	check := func(t *testing.T, p *policy.Policy, c call.Call) {
		t.Helper()
		p.Decide(context.Background(), c) // warm the caches a first call fills
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		var d policy.Decision
		var units int
		cpu, measured := threadCPU(func() { d, units = p.DecideWork(context.Background(), c) })
		runtime.ReadMemStats(&after)
		if units > policy.WorkLimit {
			t.Errorf("spent %d work units, over the limit of %d", units, policy.WorkLimit)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
			t.Errorf("allocated %.1f MB, want at most 8 (%s)", float64(alloc)/(1<<20), d.Rule)
		}
		if bound := runawayCPU(); measured && cpu > bound {
			t.Errorf("took %v of CPU, over %v: the analysis is not bounded (some work is not charged to the budget)", cpu, bound)
		}
		if hasRule(d, "analysis.work-limit") && (d.Verdict == risk.Allow || !d.Unverifiable) {
			t.Errorf("over the work limit but %s (unverifiable %v): %s", d.Verdict, d.Unverifiable, d.Reason)
		}
	}
	for _, f := range worstFamilies {
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s/%dK", f.name, size>>10), func(t *testing.T) {
				p := pols[f.patterns]
				check(t, p, worstCall(t, p, f.make(size)))
			})
		}
	}
	t.Run("mcp-arguments/1M", func(t *testing.T) { check(t, pols[0], mcpCall(t, pols[0])) })
	for _, tc := range treeCalls(t, pols[0]) {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			check(t, pols[0], c)
		})
	}
}

// runawayCPU is the thread CPU a worst case may take before the test calls
// it a runaway: three times DESIGN §10's 20 ms (the dearest family takes
// 12 ms on the 2-core Intel machine), and 300 ms under the race detector
// (112 ms there). Work the budget does not charge shows here first: a
// memo key built over 3,000 exported variables per command took 33–54 ms,
// and 394–511 ms under the race detector.
func runawayCPU() time.Duration {
	if raceEnabled {
		return 300 * time.Millisecond
	}
	return 60 * time.Millisecond
}

func hasRule(d policy.Decision, rule string) bool {
	for _, f := range d.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// TestWorstCaseVerdicts pins what the hostile inputs of the issue end in:
// a deny that says the call is too complex to judge (or, for the inputs
// the older per-parse limits stop first, a deny that says which limit).
// Before the work budget they cost up to seconds and hundreds of
// megabytes, and several were allowed; until issue 30 they were asks, which
// let padding in front of a critical command soften its deny.
func TestWorstCaseVerdicts(t *testing.T) {
	pols := map[int]*policy.Policy{0: worstPolicy(t, 0), 1000: worstPolicy(t, 1000)}
	tests := []struct {
		family string
		size   int
		rule   string
	}{
		{"nested-eval", worstSize, "analysis.work-limit"}, // 12,000 nested evals
		{"nested-eval-operands", worstSize, "analysis.work-limit"},
		{"nested-eval-quoted", worstSize, "analysis.work-limit"},
		{"nested-bash-c", worstSize, "analysis.limit"}, // code nested more than 8 levels deep
		{"many-operands", worstSize, "analysis.work-limit"},
		{"many-glob-operands", worstSize, "analysis.work-limit"},
		{"many-home-globs", worstSize, "analysis.work-limit"},
		{"long-pipeline", worstSize, "analysis.work-limit"},
		{"many-commands", worstSize, "analysis.limit"}, // more than 512 commands: rm's build outputs are one class (@outputs), cheaper than the work limit
		{"heredoc-to-bash", worstSize, "analysis.work-limit"},
		{"brace-expansion", worstSize, "analysis.work-limit"},
		{"brace-expansion", 4 << 10, "analysis.work-limit"},
		{"many-cmdsubst", worstSize, "analysis.work-limit"},
		{"nested-cmdsubst", worstSize, "analysis.work-limit"},
		{"nested-subshells", worstSize, "analysis.work-limit"},
		{"nested-arith", worstSize, "analysis.work-limit"},
		{"nested-loops", 8 << 10, "analysis.work-limit"},
		{"find-exec-chain", worstSize, "analysis.work-limit"},
		{"python-spawns", 8 << 10, "analysis.work-limit"},
		{"many-exported-vars", 8 << 10, "analysis.work-limit"},
		{"many-assigns", worstSize, "analysis.work-limit"},
		{"custom-patterns", worstSize, "analysis.work-limit"}, // 1,000 user regexes, 60 KB
		{"custom-patterns-eval", worstSize, "analysis.work-limit"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%dK", tc.family, tc.size>>10), func(t *testing.T) {
			f := familyNamed(t, tc.family)
			p := pols[f.patterns]
			d := p.Decide(context.Background(), worstCall(t, p, f.make(tc.size)))
			if d.Verdict != risk.Deny || !d.Unverifiable || d.Category != risk.CatUnverifiable || d.Rule != tc.rule {
				t.Errorf("%s %s (%s, unverifiable %v), want deny %s (unverifiable): %s",
					d.Verdict, d.Rule, d.Category, d.Unverifiable, tc.rule, d.Reason)
			}
		})
	}
	t.Run("mcp-arguments/1M", func(t *testing.T) {
		d := pols[0].Decide(context.Background(), mcpCall(t, pols[0]))
		if d.Verdict != risk.Deny || !d.Unverifiable || d.Rule != "analysis.work-limit" {
			t.Errorf("%s %s (unverifiable %v), want deny analysis.work-limit: %s", d.Verdict, d.Rule, d.Unverifiable, d.Reason)
		}
	})
}

func familyNamed(t testing.TB, name string) worstFamily {
	t.Helper()
	for _, f := range worstFamilies {
		if f.name == name {
			return f
		}
	}
	t.Fatalf("no family %q", name)
	return worstFamily{}
}

// TestWorkLimitReason checks that running out of work says so in words a
// person can act on.
func TestWorkLimitReason(t *testing.T) {
	p := worstPolicy(t, 0)
	d := p.Decide(context.Background(), worstCall(t, p, familyNamed(t, "nested-eval").make(worstSize)))
	if !strings.Contains(d.Reason, "too complex to judge within toolguard's work limit") || d.Suggestion == "" {
		t.Errorf("reason %q, suggestion %q", d.Reason, d.Suggestion)
	}
}

// TestWorkLimitKeepsDeny checks that a command too complex to check whole
// is still denied for what its first part does: the parse may use three
// quarters of the budget, and the rest judges the commands it found. (A
// text whose parse alone would pass the budget, such as 20,000 nested
// parentheses, is not parsed at all: it is only asked about.) The first
// part is a denied read, which leaves the decision open, so the rest is
// judged until the work runs out; a first part that settles the decision
// (rm -rf /, critical) ends the analysis there, and the decision is the
// same deny.
func TestWorkLimitKeepsDeny(t *testing.T) {
	p := worstPolicy(t, 0)
	for _, tail := range []string{
		familyNamed(t, "nested-eval").make(50 << 10),
		familyNamed(t, "many-operands").make(50 << 10),
		familyNamed(t, "python-spawns").make(50 << 10),
	} {
		d := p.Decide(context.Background(), worstCall(t, p, "cat ~/.ssh/id_rsa ; "+tail))
		if d.Verdict != risk.Deny || !d.Unverifiable {
			t.Errorf("%s %s (unverifiable %v), want deny (unverifiable): %s", d.Verdict, d.Rule, d.Unverifiable, d.Reason)
		}
		d = p.Decide(context.Background(), worstCall(t, p, "rm -rf --no-preserve-root / ; "+tail))
		if d.Verdict != risk.Deny || d.Rule != "core.fs.rm-recursive-root" {
			t.Errorf("%s %s, want deny core.fs.rm-recursive-root: %s", d.Verdict, d.Rule, d.Reason)
		}
	}
}

// TestWorkLimitModes checks that a call over the work limit is denied in
// every mode: unlike eval "$X", whose one unknown part a person can read,
// what lies beyond the limit was not analysed at all.
func TestWorkLimitModes(t *testing.T) {
	attack := familyNamed(t, "nested-eval").make(worstSize)
	for _, s := range []policy.Settings{
		{Mode: policy.ModeSupervised}, {Mode: policy.ModeTrusted}, {Mode: policy.ModeFull},
		{Mode: policy.ModeStrict}, {Mode: policy.ModeReadonly}, {Mode: policy.ModeFull, Unattended: true},
	} {
		p := mustCompile(t, &s)
		got := decide(t, p, "Bash", bash(attack))
		if got.Verdict != "deny" {
			t.Errorf("mode %s (unattended %v): %s, want deny", s.Mode, s.Unattended, got.Verdict)
		}
	}
}

// TestWorkLimitOrdinary checks that ordinary commands use a few percent
// of the budget, and that large ones that are still ordinary (a long
// commit message, a file written by a here-document, a script of a few
// dozen lines) stay inside it: the limit only stops hostile input.
func TestWorkLimitOrdinary(t *testing.T) {
	p := worstPolicy(t, 0)
	var files, script strings.Builder
	for i := range 100 {
		fmt.Fprintf(&files, " internal/pkg%d/file%d.go", i%12, i)
	}
	for i := range 30 {
		fmt.Fprintf(&script, "go test ./internal/pkg%d/... -run 'Test.*' -count=1 2>&1 | tail -5\n", i)
	}
	tests := []struct {
		name, command string
		most          int // work units
	}{
		{"git status", "git status && git diff --stat", policy.WorkLimit / 50},
		{"tests", "cd web && npm run test -- --coverage 2>&1 | tail -20", policy.WorkLimit / 50},
		{"find and xargs", "find . -name '*.go' -not -path './vendor/*' | xargs wc -l | sort -n | tail", policy.WorkLimit / 50},
		{"bash -c", `sudo bash -c "apt-get update && apt-get install -y curl"`, policy.WorkLimit / 50},
		{"git add 100 files", "git add" + files.String(), policy.WorkLimit * 3 / 4},
		{"4 KB commit message", "git commit -m '" + strings.Repeat("Fix the parser. ", 256) + "'", policy.WorkLimit / 4},
		{"20 KB file by heredoc", "cat > notes.md <<'EOF'\n" + strings.Repeat("Some text with $VARS, (parens) and `ticks`; more.\n", 400) + "EOF", policy.WorkLimit / 2},
		{"10 KB python heredoc", "python3 - <<'EOF'\n" + strings.Repeat("import os\nprint(os.path.join('a', 'b'))\n", 250) + "EOF", policy.WorkLimit / 2},
		{"30-line script", script.String(), policy.WorkLimit / 2},
	}
	for _, tc := range tests {
		d, units := p.DecideWork(context.Background(), worstCall(t, p, tc.command))
		if hasRule(d, "analysis.work-limit") || units > tc.most {
			t.Errorf("%s: %d work units, want at most %d of %d (%s %s)", tc.name, units, tc.most, policy.WorkLimit, d.Verdict, d.Rule)
		}
	}
}

// TestCustomPatternsBudget checks that user regular expressions are
// checked on the call's budget and still match ordinary commands when
// there are many of them.
func TestCustomPatternsBudget(t *testing.T) {
	p := worstPolicy(t, 1000)
	got, _ := p.DecideWork(context.Background(), worstCall(t, p, "rm -rf ./data/important742"))
	if !hasRule(got, "commands.custom-pattern") || hasRule(got, "analysis.work-limit") {
		t.Errorf("the 743rd of 1000 patterns did not match: %s %s", got.Verdict, got.Rule)
	}
	d, units := p.DecideWork(context.Background(), worstCall(t, p, "ls -la"))
	if hasRule(d, "analysis.work-limit") || units > policy.WorkLimit/4 {
		t.Errorf("ls with 1000 patterns: %d units (%s)", units, d.Rule)
	}
}

// BenchmarkDecideWorstCase measures Decide on hostile inputs within the
// size limits (DESIGN §10: ≤ 20 ms CPU and ≤ 8 MB each), at the full size
// and at 8 KB, where the families whose full size the parse refuses at
// once are at their dearest. cpu-ms/op is the process's CPU time (the
// garbage collector's included) per decision.
func BenchmarkDecideWorstCase(b *testing.B) {
	pols := map[int]*policy.Policy{0: worstPolicy(b, 0), 1000: worstPolicy(b, 1000)}
	run := func(b *testing.B, p *policy.Policy, c call.Call) {
		b.ReportAllocs()
		ctx := context.Background()
		cpu0, ok := processCPU()
		for b.Loop() {
			p.Decide(ctx, c)
		}
		if cpu1, _ := processCPU(); ok {
			b.ReportMetric(float64((cpu1-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		}
	}
	for _, f := range worstFamilies {
		for _, size := range []int{8 << 10, 45 << 10, worstSize} {
			p := pols[f.patterns]
			c := worstCall(b, p, f.make(size))
			b.Run(fmt.Sprintf("%s/%dK", f.name, size>>10), func(b *testing.B) { run(b, p, c) })
		}
	}
	b.Run("mcp-arguments/1M", func(b *testing.B) { run(b, pols[0], mcpCall(b, pols[0])) })
	for _, tc := range treeCalls(b, pols[0]) {
		b.Run(tc.name, func(b *testing.B) { run(b, pols[0], tc.c) })
	}
}

// treeCalls are commands on 300 directories laid in a workspace, each
// copied, moved, linked, deleted or searched whole: each is judged as the
// tree of paths it holds, which costs a hundred times a path.
func treeCalls(t testing.TB, p *policy.Policy) []struct {
	name string
	c    call.Call
} {
	trees := t.TempDir()
	var dirs []string
	for i := range 300 {
		d := fmt.Sprintf("d%d", i)
		if err := os.MkdirAll(filepath.Join(trees, d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	var out []struct {
		name string
		c    call.Call
	}
	for _, form := range []string{"cp -r %s out/", "mv %s out/", "ln -s %s out/", "rm -rf %s", "grep -rn TODO %s"} {
		cmd := fmt.Sprintf(form, strings.Join(dirs, " "))
		c, err := p.Tools().Normalize(call.Request{Tool: "Bash", Input: bash(cmd), Cwd: trees, Workspace: trees})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, struct {
			name string
			c    call.Call
		}{"many-trees/" + strings.Fields(form)[0], c})
	}
	return out
}
