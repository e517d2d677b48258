package fleet_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/fleet"
	"github.com/toolguard/toolguard/fleet/fleettest"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// testKey is the fleet key of the tests' stores.
var testKey = []byte("fleet-test-key-0123456789abcdef-0123")

func open(t *testing.T, url, replica string) *fleet.Store {
	t.Helper()
	return openWith(t, url, fleet.Options{Replica: replica})
}

// openWith opens a store with opts, giving it the test key, a 2s lease and
// fleettest.OpTimeout unless opts says otherwise.
func openWith(t *testing.T, url string, opts fleet.Options) *fleet.Store {
	t.Helper()
	if opts.Lease == 0 {
		opts.Lease = 2 * time.Second
	}
	if opts.Key == nil {
		opts.Key = testKey
	}
	if opts.Timeout == 0 {
		opts.Timeout = fleettest.OpTimeout
	}
	st, err := fleet.Open(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestMigrationsRunOnceWhenReplicasStartTogether(t *testing.T) {
	url := fleettest.Database(t)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := fleet.Open(context.Background(), url, fleet.Options{Replica: "r"})
			if err == nil {
				st.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st := open(t, url, "check")
	v, err := st.Version(context.Background())
	if err != nil || v != fleet.SchemaVersion() {
		t.Fatalf("Version = %d, %v; want %d", v, err, fleet.SchemaVersion())
	}
	applied, err := st.Migrate(context.Background())
	if err != nil || len(applied) != 0 {
		t.Fatalf("Migrate again applied %v, %v; want nothing", applied, err)
	}
}

func TestBudgetIsExactAcrossStores(t *testing.T) {
	url := fleettest.Database(t)
	var ledgers []*fleet.Ledger
	for _, name := range []string{"a", "b", "c"} {
		// Four connections a store: twelve transactions at once contend for
		// the sender's lock across three stores, the rest queue for a
		// connection; 60 at once would be 60 backends to start on a loaded
		// machine and a third of the server's connections.
		l, err := openWith(t, url, fleet.Options{Replica: name, MaxConns: 4}).Ledger(budget.Limits{MaxActionsPerHour: 20})
		if err != nil {
			t.Fatal(err)
		}
		ledgers = append(ledgers, l)
	}
	now := time.Now()
	var mu sync.Mutex
	allowed, exceeded := 0, 0
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := ledgers[i%3].Reserve(context.Background(), "agent", now)
			mu.Lock()
			defer mu.Unlock()
			var ex *budget.ExceededError
			switch {
			case err == nil:
				allowed++
			case errors.As(err, &ex):
				exceeded++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if allowed != 20 || exceeded != 40 {
		t.Fatalf("allowed %d, exceeded %d; want 20 and 40", allowed, exceeded)
	}
	st, err := ledgers[0].Status(context.Background(), "agent", now)
	if err != nil || st.Actions != 20 {
		t.Fatalf("Status = %+v, %v", st, err)
	}
	// An hour later the window is free again.
	if _, err := ledgers[1].Reserve(context.Background(), "agent", now.Add(time.Hour+time.Second)); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}

func TestCostBudget(t *testing.T) {
	st := open(t, fleettest.Database(t), "a")
	l, _ := st.Ledger(budget.Limits{MaxCostPerDayCents: 100})
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	if _, err := l.Charge(context.Background(), "s", 60, now); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Reserve(context.Background(), "s", now); err != nil {
		t.Fatalf("under the limit: %v", err)
	}
	s, err := l.Charge(context.Background(), "s", 50, now)
	if err != nil || s.CostCents != 110 {
		t.Fatalf("Charge = %+v, %v", s, err)
	}
	_, err = l.Reserve(context.Background(), "s", now)
	var ex *budget.ExceededError
	if !errors.As(err, &ex) || ex.Budget != "cost" || !ex.ResetAt.Equal(time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("over the limit: %v", err)
	}
	if _, err := l.Reserve(context.Background(), "s", now.Add(24*time.Hour)); err != nil {
		t.Fatalf("next day: %v", err)
	}
}

func TestTally(t *testing.T) {
	st := open(t, fleettest.Database(t), "a")
	tally, _ := st.Tally(2)
	var got []int
	for range 2 {
		n, err := tally.Take(context.Background(), "sess")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
	n, err := tally.Take(context.Background(), "sess")
	var le *budget.LimitError
	if !errors.As(err, &le) || n != 2 {
		t.Fatalf("third Take = %d, %v; want a total limit error", n, err)
	}
	if diff := cmp.Diff([]int{1, 2}, got); diff != "" {
		t.Fatal(diff)
	}
}

func TestGrantsAreShared(t *testing.T) {
	url := fleettest.Database(t)
	a, b := open(t, url, "a"), open(t, url, "b")
	req := approval.Request{Call: call.Call{Tool: "Bash", Kind: call.Shell, Command: "npm test", Who: call.Who{Session: "s1"}},
		Decision: decisionAsk()}
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	if _, ok, err := a.Grants().Record(context.Background(), req, approval.Answer{Approved: true, Scope: approval.Session, By: "web"}, now); err != nil || !ok {
		t.Fatalf("Record = %v, %v", ok, err)
	}
	if _, ok, err := a.Grants().Record(context.Background(), req, approval.Answer{Approved: true, Scope: approval.Always, By: "web"}, now); err != nil || !ok {
		t.Fatalf("Record always = %v, %v", ok, err)
	}
	got, err := b.Grants().Grants(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := []approval.Grant{
		{Tool: "Bash", Command: "npm test", Scope: approval.Session, Session: "s1", Created: now},
		{Tool: "Bash", Command: "npm test", Scope: approval.Always, Created: now},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("grants on b (-want +got):\n%s", diff)
	}
	other, _ := b.Grants().Grants(context.Background(), "s2")
	if len(other) != 1 || other[0].Scope != approval.Always {
		t.Fatalf("another session sees %v; want the always grant only", other)
	}
	list, err := b.Grants().List(context.Background(), 0)
	if err != nil || len(list) != 2 || list[0].GrantedBy != "web" || list[0].Replica != "a" || list[0].Pattern != "Bash(npm test)" {
		t.Fatalf("List = %+v, %v", list, err)
	}
}

func decisionAsk() policy.Decision { return policy.Decision{Verdict: risk.Ask} }

func TestAuditGroupCommit(t *testing.T) {
	url := fleettest.Database(t)
	a, b := open(t, url, "a"), open(t, url, "b")
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := a
			if i%2 == 1 {
				st = b
			}
			r := audit.Record{Time: time.Now(), Tool: "Bash", Verdict: risk.Allow, Rule: "r", Args: "echo " + string(rune('a'+i%26)), LatencyMS: float64(i)}
			if err := st.Audit().Write(context.Background(), r); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	rows, err := a.QueryAudit(context.Background(), fleet.AuditQuery{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[float64]int{}
	replicas := map[string]int{}
	for _, r := range rows {
		seen[r.Record.LatencyMS]++
		replicas[r.Record.Replica]++
	}
	if len(rows) != 200 || len(seen) != 200 {
		t.Fatalf("%d rows, %d distinct; want 200 of each", len(rows), len(seen))
	}
	if diff := cmp.Diff(map[string]int{"a": 100, "b": 100}, replicas); diff != "" {
		t.Fatal(diff)
	}
}

// TestAuditWritesRacingClose writes more records than one group holds
// while the store closes: every Write that returned nil has its record
// stored, and the others return an error (none hangs).
func TestAuditWritesRacingClose(t *testing.T) {
	url := fleettest.Database(t)
	a, reader := open(t, url, "a"), open(t, url, "reader")
	const n = 1200
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := map[float64]bool{}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == n/2 {
				a.Close()
			}
			r := audit.Record{Time: time.Now(), Tool: "Bash", Verdict: risk.Allow, Rule: "r", Args: "true", LatencyMS: float64(i)}
			if a.Audit().Write(context.Background(), r) == nil {
				mu.Lock()
				ok[float64(i)] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	rows, err := reader.QueryAudit(context.Background(), fleet.AuditQuery{Limit: 2 * n})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d Writes returned nil, %d records stored", len(ok), len(rows))
	for _, r := range rows {
		delete(ok, r.Record.LatencyMS)
	}
	if len(ok) != 0 {
		t.Fatalf("%d records whose Write returned nil are not stored", len(ok))
	}
}

func TestFollowAuditEmitsEachRecordOnce(t *testing.T) {
	url := fleettest.Database(t)
	a, b := open(t, url, "a"), open(t, url, "b")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan fleet.AuditRow, 100)
	done := make(chan error, 1)
	go func() {
		done <- a.FollowAudit(ctx, fleet.AuditQuery{}, func(r fleet.AuditRow) error { got <- r; return nil })
	}()
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := []*fleet.Store{a, b}[i%2]
			if err := st.Audit().Write(context.Background(), audit.Record{Time: time.Now(), Tool: "Read", Verdict: risk.Allow, LatencyMS: float64(i)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	seen := map[float64]int{}
	for deadline := time.After(10 * time.Second); len(seen) < 60; {
		select {
		case r := <-got:
			seen[r.Record.LatencyMS]++
		case <-deadline:
			t.Fatalf("followed %d of 60 records", len(seen))
		}
	}
	select {
	case r := <-got:
		t.Fatalf("record %v emitted again", r.Record.LatencyMS)
	case <-time.After(1200 * time.Millisecond): // two polls
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("record %v emitted %d times", k, n)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestFollowAuditEndsQuietlyWhenCancelled: a follower whose context ends
// while it reads the trail has come to its end, which is no error.
func TestFollowAuditEndsQuietlyWhenCancelled(t *testing.T) {
	st := open(t, fleettest.Database(t), "a")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := st.FollowAudit(ctx, fleet.AuditQuery{}, func(fleet.AuditRow) error { return nil }); err != nil {
		t.Fatalf("FollowAudit after cancel = %v, want nil", err)
	}
}

// TestCallerCancelLeavesDatabaseUp: a caller that gives up (a client that
// went away) does not make the store treat the database as unreachable.
func TestCallerCancelLeavesDatabaseUp(t *testing.T) {
	st := open(t, fleettest.Database(t), "a")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := st.Grants().Grants(ctx, "s"); err == nil || errors.Is(err, fleet.ErrUnavailable) {
		t.Fatalf("cancelled call: %v; want the cancellation, not unavailable", err)
	}
	if !st.Healthy() {
		t.Fatal("a cancelled caller marked the database down")
	}
	if _, err := st.Grants().Grants(context.Background(), "s"); err != nil {
		t.Fatal(err)
	}
}

// TestUnreachableDatabaseFailsFast: with nothing listening, operations
// fail with ErrUnavailable, the first within the timeout and the next at
// once.
func TestUnreachableDatabaseFailsFast(t *testing.T) {
	st, err := fleet.Connect("postgres://postgres@127.0.0.1:1/none?sslmode=disable", fleet.Options{Replica: "a"})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range 3 {
		start := time.Now()
		_, err := st.Grants().Grants(context.Background(), "s")
		if !errors.Is(err, fleet.ErrUnavailable) || time.Since(start) > time.Second {
			t.Fatalf("call %d: %v after %s; want ErrUnavailable within a second", i, err, time.Since(start))
		}
	}
	if st.Healthy() {
		t.Fatal("Healthy after failures")
	}
}
