package approval

import (
	"context"
	"time"
)

// Keeper keeps grants: a [GrantStore] in files on one machine, or a
// fleet's database (package fleet). Implementations are safe for
// concurrent use.
type Keeper interface {
	// Grants returns the always grants and the session's grants together,
	// for [ApplyGrants]; an error means none apply (the caller fails
	// closed).
	Grants(ctx context.Context, session string) ([]Grant, error)
	// Record remembers an approval according to its scope (see
	// [GrantStore.Record]): the grant and whether one was recorded.
	Record(ctx context.Context, r Request, a Answer, now time.Time) (Grant, bool, error)
}

var _ Keeper = (*GrantStore)(nil)
