package fleet_test

import (
	"context"
	"testing"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/fleet/fleettest"
)

// TestGrantsRememberedWithoutGrants: a replica whose board listens
// answers the asks of a session without grants from memory, sees a grant
// made on another replica (or by hand, in SQL) at once, stops applying a
// revoked grant at once, and forgets everything when its listener loses
// its connection. A store without a board always reads.
func TestGrantsRememberedWithoutGrants(t *testing.T) {
	url := fleettest.Database(t)
	a, b := open(t, url, "a"), open(t, url, "b")
	b.Board(fleet.BoardHandlers{})
	waitListening(t, url, "b")
	ctx := context.Background()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	grantsOf := func(s *fleet.Store, session string) []approval.Grant {
		t.Helper()
		got, err := s.Grants().Grants(ctx, session)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	// waitGrants waits (within 5 s, well below the 10 s an entry is kept)
	// until b applies n grants for session.
	waitGrants := func(session string, n int) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); len(grantsOf(b, session)) != n; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("b applies %d grants for %s; want %d", len(grantsOf(b, session)), session, n)
			}
		}
	}
	record := func(session string, scope approval.Scope) {
		t.Helper()
		req := approval.Request{Call: call.Call{Tool: "Bash", Kind: call.Shell, Command: "npm test", Who: call.Who{Session: session}}, Decision: decisionAsk()}
		if _, ok, err := a.Grants().Record(ctx, req, approval.Answer{Approved: true, Scope: scope, By: "web"}, now); err != nil || !ok {
			t.Fatalf("Record: %v %v", ok, err)
		}
	}

	for range 2 { // the first read asks the database, the second is answered from memory
		if len(grantsOf(b, "s1")) != 0 {
			t.Fatal("grants in an empty database")
		}
	}
	if n := fleet.GrantCacheHits(b); n != 1 {
		t.Fatalf("hits %d; want 1 (the second read)", n)
	}
	// A grant on a: b applies it at once (the trigger's notification).
	record("s1", approval.Session)
	waitGrants("s1", 1)
	hits := fleet.GrantCacheHits(b)
	grantsOf(b, "s1")
	if fleet.GrantCacheHits(b) != hits {
		t.Fatal("a read that found grants was answered from memory")
	}
	// Revoked on a: b no longer applies it, without waiting.
	sql(t, url, `CREATE TABLE saved AS SELECT * FROM toolguard_grants`)
	list, err := a.Grants().List(ctx, 0)
	if err != nil || len(list) != 1 {
		t.Fatalf("List: %v %v", list, err)
	}
	if ok, err := a.Grants().Revoke(ctx, list[0].ID); !ok || err != nil {
		t.Fatalf("Revoke: %v %v", ok, err)
	}
	if got := grantsOf(b, "s1"); len(got) != 0 {
		t.Fatalf("b applies %v after the revocation", got)
	}
	// A change made by hand: the same grant written back in SQL.
	grantsOf(b, "s1") // remembered without grants
	sql(t, url, `INSERT INTO toolguard_grants SELECT * FROM saved`)
	waitGrants("s1", 1)
	sql(t, url, `DELETE FROM toolguard_grants`)
	// The listener loses its connection: what b remembered is forgotten,
	// so a grant made meanwhile applies at once.
	grantsOf(b, "s2")
	grantsOf(b, "s2")
	sql(t, url, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'toolguard b' AND query LIKE 'LISTEN%'`)
	record("s2", approval.Always)
	waitGrants("s2", 1)

	// A store without a board (a hook) reads every time.
	c := open(t, url, "c")
	grantsOf(c, "s3")
	grantsOf(c, "s3")
	if n := fleet.GrantCacheHits(c); n != 0 {
		t.Fatalf("a store without a board answered %d reads from memory", n)
	}
}
