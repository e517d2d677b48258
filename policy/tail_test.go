package policy_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/internal/peercorpus"
	"github.com/toolguard/toolguard/policy"
)

// tailCall is one call of a corpus, named, with the policy that judges it.
type tailCall struct {
	name string
	judgedCall
}

// TestTail is a measuring tool, not a goal test: with TAIL set to
// adversarial, traces or peers (or several, comma-separated) it decides
// every call of the corpus TAIL_RUNS times (15 unless told), keeps the
// smallest time of each call, and prints the p50, p99 and max of those
// minimums and the TAIL_TOP (40) slowest calls; TAIL_MATCH keeps only
// the calls whose name holds it (or one of its "|"-separated parts);
// TAIL_COUNT=1 decides each call once, for callgrind, and logs its
// allocations (countEach), after TAIL_WARM (1) passes that warm what a
// policy builds on first use; without TAIL_COUNT, TAIL_WARM passes run
// before the timed ones (none unless told: a row whose policy is its
// own indexes its deferred path lists after scanLimit judgements, so its
// min-of-15 depends on how many paths a decision judges). Without TAIL
// it skips.
//
//	TAIL=adversarial go test ./policy -run TestTail -v
func TestTail(t *testing.T) {
	which := os.Getenv("TAIL")
	if which == "" {
		t.Skip("TAIL=adversarial|traces|peers measures the per-call tail")
	}
	runs, top := envInt("TAIL_RUNS", 15), envInt("TAIL_TOP", 40)
	for _, corpus := range strings.Split(which, ",") {
		calls := tailCalls(t, corpus)
		if m := os.Getenv("TAIL_MATCH"); m != "" { // only the calls whose name holds one of its parts
			parts := strings.Split(m, "|")
			calls = slices.DeleteFunc(calls, func(c tailCall) bool {
				return !slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(c.name, p) })
			})
		}
		if os.Getenv("TAIL_COUNT") != "" {
			countEach(t, corpus, calls)
			continue
		}
		if warm := envInt("TAIL_WARM", 0); warm > 0 { // the timed runs after warm passes too
			minOfRuns(calls, warm)
		}
		mins := minOfRuns(calls, runs)
		order := make([]int, len(calls))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return int(mins[a] - mins[b]) })
		at := func(q float64) time.Duration { return mins[order[int(float64(len(order)-1)*q)]] }
		t.Logf("%s: %d calls, min-of-%d: p50 %v p99 %v max %v", corpus, len(calls), runs,
			at(0.5), mins[order[len(order)*99/100]], at(1))
		for i := len(order) - 1; i >= 0 && i >= len(order)-top; i-- {
			c := calls[order[i]]
			t.Logf("  %8v  %s: %.100q", mins[order[i]], c.name, c.c.Command)
		}
		// TAIL_LOOP=n decides the slowest calls n times more, for a
		// profile of the tail alone (-cpuprofile).
		if n := envInt("TAIL_LOOP", 0); n > 0 {
			var slow []tailCall
			for i := len(order) - 1; i >= 0 && i >= len(order)-top; i-- {
				slow = append(slow, calls[order[i]])
			}
			minOfRuns(slow, n)
		}
	}
}

// countEach decides every call TAIL_WARM times (once unless told) to warm
// what a policy builds on first use (a row with a policy of its own
// compiles its deferred path lists after scanLimit judgements: warmed
// past them, its count is the one min-of-15 times), then once more
// between calls of tailMark, then logs each call's
// allocations in the same order. Under callgrind (--dump-before=
// '*policy_test.tailMark') the dumps after the first, numbered in that
// order, are the instructions of each call, whatever goroutines or
// stack copies it goes through.
func countEach(t *testing.T, corpus string, calls []tailCall) {
	ctx := context.Background()
	for range envInt("TAIL_WARM", 1) {
		for _, c := range calls {
			c.p.Decide(ctx, c.c)
		}
	}
	growStack(nil)
	countPass(ctx, calls)
	for i, c := range calls {
		allocs := testing.AllocsPerRun(1, func() { c.p.Decide(ctx, c.c) })
		t.Logf("count %s %d %s %.0f %.100q", corpus, i, c.name, allocs, c.c.Command)
	}
}

// countPass decides each call once, between calls of tailMark: the pass
// that is counted. Under callgrind, --collect-atstart=no
// --toggle-collect='*policy_test.countPass' profiles it alone, without
// the warm passes before it or the allocation counts after.
//
//go:noinline
func countPass(ctx context.Context, calls []tailCall) {
	for _, c := range calls {
		tailMark()
		c.p.Decide(ctx, c.c)
	}
	tailMark()
}

// tailMark marks the border between two calls for callgrind, and for
// strace (strace -f -e trace=%file,%desc,getppid): its getppid is the
// only one the test makes.
//
//go:noinline
func tailMark() {
	tailMarks++
	os.Getppid()
}

var tailMarks int

// growStack grows the goroutine's stack once, before counting: a stack
// copied in the middle of a call reads to callgrind as the call's return.
// (GOGC=off keeps it grown.)
//
//go:noinline
func growStack(sink *[1 << 20]byte) byte {
	var buf [1 << 20]byte
	if sink != nil {
		*sink = buf
	}
	return buf[len(buf)-1]
}

// envInt reads a positive integer from the environment, or def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// minOfRuns decides every call runs times, in turns (so a burst of noise
// touches one run of many calls, not every run of one), and returns the
// smallest time of each.
func minOfRuns(calls []tailCall, runs int) []time.Duration {
	ctx := context.Background()
	mins := make([]time.Duration, len(calls))
	for r := 0; r < runs; r++ {
		for i, c := range calls {
			start := time.Now()
			c.p.Decide(ctx, c.c)
			if d := time.Since(start); r == 0 || d < mins[i] {
				mins[i] = d
			}
		}
	}
	return mins
}

// tailCalls builds the calls of one corpus as its benchmark does.
func tailCalls(t *testing.T, corpus string) []tailCall {
	var out []tailCall
	switch corpus {
	case "adversarial":
		shared := corpusPolicy(t, policy.ModeTrusted, corpusHome)
		for _, c := range loadCorpus(t) {
			home, p := c.layFiles(t), shared
			if home != corpusHome {
				p = corpusPolicy(t, policy.ModeTrusted, home)
			}
			if cl, err := c.call(p, home); err == nil {
				out = append(out, tailCall{c.key(), judgedCall{p, cl}})
			}
		}
	case "traces":
		policies := map[string]*policy.Policy{}
		for _, c := range loadTraces(t, tracesDir) {
			if policies[c.Home] == nil {
				policies[c.Home] = corpusPolicy(t, policy.ModeTrusted, c.Home)
			}
			p := policies[c.Home]
			laid, start := c, time.Time{}
			if c.Made != nil {
				laid, start = c.laid(t, t.TempDir(), false)
			}
			cl, err := p.Tools().Normalize(laid.request())
			if err != nil {
				continue
			}
			cl.Who.Started = start
			out = append(out, tailCall{c.key(), judgedCall{p, cl}})
		}
	case "peers":
		peercorpus.Dir(t)
		p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: policy.ModeTrusted}}, policy.Options{Home: "/home/tester"})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range loadPeerCases(t) {
			cl := call.Call{Kind: call.Shell, Tool: "Bash", Command: c.command, Cwd: "/work/project", Workspace: "/work/project"}
			out = append(out, tailCall{fmt.Sprintf("%s/%d", c.corpus, i), judgedCall{p, cl}})
		}
	default:
		t.Fatalf("TAIL=%q: want adversarial, traces or peers", corpus)
	}
	return out
}
