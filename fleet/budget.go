package fleet

import (
	"context"
	"fmt"
	"time"

	"github.com/toolguard/toolguard/budget"
)

// Ledger is the fleet's per-sender budget (budget.Ledger): one sliding
// hour of actions and one UTC day of cost per sender, counted in the
// database under a per-sender lock, so the limit holds exactly whatever
// the number of replicas. Times are the deciding replica's clock (keep
// replicas in NTP sync; `toolguard state check` shows the offset).
type Ledger struct {
	s      *Store
	limits budget.Limits
}

var _ budget.Ledger = (*Ledger)(nil)

// Ledger returns the budget with limits l (zero fields: no limit).
func (s *Store) Ledger(l budget.Limits) (*Ledger, error) {
	if l.MaxActionsPerHour < 0 || l.MaxCostPerDayCents < 0 {
		return nil, fmt.Errorf("budget: limits must be zero (no limit) or positive, got max_actions_per_hour=%d max_cost_per_day_cents=%d",
			l.MaxActionsPerHour, l.MaxCostPerDayCents)
	}
	return &Ledger{s: s, limits: l}, nil
}

// Reserve counts one action of sender, or returns a *budget.ExceededError
// when its hourly actions or the day's cost are used up.
func (l *Ledger) Reserve(ctx context.Context, sender string, now time.Time) (budget.Status, error) {
	var ok bool
	var used int
	var cost int64
	var oldest, reset *time.Time
	err := l.s.op(ctx, "counting the budget", func(ctx context.Context) error {
		return l.s.pool.QueryRow(ctx, `SELECT ok, used, cost, oldest, reset_at FROM toolguard_reserve($1, $2, $3, $4)`,
			sender, now.UTC(), l.limits.MaxActionsPerHour, l.limits.MaxCostPerDayCents).Scan(&ok, &used, &cost, &oldest, &reset)
	})
	st := l.status(sender, used, int(cost), oldest)
	if err != nil || ok {
		return st, err
	}
	if l.limits.MaxCostPerDayCents > 0 && int(cost) >= l.limits.MaxCostPerDayCents {
		y, m, d := now.UTC().Date()
		return st, &budget.ExceededError{Sender: sender, Budget: "cost", Limit: l.limits.MaxCostPerDayCents, Used: int(cost),
			ResetAt: time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)}
	}
	ex := &budget.ExceededError{Sender: sender, Budget: "actions", Limit: l.limits.MaxActionsPerHour, Used: used}
	if reset != nil {
		ex.ResetAt = reset.UTC()
	}
	return st, ex
}

// Charge adds cents to sender's spending of now's UTC day.
func (l *Ledger) Charge(ctx context.Context, sender string, cents int, now time.Time) (budget.Status, error) {
	if cents < 0 {
		return budget.Status{}, fmt.Errorf("budget: charge of %d cents: must not be negative", cents)
	}
	err := l.s.exec(ctx, "charging the budget", `INSERT INTO toolguard_budget_cost AS c (sender, day, cents)
		VALUES ($1, ($2::timestamptz AT TIME ZONE 'UTC')::date, $3)
		ON CONFLICT (sender, day) DO UPDATE SET cents = c.cents + excluded.cents`, sender, now.UTC(), cents)
	if err != nil {
		return budget.Status{}, err
	}
	return l.Status(ctx, sender, now)
}

// Status is sender's budget without counting anything.
func (l *Ledger) Status(ctx context.Context, sender string, now time.Time) (budget.Status, error) {
	var used int
	var cost int64
	var oldest *time.Time
	err := l.s.op(ctx, "reading the budget", func(ctx context.Context) error {
		return l.s.pool.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM toolguard_budget_actions WHERE sender = $1 AND at > $2::timestamptz - interval '1 hour'),
			(SELECT coalesce(max(cents), 0) FROM toolguard_budget_cost WHERE sender = $1 AND day = ($2::timestamptz AT TIME ZONE 'UTC')::date),
			(SELECT min(at) FROM toolguard_budget_actions WHERE sender = $1 AND at > $2::timestamptz - interval '1 hour')`,
			sender, now.UTC()).Scan(&used, &cost, &oldest)
	})
	return l.status(sender, used, int(cost), oldest), err
}

func (l *Ledger) status(sender string, used, cost int, oldest *time.Time) budget.Status {
	st := budget.Status{Sender: sender, MaxActions: l.limits.MaxActionsPerHour, CostCents: cost, MaxCostCents: l.limits.MaxCostPerDayCents}
	if l.limits.MaxActionsPerHour > 0 {
		st.Actions = used
		if oldest != nil {
			st.NextSlot = oldest.Add(budget.Window).UTC()
		}
	}
	return st
}

// Tally is the fleet's count of sub-agents per agent session
// (budget.Tally).
type Tally struct {
	s   *Store
	max int
}

var _ budget.Tally = Tally{}

// Tally returns the sub-agent counter allowing maxTotal per session; zero
// means budget.DefaultSubAgentLimits.MaxTotal.
func (s *Store) Tally(maxTotal int) (Tally, error) {
	if maxTotal < 0 {
		return Tally{}, fmt.Errorf("budget: sub-agent max_total is %d; it must be zero (default %d) or positive", maxTotal, budget.DefaultSubAgentLimits.MaxTotal)
	}
	if maxTotal == 0 {
		maxTotal = budget.DefaultSubAgentLimits.MaxTotal
	}
	return Tally{s, maxTotal}, nil
}

// Take counts one more sub-agent of session, or returns a
// *budget.LimitError when it already started the maximum.
func (t Tally) Take(ctx context.Context, session string) (int, error) {
	var started int
	var took bool
	err := t.s.op(ctx, "counting sub-agents", func(ctx context.Context) error {
		return t.s.pool.QueryRow(ctx, `WITH up AS (
				INSERT INTO toolguard_subagents AS s (session, started) VALUES ($1, 1)
				ON CONFLICT (session) DO UPDATE SET started = s.started + 1 WHERE s.started < $2
				RETURNING started)
			SELECT coalesce((SELECT started FROM up), (SELECT started FROM toolguard_subagents WHERE session = $1), 0),
				EXISTS (SELECT 1 FROM up)`, session, t.max).Scan(&started, &took)
	})
	if err != nil {
		return 0, err
	}
	if !took {
		return started, &budget.LimitError{Limit: "total", Detail: fmt.Sprintf("this session already started %d sub-agents; the limit is %d", started, t.max)}
	}
	return started, nil
}
