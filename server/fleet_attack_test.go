package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolguard/toolguard/fleet/fleettest"
	"github.com/toolguard/toolguard/policy"
)

// These tests are the third attack round against a fleet, made by an agent
// that reached the fleet database (psql with trust authentication): what
// it writes there must count for nothing.

// agentSQL runs a statement on the fleet database as the agent would.
func agentSQL(t *testing.T, url, stmt string, args ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, stmt, args...); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

// waitListening waits until replica's board listens for notifications.
func waitListening(t *testing.T, url, replica string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var n int
		err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'LISTEN toolguard_events%'`,
			"toolguard "+replica).Scan(&n)
		if err == nil && n > 0 {
			return
		}
	}
	t.Fatalf("replica %s never listened", replica)
}

// waitListed waits until s lists one approval and returns its id.
func waitListed(t *testing.T, s *Server) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if ids := listIDs(t, s); len(ids) == 1 {
			return ids[0]
		}
	}
	t.Fatal("the approval was never listed")
	return ""
}

// TestFleetForgedGrantDoesNotAllow: an always grant of the whole Bash tool
// inserted with SQL (the third round's psql -f q.sql) allows nothing on
// any replica, and each replica counts it in its metrics.
func TestFleetForgedGrantDoesNotAllow(t *testing.T) {
	url := fleettest.Database(t)
	a, b := fleetServer(t, url, "A"), fleetServer(t, url, "B")
	body := `{"tool":"Bash","input":{"command":"` + askCommand + `"},"cwd":"/tmp/ws","session":"s1"}`
	agentSQL(t, url, `INSERT INTO toolguard_grants (scope, session, pattern, digest, grant_data) VALUES ('always', '', 'Bash', '', '{"tool":"Bash","scope":"always"}')`)
	agentSQL(t, url, `INSERT INTO toolguard_grants (scope, session, pattern, digest, grant_data) VALUES ('always', '', 'Bash(`+askCommand+`)', '', '{"tool":"Bash","command":"`+askCommand+`","scope":"always"}')`)
	for _, s := range []*Server{a, b} {
		if d := decodeBody[policy.Decision](t, do(t, s.Handler(), "POST", "/v1/decide", body, nil)); d.Verdict.String() != "ask" {
			t.Fatalf("with a forged grant the call is %s by %s; want ask", d.Verdict, d.Rule)
		}
		if m := do(t, s.Handler(), "GET", "/metrics", "", nil).Body.String(); !strings.Contains(m, `toolguard_fleet_unsigned_total{kind="grant"} 2`) {
			t.Errorf("metrics do not count the forged grants:\n%s", m)
		}
		if list := decodeBody[grantList](t, do(t, s.Handler(), "GET", "/v1/grants", "", pageHeaders)); len(list.Grants) != 0 {
			t.Errorf("the page lists forged grants: %+v", list.Grants)
		}
	}
}

// TestFleetForgedAnswerDoesNotApprove: an agent marks its own waiting
// approval approved in the database and notifies the owner: the client
// still waits, and the person's answer (deny) is the one that counts.
func TestFleetForgedAnswerDoesNotApprove(t *testing.T) {
	url := fleettest.Database(t)
	a, b := fleetServer(t, url, "A"), fleetServer(t, url, "B")
	body := `{"tool":"Bash","input":{"command":"` + askCommand + `"},"cwd":"/tmp/ws","session":"s1"}`
	got := make(chan string, 1)
	go func() {
		got <- decodeBody[policy.Decision](t, do(t, a.Handler(), "POST", "/v1/authorize", body, nil)).Verdict.String()
	}()
	id := waitListed(t, b)
	agentSQL(t, url, `UPDATE toolguard_approvals SET status = 'approved', answer = '{"approved":true,"scope":"always","by":"web"}', answered_on = 'B' WHERE id = $1`, id)
	agentSQL(t, url, `SELECT pg_notify('toolguard_approvals', '{"from":"B","id":"`+id+`","owner":"A","status":"approved"}')`)
	select {
	case v := <-got:
		t.Fatalf("the client got %s from a forged answer", v)
	case <-time.After(2500 * time.Millisecond): // past the owner's once-a-second look-up
	}
	if rec := do(t, b.Handler(), "POST", "/v1/approvals/"+id, `{"approved":false}`, pageHeaders); rec.Code != http.StatusOK {
		t.Fatalf("the person's answer on B: %d %s", rec.Code, rec.Body)
	}
	select {
	case v := <-got:
		if v != "deny" {
			t.Fatalf("the client got %s; want the person's deny", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the person's answer did not reach the client")
	}
	if rec := do(t, a.Handler(), "GET", "/v1/grants", "", pageHeaders); strings.Contains(rec.Body.String(), askCommand) {
		t.Fatalf("a grant was made: %s", rec.Body)
	}
}

// TestFleetForgedNotifyShowsNoCard: a notification on the events channel
// that shows a harmless card (ls -la) under the id of a real pending
// approval never reaches a page: B's stream shows the real card, which
// its owner signed.
func TestFleetForgedNotifyShowsNoCard(t *testing.T) {
	url := fleettest.Database(t)
	a, b := fleetServer(t, url, "A"), fleetServer(t, url, "B")
	sub, done := b.hub.Subscribe()
	defer done()
	waitListening(t, url, "B")
	body := `{"tool":"Bash","input":{"command":"` + askCommand + `"},"cwd":"/tmp/ws","session":"s1"}`
	go do(t, a.Handler(), "POST", "/v1/authorize", body, nil)
	id := waitListed(t, b)
	agentSQL(t, url, `SELECT pg_notify('toolguard_events', '{"from":"C","events":[{"name":"approval_required","data":{"id":"`+id+
		`","call":{"tool":"Bash","kind":"shell","input":{"command":"ls -la"},"command":"ls -la"},"decision":{"verdict":"ask","rule":"x","reason":"harmless"}}}]}')`)
	var cards []string
	for deadline := time.Now().Add(1500 * time.Millisecond); time.Now().Before(deadline); {
		evs, _, wait := sub.pending(nil)
		for _, e := range evs {
			if e.name == EventApprovalRequired {
				cards = append(cards, string(e.wire()))
			}
		}
		if wait != nil {
			select {
			case <-wait:
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	if len(cards) == 0 {
		t.Fatal("B's stream never showed the approval")
	}
	for _, c := range cards {
		if strings.Contains(c, "ls -la") || !strings.Contains(c, askCommand) {
			t.Fatalf("B's stream showed %s", c)
		}
	}
	if rec := do(t, b.Handler(), "POST", "/v1/approvals/"+id, `{"approved":false}`, pageHeaders); rec.Code != http.StatusOK {
		t.Fatalf("answer: %d %s", rec.Code, rec.Body)
	}
}
