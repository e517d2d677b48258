package budget

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/state"
)

// Window is the sliding window of the action budget.
const Window = time.Hour

// Limits are the per-sender budgets of a [Counter].
type Limits struct {
	// MaxActionsPerHour is how many counted actions one sender may take in
	// any sliding hour. Zero means no limit. (ZeroClaw's default is 20 and
	// its 0 blocks everything; toolguard's configuration maps an unset key
	// to "no limit", so zero here means the same.)
	MaxActionsPerHour int
	// MaxCostPerDayCents is how many cents one sender may spend per UTC day,
	// as reported through [Counter.Charge]. Zero means no limit.
	MaxCostPerDayCents int
}

// Counter counts actions and cost per sender in one JSON file per sender
// under its directory. Every update takes the file's lock and rewrites it
// atomically, so counts are exact across goroutines and processes. Writes
// are not fsynced (a sync costs milliseconds on every counted call): a
// machine crash may forget the last counts, never corrupt them silently. A
// Counter is safe for concurrent use.
type Counter struct {
	dir    string
	limits Limits
}

// NewCounter returns a Counter keeping its files in dir (created when
// needed). Negative limits are an error.
func NewCounter(dir string, l Limits) (*Counter, error) {
	if l.MaxActionsPerHour < 0 || l.MaxCostPerDayCents < 0 {
		return nil, fmt.Errorf("budget: limits must be zero (no limit) or positive, got max_actions_per_hour=%d max_cost_per_day_cents=%d",
			l.MaxActionsPerHour, l.MaxCostPerDayCents)
	}
	return &Counter{dir: dir, limits: l}, nil
}

// DefaultDir is the budget directory inside the state directory.
func DefaultDir() (string, error) {
	dir, err := state.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "budget"), nil
}

// Counts reports whether a call of tier t uses an action slot: reads never
// do (as in ZeroClaw), every other tier does.
func Counts(t risk.Tier) bool { return t != risk.Read }

// senderFile is the JSON stored per sender.
type senderFile struct {
	// Actions are the times (Unix nanoseconds) of the counted actions of the
	// last Window, oldest first.
	Actions []int64 `json:"actions"`
	// Day is the UTC day (YYYY-MM-DD) CostCents belongs to.
	Day string `json:"day,omitempty"`
	// CostCents spent on Day.
	CostCents int `json:"cost_cents"`
}

// Status is a sender's budget after an operation.
type Status struct {
	// Sender the status is about ("" is the agent's own identity).
	Sender string
	// Actions counted in the current window (not tracked, so zero, when
	// there is no action limit); MaxActions is the limit (zero: none).
	Actions, MaxActions int
	// NextSlot is when the oldest counted action leaves the window; zero
	// when no action is counted.
	NextSlot time.Time
	// CostCents spent today (UTC); MaxCostCents is the limit (zero: none).
	CostCents, MaxCostCents int
}

// ExceededError says that a budget is used up and when it frees.
type ExceededError struct {
	// Sender whose budget is used.
	Sender string
	// Budget is "actions" or "cost".
	Budget string
	// Limit and Used are in actions or cents.
	Limit, Used int
	// ResetAt is when the next action slot frees, or the start of the next
	// UTC day for cost.
	ResetAt time.Time
}

// Error says which budget is used up and when it frees.
func (e *ExceededError) Error() string {
	reset := e.ResetAt.UTC().Format("15:04:05 UTC")
	if e.Budget == "cost" {
		return fmt.Sprintf("cost budget of %d cents/day used (%d cents spent)%s; resets at %s", e.Limit, e.Used, forSender(e.Sender), reset)
	}
	return fmt.Sprintf("actions budget of %d/hour used%s; next slot frees at %s", e.Limit, forSender(e.Sender), reset)
}

func forSender(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf(" by sender %q", s)
}

// Finding turns the error into a deny finding (rule "budget.actions" or
// "budget.cost", category budget) for a decision.
func (e *ExceededError) Finding() risk.Finding {
	return risk.Finding{
		Rule:     "budget." + e.Budget,
		Category: risk.CatBudget,
		Tier:     risk.Execute,
		Blast:    risk.BlastNone,
		Verdict:  risk.Deny,
		Reason:   e.Error(),
	}
}

