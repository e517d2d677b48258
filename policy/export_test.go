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
	if sub := p.ForAgent(c.Who.Agent); sub != p {
		return sub.DecideWork(ctx, c)
	}
	e := p.newEvaluation(ctx, &c)
	e.run()
	return e.decide(), e.work.Used()
}

// DecideAfresh is DecideWork with every command classified by the rule
// packs, none answered from the call's memo (the memo's reference).
func (p *Policy) DecideAfresh(ctx context.Context, c call.Call) (Decision, int) {
	if sub := p.ForAgent(c.Who.Agent); sub != p {
		return sub.DecideAfresh(ctx, c)
	}
	e := p.newEvaluation(ctx, &c)
	e.an.ClassifyAfresh()
	e.afresh = true
	e.run()
	return e.decide(), e.work.Used()
}

// DecideMemoEvery is DecideWork with the call's memo of the rule packs'
// answers remembering from the call's first command on, not only after
// the first few (analysis' memoAfter): short calls exercise the memo too.
func (p *Policy) DecideMemoEvery(ctx context.Context, c call.Call) (Decision, int) {
	if sub := p.ForAgent(c.Who.Agent); sub != p {
		return sub.DecideMemoEvery(ctx, c)
	}
	e := p.newEvaluation(ctx, &c)
	e.an.RememberEvery()
	e.run()
	return e.decide(), e.work.Used()
}

// BirthTimesKept reports whether the file system of dir keeps birth times
// (the session-made tree rule needs them).
func BirthTimesKept(dir string) bool {
	_, _, ok := birth(dir)
	return ok
}
