package policy

import (
	"context"

	"github.com/toolguard/toolguard/call"
)

// WorkLimit is the size of one call's work budget, for tests.
const WorkLimit = workLimit

// DecideWork is Decide that also returns the work units the call's
// analysis spent, so that tests can bound the work of an input without
// timing it (timings vary with the machine and its load).
func (p *Policy) DecideWork(ctx context.Context, c call.Call) (Decision, int) {
	return p.DecideMemo(ctx, c, MemoAsDecide)
}

// Memo is how a test's decision uses the call's memos (of the rule packs'
// answers, and of judged paths).
type Memo int

const (
	// MemoAsDecide uses them as Decide does: the packs' memo remembers
	// only after the call's first few commands (analysis' memoAfter).
	MemoAsDecide Memo = iota
	// MemoNone classifies every command by the rule packs and judges every
	// path anew, none answered from a memo: the memos' reference.
	MemoNone
	// MemoEvery has the packs' memo remember from the call's first
	// command on, so that short calls exercise it too.
	MemoEvery
	// MemoAsDecideFollowingAll uses the memos as Decide does, and follows
	// the whole call after its decision is settled (analysis.FollowAll):
	// the reference the early stop is tested against.
	MemoAsDecideFollowingAll
)

// DecideMemo is DecideWork with the call's memos used as memo says.
func (p *Policy) DecideMemo(ctx context.Context, c call.Call, memo Memo) (Decision, int) {
	if sub := p.ForAgent(c.Who.Agent); sub != p {
		return sub.DecideMemo(ctx, c, memo)
	}
	e := p.newEvaluation(ctx, &c, nil)
	switch memo {
	case MemoNone:
		e.an.ClassifyAfresh()
		e.afresh = true
	case MemoEvery:
		e.an.RememberEvery()
	case MemoAsDecideFollowingAll:
		e.an.FollowAll()
	}
	e.run()
	return e.decide(), e.work.Used()
}

// BirthTimesKept reports whether the file system of dir keeps birth times
// (the session-made tree rule needs them).
func BirthTimesKept(dir string) bool {
	_, _, ok := birth(dir)
	return ok
}