// Reserve takes one action slot for sender at now, or returns an
// *[ExceededError] when the hourly action budget or today's cost budget is
// used up (nothing is counted then). A corrupt sender file is set aside and
// a *state.CorruptError returned: the caller denies. Only call Reserve for
// calls that count (see [Counts]).
func (c *Counter) Reserve(ctx context.Context, sender string, now time.Time) (Status, error) {
	if c.limits.MaxActionsPerHour == 0 {
		return c.checkOnly(ctx, sender, now)
	}
	return c.update(ctx, sender, now, func(f *senderFile) error {
		if err := c.checkCost(sender, f, now); err != nil {
			return err
		}
		if err := c.checkActions(sender, f, now); err != nil {
			return err
		}
		f.Actions = append(f.Actions, now.UnixNano())
		return nil
	})
}

// checkOnly serves Reserve without an action limit: nothing is counted, so
// only the cost budget is read (and nothing at all without one).
func (c *Counter) checkOnly(ctx context.Context, sender string, now time.Time) (Status, error) {
	if c.limits.MaxCostPerDayCents == 0 {
		return c.status(sender, &senderFile{}), nil
	}
	st, err := c.Status(ctx, sender, now)
	if err != nil {
		return st, err
	}
	f := senderFile{CostCents: st.CostCents}
	return st, c.checkCost(sender, &f, now)
}

// Charge adds cents (≥ 0) to sender's spending for now's UTC day. The cost
// is recorded even when it takes the sender over budget: the money is spent;
// the next Reserve is refused.
func (c *Counter) Charge(ctx context.Context, sender string, cents int, now time.Time) (Status, error) {
	if cents < 0 {
		return Status{}, fmt.Errorf("budget: charge of %d cents: must not be negative", cents)
	}
	return c.update(ctx, sender, now, func(f *senderFile) error {
		f.CostCents += cents
		return nil
	})
}

// Status returns sender's budget at now without counting anything.
func (c *Counter) Status(ctx context.Context, sender string, now time.Time) (Status, error) {
	var f senderFile
	err := state.ReadJSON(ctx, c.path(sender), &f)
	c.normalize(&f, now)
	return c.status(sender, &f), err
}

func (c *Counter) update(ctx context.Context, sender string, now time.Time, op func(*senderFile) error) (Status, error) {
	var f senderFile
	var opErr error
	err := state.UpdateJSONUnsynced(ctx, c.path(sender), &f, func(f *senderFile) (bool, error) {
		c.normalize(f, now)
		opErr = op(f)
		return opErr == nil, nil
	})
	if err == nil {
		err = opErr
	}
	return c.status(sender, &f), err
}

func (c *Counter) path(sender string) string {
	return filepath.Join(c.dir, state.FileName(sender)+".json")
}

// normalize drops actions that left the window and cost of earlier days.
func (c *Counter) normalize(f *senderFile, now time.Time) {
	cutoff := now.Add(-Window).UnixNano()
	i := 0
	for i < len(f.Actions) && f.Actions[i] <= cutoff {
		i++
	}
	f.Actions = f.Actions[i:]
	if day := now.UTC().Format(time.DateOnly); f.Day != day {
		f.Day, f.CostCents = day, 0
	}
}

func (c *Counter) checkActions(sender string, f *senderFile, now time.Time) error {
	limit := c.limits.MaxActionsPerHour
	if limit == 0 || len(f.Actions) < limit {
		return nil
	}
	oldest := f.Actions[len(f.Actions)-limit]
	return &ExceededError{Sender: sender, Budget: "actions", Limit: limit, Used: len(f.Actions),
		ResetAt: time.Unix(0, oldest).Add(Window)}
}

func (c *Counter) checkCost(sender string, f *senderFile, now time.Time) error {
	limit := c.limits.MaxCostPerDayCents
	if limit == 0 || f.CostCents < limit {
		return nil
	}
	y, m, d := now.UTC().Date()
	return &ExceededError{Sender: sender, Budget: "cost", Limit: limit, Used: f.CostCents,
		ResetAt: time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)}
}

func (c *Counter) status(sender string, f *senderFile) Status {
	s := Status{Sender: sender, Actions: len(f.Actions), MaxActions: c.limits.MaxActionsPerHour,
		CostCents: f.CostCents, MaxCostCents: c.limits.MaxCostPerDayCents}
	if len(f.Actions) > 0 {
		s.NextSlot = time.Unix(0, f.Actions[0]).Add(Window).UTC()
	}
	return s
}
