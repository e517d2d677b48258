package budget

import (
	"context"
	"time"
)

// Ledger counts actions and cost per sender: a [Counter] in files on one
// machine, or a fleet's database (package fleet), exact across processes
// and replicas. Implementations are safe for concurrent use.
type Ledger interface {
	// Status is the sender's budget without counting anything.
	Status(ctx context.Context, sender string, now time.Time) (Status, error)
	// Reserve counts one action, or returns an *ExceededError when the
	// sender's budget is used up.
	Reserve(ctx context.Context, sender string, now time.Time) (Status, error)
	// Charge adds cents to the sender's spending of the day.
	Charge(ctx context.Context, sender string, cents int, now time.Time) (Status, error)
}

// Tally counts the sub-agents started per agent session: [SessionTotals]
// in files, or a fleet's database.
type Tally interface {
	// Take counts one more sub-agent of session and returns the new total,
	// or a *LimitError when the session's total is used up.
	Take(ctx context.Context, session string) (int, error)
}

// Starts records when each agent session began (its first call).
type Starts interface {
	// Start returns when session's first call was seen, recording now
	// when this is the first; zero when the session has no id.
	Start(ctx context.Context, session string, now time.Time) (time.Time, error)
}

var (
	_ Starts = (*SessionStarts)(nil)
	_ Ledger = (*Counter)(nil)
	_ Tally  = (*SessionTotals)(nil)
)
