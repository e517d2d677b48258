package server

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func TestMetricsText(t *testing.T) {
	m := newMetrics()
	m.observe(policy.Decision{Verdict: risk.Allow, Tier: risk.Read}, 20*time.Microsecond)
	m.observe(policy.Decision{Verdict: risk.Allow, Tier: risk.Read}, 60*time.Microsecond)
	m.observe(policy.Decision{Verdict: risk.Deny, Tier: risk.Destructive, Category: risk.Category(`a"b\c`)}, time.Second)
	m.observe(policy.Decision{Verdict: risk.Ask, Tier: risk.Write}, -1)
	m.approvalOutcome("timeout")
	m.approvalOutcome("approved")
	m.approvalOutcome("timeout")
	m.setPending(2)
	m.eventDropped(3)
	m.failClosed("/v1/decide", "overloaded")
	m.failClosed("/v1/decide", "overloaded")
	m.failClosed("/v1/hooks/codex", "deadline")
	m.setPolicy("sha256:0123", "supervised")
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	var got []string
	for line := range strings.Lines(rec.Body.String()) {
		if !strings.HasPrefix(line, "#") && (!strings.Contains(line, "_bucket{") || strings.Contains(line, `le="+Inf"`)) {
			got = append(got, strings.TrimSuffix(line, "\n"))
		}
	}
	want := []string{
		`toolguard_decisions_total{category="a\"b\\c",tier="destructive",verdict="deny"} 1`,
		`toolguard_decisions_total{category="none",tier="read",verdict="allow"} 2`,
		`toolguard_decisions_total{category="none",tier="write",verdict="ask"} 1`,
		`toolguard_decision_duration_seconds_bucket{le="+Inf"} 3`,
		`toolguard_decision_duration_seconds_sum 1.00008`,
		`toolguard_decision_duration_seconds_count 3`,
		`toolguard_approvals_pending 2`,
		`toolguard_approvals_total{outcome="approved"} 1`,
		`toolguard_approvals_total{outcome="timeout"} 2`,
		`toolguard_events_dropped_total 3`,
		`toolguard_fail_closed_total{endpoint="/v1/decide",reason="overloaded"} 2`,
		`toolguard_fail_closed_total{endpoint="/v1/hooks/codex",reason="deadline"} 1`,
		`toolguard_policy_info{hash="sha256:0123",mode="supervised"} 1`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exposition (-want +got):\n%s", diff)
	}
	for _, bucket := range []string{`le="2.5e-05"} 1`, `le="5e-05"} 1`, `le="0.0001"} 2`, `le="0.2048"} 2`} {
		if !strings.Contains(rec.Body.String(), "toolguard_decision_duration_seconds_bucket{"+bucket+"\n") {
			t.Errorf("no cumulative bucket %s in\n%s", bucket, rec.Body.String())
		}
	}
	if ct := rec.Header().Get("Content-Type"); ct != "text/plain; version=0.0.4; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
}
