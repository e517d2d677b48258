package audit

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

func TestAppendJSONMatchesMarshal(t *testing.T) {
	for _, r := range []Record{
		{},
		{Time: time.Date(2026, 11, 24, 8, 0, 0, 123456789, time.UTC), Agent: "claude-code", Session: "s1", Tool: "Bash",
			Kind: "shell", Args: `rm -rf "~" <x> & y`, Verdict: risk.Deny, Tier: risk.Destructive, Blast: risk.BlastCritical,
			Category: risk.CatFSDelete, Rule: "core.fs.rm", Reason: "a\tb\nc\x01\u2028\xff", LatencyMS: 0.125, Unverifiable: true},
		{Tool: "Read", Verdict: risk.Ask, Approval: ApprovalApproved, ApprovalScope: "session", ApprovedBy: "web", LatencyMS: 1234567.5},
		{Tool: "x", LatencyMS: 1e-7},
		{Tool: "x", LatencyMS: 1e22},
		{Tool: "x", Policy: "sha256:0123abcd", Replica: "serve-1 <a&b>"},
		{Tool: "x", Replica: "r2"},
	} {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(r.AppendJSON(nil))); diff != "" {
			t.Errorf("(-json.Marshal +AppendJSON):\n%s", diff)
		}
	}
}

// FuzzAppendJSON checks the hand-written encoder against encoding/json on
// arbitrary strings and numbers.
func FuzzAppendJSON(f *testing.F) {
	f.Add("Bash", "rm -rf ~ <&>", "reason\n\x00", 0.5, int64(0))
	f.Add("\xff\xfe", "\u2028\u2029", `"\`, 1e-9, int64(1700000000))
	f.Fuzz(func(t *testing.T, tool, args, reason string, latency float64, unix int64) {
		r := Record{Time: time.Unix(unix%(1<<34), 0).UTC(), Tool: tool, Args: args, Reason: reason, LatencyMS: latency, Policy: reason, Replica: tool}
		want, err := json.Marshal(r)
		if err != nil {
			return // NaN or Inf: json refuses them; the writer never sees one
		}
		if got := string(r.AppendJSON(nil)); got != string(want) {
			t.Errorf("AppendJSON = %s, json.Marshal = %s", got, want)
		}
	})
}
