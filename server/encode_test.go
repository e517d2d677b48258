package server

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// The hand encoder of decisions must write what json.Marshal writes.
func TestAppendDecisionMatchesMarshal(t *testing.T) {
	full := policy.Decision{
		Verdict: risk.Deny, Tier: risk.Destructive, Blast: risk.BlastCritical, Category: risk.CatUnverifiable,
		Rule: "shell.rm", Reason: "removes <your> home & \"more\"\u2028\x01\xff", Suggestion: "don't",
		Findings: []risk.Finding{
			{Rule: "a", Category: "cat", Tier: risk.Execute, Blast: risk.BlastUnknown, Verdict: risk.Ask,
				Reason: "r", Suggestion: "s", Span: risk.Span{Start: 3, End: 17}, Subject: "/etc/passwd", Unverifiable: true},
			{Rule: "b", Span: risk.Span{Start: -1}},
		},
		Unverifiable: true, Mode: "supervised", Profile: "ci", Contained: true,
	}
	for name, d := range map[string]policy.Decision{
		"zero":  {},
		"allow": {Verdict: risk.Allow, Tier: risk.Read, Rule: "read.only", Reason: "reads files"},
		"full":  full,
		"out of range enums": {Verdict: risk.Verdict(9), Tier: risk.Tier(200), Blast: risk.Blast(77),
			Findings: []risk.Finding{{Verdict: risk.Verdict(5)}}},
	} {
		t.Run(name, func(t *testing.T) { checkAppendDecision(t, d) })
	}
}

func checkAppendDecision(t *testing.T, d policy.Decision) {
	t.Helper()
	want, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(appendDecision(nil, &d))); diff != "" {
		t.Errorf("appendDecision (-json.Marshal +got):\n%s", diff)
	}
}

func TestWriteDecision(t *testing.T) {
	rec := httptest.NewRecorder()
	writeDecision(rec, policy.Decision{Verdict: risk.Ask, Rule: "x"})
	got := []string{rec.Header().Get("Content-Type"), rec.Body.String()}
	want := []string{"application/json", `{"verdict":"ask","tier":"read","blast_radius":"none","rule":"x","reason":""}` + "\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
}

func FuzzAppendDecision(f *testing.F) {
	f.Add(uint8(2), uint8(3), uint8(1), "cat", "rule", "reason <&>", "sugg", "mode", "prof", true, 3, -4, "subj")
	f.Add(uint8(0), uint8(0), uint8(0), "", "", "", "", "", "", false, 0, 0, "")
	f.Fuzz(func(t *testing.T, v, tier, blast uint8, cat, rule, reason, sugg, mode, prof string, flag bool, start, end int, subj string) {
		d := policy.Decision{Verdict: risk.Verdict(v), Tier: risk.Tier(tier), Blast: risk.Blast(blast), Category: risk.Category(cat),
			Rule: rule, Reason: reason, Suggestion: sugg, Unverifiable: flag, Mode: mode, Profile: prof, Contained: !flag}
		if start%2 == 0 {
			d.Findings = []risk.Finding{{Rule: rule, Category: risk.Category(subj), Tier: risk.Tier(v), Blast: risk.Blast(tier),
				Verdict: risk.Verdict(blast), Reason: sugg, Suggestion: reason, Span: risk.Span{Start: start, End: end}, Subject: subj, Unverifiable: !flag}}
		}
		checkAppendDecision(t, d)
	})
}
