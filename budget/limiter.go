package budget

import (
	"context"
	"fmt"
	"sync"
	"time"
	"unicode/utf8"
)

// SubAgentLimits bound the sub-agents (calls of kind agent) of one process.
// Every zero field takes the default shown, from ai-chat's run_agent.
type SubAgentLimits struct {
	// MaxConcurrent sub-agents running at once. Zero means 5.
	MaxConcurrent int
	// MaxTotal sub-agents started over the Limiter's life. Zero means 10.
	MaxTotal int
	// MaxDepth is the deepest nesting: a caller at depth d (0 is the
	// top-level agent) may start a sub-agent only while d < MaxDepth. Zero
	// means 3.
	MaxDepth int
	// MaxPromptChars is the longest prompt, in characters. Zero means 32000.
	MaxPromptChars int
	// MaxOutputChars is the longest output kept, in characters; longer
	// output is cut by [Limiter.TrimOutput]. Zero means 4000.
	MaxOutputChars int
	// Timeout is a sub-agent's wall clock. Zero means 120s.
	Timeout time.Duration
	// SlotWait is how long Acquire waits for a concurrency slot. Zero means
	// 30s.
	SlotWait time.Duration
}

// The defaults of SubAgentLimits.
var DefaultSubAgentLimits = SubAgentLimits{
	MaxConcurrent: 5, MaxTotal: 10, MaxDepth: 3, MaxPromptChars: 32000,
	MaxOutputChars: 4000, Timeout: 120 * time.Second, SlotWait: 30 * time.Second,
}

// withDefaults fills zero fields and rejects negative ones.
func (l SubAgentLimits) withDefaults() (SubAgentLimits, error) {
	d := DefaultSubAgentLimits
	ints := []struct {
		name string
		v    *int
		def  int
	}{
		{"max_concurrent", &l.MaxConcurrent, d.MaxConcurrent}, {"max_total", &l.MaxTotal, d.MaxTotal},
		{"max_depth", &l.MaxDepth, d.MaxDepth}, {"max_prompt_chars", &l.MaxPromptChars, d.MaxPromptChars},
		{"max_output_chars", &l.MaxOutputChars, d.MaxOutputChars},
	}
	for _, f := range ints {
		if *f.v < 0 {
			return l, fmt.Errorf("budget: sub-agent %s is %d; it must be zero (default %d) or positive", f.name, *f.v, f.def)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if l.Timeout < 0 || l.SlotWait < 0 {
		return l, fmt.Errorf("budget: sub-agent timeout and slot wait must be zero (default) or positive")
	}
	l.Timeout = cmpOr(l.Timeout, d.Timeout)
	l.SlotWait = cmpOr(l.SlotWait, d.SlotWait)
	return l, nil
}

func cmpOr(v, def time.Duration) time.Duration {
	if v == 0 {
		return def
	}
	return v
}

// Limiter enforces SubAgentLimits within one process. Each hook invocation
// is its own process, so concurrency and totals are meaningful for
// long-running users (the guard library, `toolguard serve`, the MCP proxy);
// depth and prompt length are checked on every call. A Limiter is safe for
// concurrent use.
type Limiter struct {
	limits SubAgentLimits
	slots  chan struct{}
	mu     sync.Mutex
	total  int
}

// NewLimiter returns a Limiter for l (zero fields take the defaults).
func NewLimiter(l SubAgentLimits) (*Limiter, error) {
	l, err := l.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Limiter{limits: l, slots: make(chan struct{}, l.MaxConcurrent)}, nil
}

// Limits returns the limits in force, defaults filled in.
func (l *Limiter) Limits() SubAgentLimits { return l.limits }

// LimitError says which sub-agent limit refused a start.
type LimitError struct {
	// Limit is "prompt", "depth", "total" or "concurrent".
	Limit string
	// Detail is the sentence shown to a person.
	Detail string
}

// Error says why the sub-agent was refused.
func (e *LimitError) Error() string { return "sub-agent refused: " + e.Detail }

// Acquire admits one sub-agent started by a caller at depth with a prompt
// of promptChars characters. It checks, in ai-chat's order: a non-empty
// prompt within MaxPromptChars, depth below MaxDepth, fewer than MaxTotal
// started, then waits up to SlotWait (or until ctx is done) for one of
// MaxConcurrent slots. On success the caller must call release exactly once
// when the sub-agent ends (later calls do nothing); on failure the error is
// a *[LimitError] or ctx's error, and nothing is held.
func (l *Limiter) Acquire(ctx context.Context, depth, promptChars int) (release func(), err error) {
	if err := l.check(depth, promptChars); err != nil {
		return nil, err
	}
	if err := l.takeTotal(); err != nil {
		return nil, err
	}
	if err := l.waitSlot(ctx); err != nil {
		l.giveBackTotal()
		return nil, err
	}
	return sync.OnceFunc(func() { <-l.slots }), nil
}

func (l *Limiter) check(depth, promptChars int) error {
	lim := l.limits
	switch {
	case promptChars <= 0:
		return &LimitError{"prompt", "the prompt is empty"}
	case promptChars > lim.MaxPromptChars:
		return &LimitError{"prompt", fmt.Sprintf("the prompt has %d characters; the limit is %d", promptChars, lim.MaxPromptChars)}
	case depth < 0 || depth >= lim.MaxDepth:
		return &LimitError{"depth", fmt.Sprintf("a sub-agent at depth %d may not start another (max_depth %d)", depth, lim.MaxDepth)}
	}
	return nil
}

func (l *Limiter) takeTotal() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total >= l.limits.MaxTotal {
		return &LimitError{"total", fmt.Sprintf("%d sub-agents were already started; the limit is %d", l.total, l.limits.MaxTotal)}
	}
	l.total++
	return nil
}

func (l *Limiter) giveBackTotal() {
	l.mu.Lock()
	l.total--
	l.mu.Unlock()
}

func (l *Limiter) waitSlot(ctx context.Context) error {
	timer := time.NewTimer(l.limits.SlotWait)
	defer timer.Stop()
	select {
	case l.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return &LimitError{"concurrent", fmt.Sprintf("%d sub-agents are running; no slot freed within %s", l.limits.MaxConcurrent, l.limits.SlotWait)}
	}
}

// TrimOutput cuts s to MaxOutputChars characters, marking the cut.
func (l *Limiter) TrimOutput(s string) string {
	limit := l.limits.MaxOutputChars
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	n := 0
	for i := range s {
		if n == limit {
			return s[:i] + fmt.Sprintf("\n[output cut at %d characters]", limit)
		}
		n++
	}
	return s
}

// WithDeadline returns a context that ends after the sub-agent wall clock
// (Timeout) or when ctx ends.
func (l *Limiter) WithDeadline(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, l.limits.Timeout)
}
