package risk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/risk"
)

func TestOrderings(t *testing.T) {
	if risk.Allow.Worse(risk.Deny) != risk.Deny || risk.Ask.Worse(risk.Allow) != risk.Ask {
		t.Error("verdicts: deny > ask > allow")
	}
	if risk.Read.Worse(risk.Destructive) != risk.Destructive || risk.Write.Worse(risk.Read) != risk.Write {
		t.Error("tiers: destructive > execute > write > read")
	}
	// Unknown ranks between medium and high.
	tests := []struct{ a, b, want risk.Blast }{
		{risk.BlastMedium, risk.BlastUnknown, risk.BlastUnknown},
		{risk.BlastUnknown, risk.BlastHigh, risk.BlastHigh},
		{risk.BlastCritical, risk.BlastUnknown, risk.BlastCritical},
		{risk.BlastNone, risk.BlastLow, risk.BlastLow},
	}
	for _, tt := range tests {
		if got := tt.a.Worse(tt.b); got != tt.want {
			t.Errorf("%s.Worse(%s) = %s, want %s", tt.a, tt.b, got, tt.want)
		}
		if got := tt.b.Worse(tt.a); got != tt.want {
			t.Errorf("%s.Worse(%s) = %s, want %s", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, name := range risk.VerdictNames() {
		if v, err := risk.ParseVerdict(strings.ToUpper(name)); err != nil || v.String() != name {
			t.Errorf("ParseVerdict(%q) = %v, %v", name, v, err)
		}
	}
	for _, name := range risk.TierNames() {
		if v, err := risk.ParseTier(name); err != nil || v.String() != name {
			t.Errorf("ParseTier(%q) = %v, %v", name, v, err)
		}
	}
	for _, name := range risk.BlastNames() {
		if v, err := risk.ParseBlast(name); err != nil || v.String() != name {
			t.Errorf("ParseBlast(%q) = %v, %v", name, v, err)
		}
	}
	_, err := risk.ParseVerdict("block")
	if want := `unknown verdict "block" (valid: allow, ask, deny)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestFindingJSON checks the DESIGN §2 field names and that enums encode
// as their names.
func TestFindingJSON(t *testing.T) {
	f := risk.Finding{Rule: "core.fs.rm-recursive-root", Category: risk.CatFSDelete, Tier: risk.Destructive,
		Blast: risk.BlastCritical, Verdict: risk.Deny, Reason: "r", Span: risk.Span{Start: 0, End: 8}}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"rule":"core.fs.rm-recursive-root","category":"fs-delete","tier":"destructive","blast_radius":"critical","floor":"deny","reason":"r","span":{"start":0,"end":8}}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var back risk.Finding
	if err := json.Unmarshal(b, &back); err != nil || !cmp.Equal(f, back) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"tier":"huge"}`), &back); err == nil {
		t.Error("an unknown tier must not decode")
	}
}
