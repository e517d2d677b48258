package policy

import (
	"testing"

	"github.com/toolguard/toolguard/risk"
)

// TestPresetTextsMatchSprintf checks the texts made once per preset mode
// against the ones made per call (modeReasonText, "mode."+mode), for every
// mode, verdict and tier, and that a mode outside the presets still gets
// its texts made.
func TestPresetTextsMatchSprintf(t *testing.T) {
	for _, mode := range append(Modes(), "custom", "") {
		e := &evaluation{p: &Policy{mode: mode}}
		if got, want := modeRule(mode), "mode."+mode; got != want {
			t.Errorf("modeRule(%q) = %q, want %q", mode, got, want)
		}
		for v := risk.Allow; v <= risk.Deny+1; v++ {
			for tier := risk.Read; tier <= risk.Destructive+1; tier++ {
				got := e.modeReason(&Decision{Tier: tier}, v)
				if want := modeReasonText(mode, v, tier); got != want {
					t.Errorf("modeReason(%q, %v, %v) = %q, want %q", mode, v, tier, got, want)
				}
			}
		}
	}
	if got, want := modeReasonText(ModeSupervised, risk.Ask, risk.Write), "The supervised mode asks a person before write-tier calls."; got != want {
		t.Errorf("modeReasonText = %q, want %q", got, want)
	}
}

// FuzzModeTexts: for any mode name, verdict and tier, the texts made once
// are the ones made per call.
func FuzzModeTexts(f *testing.F) {
	f.Add("supervised", uint8(1), uint8(1))
	f.Add("custom", uint8(0), uint8(3))
	f.Fuzz(func(t *testing.T, mode string, v, tier uint8) {
		e := &evaluation{p: &Policy{mode: mode}}
		if got, want := e.modeReason(&Decision{Tier: risk.Tier(tier)}, risk.Verdict(v)), modeReasonText(mode, risk.Verdict(v), risk.Tier(tier)); got != want {
			t.Fatalf("modeReason(%q, %d, %d) = %q, want %q", mode, v, tier, got, want)
		}
		if got, want := modeRule(mode), "mode."+mode; got != want {
			t.Fatalf("modeRule(%q) = %q, want %q", mode, got, want)
		}
	})
}
