package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/fleet/fleettest"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
)

// fleetKey is the fleet key of the tests' replicas.
var fleetKey = []byte("server-test-fleet-key-0123456789abcdef")

// fleetServer is a server whose state is the fleet database url, named
// replica.
func fleetServer(t *testing.T, url, replica string) *Server {
	t.Helper()
	st, err := fleet.Open(context.Background(), url, fleet.Options{Replica: replica, Lease: 2 * time.Second, Key: fleetKey})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, Options{Fleet: st, Authorizer: func(p *policy.Policy, a approval.Approver) (Authorizer, error) {
		return guard.Fleet(p, st, guard.WithApprover(a))
	}})
	t.Cleanup(func() { s.Close(); st.Close() })
	return s
}

func listIDs(t *testing.T, s *Server) []string {
	t.Helper()
	rec := do(t, s.Handler(), "GET", "/v1/approvals", "", pageHeaders)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET /v1/approvals: %d %s", rec.Code, rec.Body)
	}
	var ids []string
	for _, p := range decodeBody[approvalList](t, rec).Approvals {
		ids = append(ids, p.ID)
	}
	return ids
}

// TestFleetAnswerOnAnotherReplica: an ask waiting on A is listed on B,
// answered there for the session, releases A's waiter, and the grant is
// listed on both with who made it; decisions of both are in B's history.
func TestFleetAnswerOnAnotherReplica(t *testing.T) {
	url := fleettest.Database(t)
	a, b := fleetServer(t, url, "A"), fleetServer(t, url, "B")
	body := `{"tool":"Bash","input":{"command":"` + askCommand + `"},"cwd":"/tmp/ws","session":"s1"}`
	got := make(chan string, 1)
	go func() {
		rec := do(t, a.Handler(), "POST", "/v1/authorize", body, nil)
		got <- decodeBody[policy.Decision](t, rec).Verdict.String()
	}()
	var ids []string
	for deadline := time.Now().Add(5 * time.Second); len(ids) == 0 && time.Now().Before(deadline); {
		ids = listIDs(t, b)
		time.Sleep(10 * time.Millisecond)
	}
	if len(ids) != 1 {
		t.Fatalf("B lists %v; want A's approval", ids)
	}
	rec := do(t, b.Handler(), "POST", "/v1/approvals/"+ids[0], `{"approved":true,"scope":"session"}`, pageHeaders)
	if rec.Code != http.StatusOK {
		t.Fatalf("answer on B: %d %s", rec.Code, rec.Body)
	}
	select {
	case v := <-got:
		if v != "allow" {
			t.Fatalf("A's client got %s", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("A's waiter was not released")
	}
	if rec := do(t, a.Handler(), "POST", "/v1/approvals/"+ids[0], `{"approved":false}`, pageHeaders); rec.Code != http.StatusConflict {
		t.Fatalf("a second answer on A: %d; want 409", rec.Code)
	}
	// The grant, with who made it, on both replicas.
	for _, s := range []*Server{a, b} {
		rec := do(t, s.Handler(), "GET", "/v1/grants", "", pageHeaders)
		list := decodeBody[grantList](t, rec)
		if !list.Fleet || len(list.Grants) != 1 {
			t.Fatalf("GET /v1/grants: %s", rec.Body)
		}
		g := list.Grants[0]
		if diff := cmp.Diff([]string{"Bash(" + askCommand + ")", "session", "s1", "web"}, []string{g.Pattern, g.Grant.Scope.String(), g.Grant.Session, g.GrantedBy}); diff != "" {
			t.Fatal(diff)
		}
	}
	// The same call in that session is now allowed on B by the grant.
	rec = do(t, b.Handler(), "POST", "/v1/decide", body, nil)
	if d := decodeBody[policy.Decision](t, rec); d.Verdict.String() != "allow" || !strings.HasPrefix(d.Rule, "grant:") {
		t.Fatalf("B decides %s by %s; want allow by the grant", d.Verdict, d.Rule)
	}
	// Revoked on A, it no longer applies on B.
	id := decodeBody[grantList](t, do(t, a.Handler(), "GET", "/v1/grants", "", pageHeaders)).Grants[0].ID
	if rec := do(t, a.Handler(), "DELETE", "/v1/grants/"+jsonNumber(id), "", pageHeaders); rec.Code != http.StatusOK {
		t.Fatalf("revoke: %d %s", rec.Code, rec.Body)
	}
	if d := decodeBody[policy.Decision](t, do(t, b.Handler(), "POST", "/v1/decide", body, nil)); d.Verdict.String() != "ask" {
		t.Fatalf("after the revocation B decides %s; want ask", d.Verdict)
	}
	// Each replica reports the shared database in its metrics.
	if m := do(t, a.Handler(), "GET", "/metrics", "", nil).Body.String(); !strings.Contains(m, `toolguard_fleet_database_up{replica="A"} 1`) {
		t.Errorf("metrics of A:\n%s", m)
	}
	// B's history holds A's records too, with their replica.
	hist := decodeBody[decisionList](t, do(t, b.Handler(), "GET", "/v1/decisions?limit=50", "", pageHeaders))
	if len(hist.Decisions) < 3 {
		t.Fatalf("history has %d decisions; want the authorize on A and the decides on B", len(hist.Decisions))
	}
}

func jsonNumber(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestFleetDecisionEventsReachOtherReplicas: a page following B's events
// sees a decision made on A.
func TestFleetDecisionEventsReachOtherReplicas(t *testing.T) {
	url := fleettest.Database(t)
	a, b := fleetServer(t, url, "A"), fleetServer(t, url, "B")
	sub, done := b.hub.Subscribe()
	defer done()
	deadline := time.Now().Add(10 * time.Second)
	for a.broker.opts.Board.Watching() == false {
		if time.Now().After(deadline) {
			t.Fatal("A never learned that B has a subscriber")
		}
		time.Sleep(20 * time.Millisecond)
	}
	do(t, a.Handler(), "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"ls -la /tmp/fleet-event-marker"},"cwd":"/tmp/ws"}`, nil)
	for time.Now().Before(deadline) {
		evs, _, wait := sub.pending(nil)
		for _, e := range evs {
			if e.name == EventDecision && strings.Contains(string(e.wire()), "fleet-event-marker") {
				return
			}
		}
		if wait != nil {
			select {
			case <-wait:
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	t.Fatal("B's stream never got A's decision")
}

// TestGrantsListedFromThePolicyOnOneMachine: outside fleet mode the page
// lists the policy's [[grants]] (the always grants), and revoking is a
// fleet feature.
func TestGrantsListedFromThePolicyOnOneMachine(t *testing.T) {
	added := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Grants: []policy.Grant{{Tool: "Bash", CommandPrefix: "npm test", Added: added}}}},
		policy.Options{Home: "/home/tester"})
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, Options{Policy: p})
	got := decodeBody[grantList](t, do(t, s.Handler(), "GET", "/v1/grants", "", pageHeaders))
	want := grantList{Grants: []fleet.StoredGrant{{
		Grant:   approval.Grant{Tool: "Bash", CommandPrefix: "npm test", Scope: approval.Always, Created: added},
		Pattern: "Bash(npm test:*)", GrantedBy: "policy file", Created: added,
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("GET /v1/grants (-want +got):\n%s", diff)
	}
	if rec := do(t, s.Handler(), "DELETE", "/v1/grants/1", "", pageHeaders); rec.Code != http.StatusNotFound {
		t.Fatalf("DELETE outside fleet mode: %d", rec.Code)
	}
	if rec := do(t, s.Handler(), "GET", "/v1/grants", "", nil); rec.Code != http.StatusUnauthorized {
		t.Fatalf("without the page key: %d", rec.Code)
	}
}
