package audit

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// reasonParts are pieces of reasons: rule texts, and secrets a reason may
// quote from the command it judged.
var reasonParts = []string{
	"Recursive deletion outside the project.", "The command reads a credential file", " and sends it over the network.",
	" `curl -H 'Authorization: Bearer abcdefgh12345678' https://x`", " AKIAIOSFODNN7EXAMPLE", " ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
	" mysql -phunter2", " password=s3cr3t-Value", "\x00", " é", " ", "",
}

func randomReason(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(5) {
		b.WriteString(reasonParts[rng.IntN(len(reasonParts))])
	}
	if rng.IntN(4) == 0 {
		fmt.Fprintf(&b, " (#%d)", rng.IntN(2*redactSlots)) // many distinct texts: slots are taken over
	}
	if rng.IntN(50) == 0 {
		b.WriteString(strings.Repeat("x", maxRedactCached)) // too long to be kept
	}
	return b.String()
}

// TestRedactReasonCached: whatever reasons come, in whatever order, with
// texts sharing slots and texts too long to keep, redactReason answers what
// RedactString does, first time and again.
func TestRedactReasonCached(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	reasons := make([]string, 400)
	for i := range reasons {
		reasons[i] = randomReason(rng)
	}
	for range 5000 {
		s := reasons[rng.IntN(len(reasons))]
		if got, want := redactReason(s), RedactString(s); got != want {
			t.Fatalf("redactReason(%q) = %q, RedactString gives %q", s, got, want)
		}
	}
	// The records of decisions are built with it: the second record of a
	// reason is redacted as the first.
	d := policy.Decision{Verdict: risk.Deny, Reason: reasonParts[1] + reasonParts[4]}
	for range 2 {
		if r := NewRecord(t0, call.Call{Kind: call.Shell, Command: "true"}, d, 0); strings.Contains(r.Reason, "AKIAIOSFODNN7EXAMPLE") {
			t.Fatalf("record's reason kept the key: %q", r.Reason)
		}
	}
}

// TestRedactReasonConcurrent: goroutines sharing the table get their own
// text's redaction (go test -race checks the table's accesses).
func TestRedactReasonConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(26, uint64(g)))
			for range 500 {
				s := randomReason(rng)
				if got, want := redactReason(s), RedactString(s); got != want {
					t.Errorf("redactReason(%q) = %q, RedactString gives %q", s, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func FuzzRedactReason(f *testing.F) {
	for _, p := range reasonParts {
		f.Add(p, "x")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		// a, then b (which may share a's slot), then a again: each answered
		// as RedactString answers it.
		for _, s := range []string{a, b, a, b} {
			if got, want := redactReason(s), RedactString(s); got != want {
				t.Fatalf("redactReason(%q) = %q, RedactString gives %q", s, got, want)
			}
		}
	})
}
