package audit

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// checkCleanTable fails when the clean table holds a text that redaction
// would change, or one that contains secret.
func checkCleanTable(t testing.TB, secrets ...string) {
	t.Helper()
	for i := range clean.slots {
		e := clean.slots[i].Load()
		if e == nil {
			continue
		}
		if r := RedactString(e.text); r != e.text || e.redacted != e.text {
			t.Fatalf("slot %d keeps %q (answered %q), which redaction changes to %q", i, e.text, e.redacted, r)
		}
		for _, s := range secrets {
			if s != "" && strings.Contains(e.text, s) {
				t.Fatalf("slot %d keeps %q, which holds the secret %q", i, e.text, s)
			}
		}
	}
}

// TestRedactRepeated: whatever texts come, in whatever order, with texts
// sharing slots, texts too long to keep and texts holding secrets,
// redactRepeated answers what RedactString does, first time and again,
// and its table never keeps a text redaction changes.
func TestRedactRepeated(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 7))
	texts := make([]string, 600)
	for i := range texts {
		texts[i] = randomReason(rng) // rule texts, commands and secrets, many sharing slots
	}
	texts = append(texts, "git status && ls -la src", "rm -rf ~/", "/tmp/ws/README.md", strings.Repeat("y", maxRedactCached+1))
	for range 8000 {
		s := texts[rng.IntN(len(texts))]
		if got, want := redactRepeated(s), RedactString(s); got != want {
			t.Fatalf("redactRepeated(%q) = %q, RedactString gives %q", s, got, want)
		}
	}
	checkCleanTable(t, "AKIAIOSFODNN7EXAMPLE", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "hunter2", "s3cr3t-Value", "abcdefgh12345678")

	// A kept text is a copy: it does not keep the buffer it was cut from.
	body := `{"command":"echo kept-alone","content":"password=s3cr3t-Value"}`
	cmd := body[12:27]
	if redactRepeated(cmd) != cmd {
		t.Fatalf("%q changed by redaction", cmd)
	}
	e := clean.slot(cmd).Load()
	if e == nil || e.text != cmd {
		t.Fatalf("%q not kept", cmd)
	}
	if unsafe.StringData(e.text) == unsafe.StringData(cmd) {
		t.Errorf("the table keeps the request's own bytes, not a copy")
	}

	// The records of calls are built with it: a command with a secret is
	// redacted the second time as the first, and never kept.
	c := call.Call{Kind: call.Shell, Command: "mysql -phunter2 -e 'select 1'"}
	for range 2 {
		if r := NewRecord(t0, c, policy.Decision{Verdict: risk.Ask}, 0); strings.Contains(r.Args, "hunter2") {
			t.Fatalf("record's args kept the password: %q", r.Args)
		}
	}
	checkCleanTable(t, "hunter2")
}

// FuzzRedactRepeated: a sequence of texts (the input split at NUL bytes,
// each given twice and in turns) is redacted by redactRepeated as by
// RedactString, and the table keeps nothing redaction changes.
func FuzzRedactRepeated(f *testing.F) {
	for _, s := range reasonParts {
		f.Add(s + "\x00" + s)
	}
	f.Add("git status\x00curl -H 'Authorization: Bearer abcdefgh12345678' https://x\x00git status")
	f.Fuzz(func(t *testing.T, in string) {
		parts := strings.Split(in, "\x00")
		for range 2 {
			for _, s := range parts {
				if got, want := redactRepeated(s), RedactString(s); got != want {
					t.Fatalf("redactRepeated(%q) = %q, RedactString gives %q", s, got, want)
				}
			}
		}
		checkCleanTable(t)
	})
}
