package budget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/state"
)

var t0 = time.Date(2026, 11, 21, 9, 42, 13, 0, time.UTC)

func newCounter(t *testing.T, l Limits) *Counter {
	t.Helper()
	c, err := NewCounter(t.TempDir(), l)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestReserveActionsWindow(t *testing.T) {
	c := newCounter(t, Limits{MaxActionsPerHour: 3})
	ctx := context.Background()
	for i := range 3 {
		st, err := c.Reserve(ctx, "alice", t0.Add(time.Duration(i)*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if st.Actions != i+1 {
			t.Errorf("after reservation %d: Actions = %d", i+1, st.Actions)
		}
	}
	_, err := c.Reserve(ctx, "alice", t0.Add(30*time.Minute))
	want := `actions budget of 3/hour used by sender "alice"; next slot frees at 10:42:13 UTC`
	if err == nil || err.Error() != want {
		t.Fatalf("4th reservation: %v, want %q", err, want)
	}
	if _, err := c.Reserve(ctx, "bob", t0.Add(30*time.Minute)); err != nil {
		t.Errorf("another sender shares the budget: %v", err)
	}
	st, err := c.Reserve(ctx, "alice", t0.Add(time.Hour+time.Second)) // the first slot has left the window
	if err != nil {
		t.Fatalf("after the window slid: %v", err)
	}
	want2 := Status{Sender: "alice", Actions: 3, MaxActions: 3, NextSlot: t0.Add(time.Hour + time.Minute)}
	if diff := cmp.Diff(want2, st); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
}

func TestReserveCost(t *testing.T) {
	c := newCounter(t, Limits{MaxCostPerDayCents: 500})
	ctx := context.Background()
	if _, err := c.Charge(ctx, "", 300, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Reserve(ctx, "", t0); err != nil {
		t.Fatalf("under budget: %v", err)
	}
	if _, err := c.Charge(ctx, "", 212, t0); err != nil {
		t.Fatal(err)
	}
	_, err := c.Reserve(ctx, "", t0.Add(time.Hour))
	ee, ok := errors.AsType[*ExceededError](err)
	if !ok {
		t.Fatalf("Reserve over the cost budget = %v, want *ExceededError", err)
	}
	if got, want := err.Error(), "cost budget of 500 cents/day used (512 cents spent); resets at 00:00:00 UTC"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
	wantFinding := risk.Finding{Rule: "budget.cost", Category: risk.CatBudget, Tier: risk.Execute, Verdict: risk.Deny, Reason: err.Error()}
	if diff := cmp.Diff(wantFinding, ee.Finding()); diff != "" {
		t.Errorf("finding (-want +got):\n%s", diff)
	}
	if _, err := c.Reserve(ctx, "", time.Date(2026, 11, 22, 0, 0, 1, 0, time.UTC)); err != nil {
		t.Errorf("next day: %v", err)
	}
	if _, err := c.Charge(ctx, "", -1, t0); err == nil {
		t.Error("negative charge accepted")
	}
}

func TestUnlimited(t *testing.T) {
	c := newCounter(t, Limits{})
	for range 100 {
		if _, err := c.Reserve(context.Background(), "s", t0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := NewCounter(t.TempDir(), Limits{MaxActionsPerHour: -1}); err == nil {
		t.Error("negative limit accepted")
	}
}

func TestCounts(t *testing.T) {
	got := map[risk.Tier]bool{}
	for _, tier := range []risk.Tier{risk.Read, risk.Write, risk.Execute, risk.Destructive} {
		got[tier] = Counts(tier)
	}
	want := map[risk.Tier]bool{risk.Read: false, risk.Write: true, risk.Execute: true, risk.Destructive: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func TestCorruptStateFailsClosed(t *testing.T) {
	dir := t.TempDir()
	c, _ := NewCounter(dir, Limits{MaxActionsPerHour: 5})
	path := filepath.Join(dir, "alice.json")
	os.WriteFile(path, []byte(`{"actions": [1, 2,`), 0o600)
	_, err := c.Reserve(context.Background(), "alice", t0)
	ce, ok := errors.AsType[*state.CorruptError](err)
	if !ok {
		t.Fatalf("Reserve on a corrupt file = %v, want *state.CorruptError", err)
	}
	if !strings.HasPrefix(ce.MovedTo, path+".corrupt-") {
		t.Errorf("moved to %q", ce.MovedTo)
	}
	if _, err := c.Reserve(context.Background(), "alice", t0); err != nil {
		t.Errorf("after the corrupt file was set aside, a new one starts: %v", err)
	}
}

// The test binary re-executes itself as a reserving process when these are set.
const (
	envHelperDir   = "TOOLGUARD_BUDGET_HELPER_DIR"
	envHelperCount = "TOOLGUARD_BUDGET_HELPER_COUNT"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(envHelperDir); dir != "" {
		os.Exit(helperReserve(dir))
	}
	os.Exit(m.Run())
}

// helperReserve tries n reservations and prints how many were granted.
func helperReserve(dir string) int {
	n, _ := strconv.Atoi(os.Getenv(envHelperCount))
	c, _ := NewCounter(dir, Limits{MaxActionsPerHour: 1000})
	granted := 0
	for range n {
		_, err := c.Reserve(context.Background(), "shared", time.Now())
		if err == nil {
			granted++
		} else if _, ok := errors.AsType[*ExceededError](err); !ok {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	fmt.Println(granted)
	return 0
}

// TestManyProcessesCountExactly runs several processes and goroutines
// reserving from one budget at once: every slot is granted exactly once
// and no more than the limit.
func TestManyProcessesCountExactly(t *testing.T) {
	dir := t.TempDir()
	const procs, perProc, goroutines, perGoroutine = 6, 150, 4, 100 // 1300 attempts, limit 1000
	var granted atomic.Int64
	var wg sync.WaitGroup
	for range procs {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), envHelperDir+"="+dir, envHelperCount+"="+strconv.Itoa(perProc))
			out, err := cmd.Output()
			if err != nil {
				t.Errorf("helper: %v", err)
				return
			}
			n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
			granted.Add(int64(n))
		})
	}
	c, _ := NewCounter(dir, Limits{MaxActionsPerHour: 1000})
	for range goroutines {
		wg.Go(func() {
			for range perGoroutine {
				if _, err := c.Reserve(context.Background(), "shared", time.Now()); err == nil {
					granted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	st, err := c.Status(context.Background(), "shared", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if granted.Load() != 1000 || st.Actions != 1000 {
		t.Errorf("granted %d, stored %d; want exactly 1000 of %d attempts", granted.Load(), st.Actions, procs*perProc+goroutines*perGoroutine)
	}
}

func TestManyProcessesBelowLimit(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), envHelperDir+"="+dir, envHelperCount+"=40")
			if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "40" {
				t.Errorf("helper: %v %s", err, out)
			}
		})
	}
	wg.Wait()
	c, _ := NewCounter(dir, Limits{MaxActionsPerHour: 1000})
	st, _ := c.Status(context.Background(), "shared", time.Now())
	if st.Actions != 200 {
		t.Errorf("stored %d actions, want exactly 200", st.Actions)
	}
}

func BenchmarkReserve(b *testing.B) {
	c, _ := NewCounter(b.TempDir(), Limits{MaxActionsPerHour: 1 << 30})
	now := time.Now()
	for i := 0; b.Loop(); i++ {
		if _, err := c.Reserve(context.Background(), "s", now.Add(time.Duration(i))); err != nil {
			b.Fatal(err)
		}
	}
}
