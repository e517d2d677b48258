package guard

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// DeniedError is returned by a wrapped tool when its call is not allowed.
type DeniedError struct {
	Tool     string
	Decision policy.Decision
}

func (e *DeniedError) Error() string {
	return fmt.Sprintf("%s: %s by toolguard (%s): %s", e.Tool, e.Decision.Verdict, e.Decision.Rule, e.Decision.Reason)
}

// Wrap guards a Go tool function: each call's argument is turned into the
// tool's JSON input, mapped with the policy's tool table (name → kind and
// which fields hold paths, URLs and commands), authorised, and only then
// passed to fn. A call that is not allowed returns a *DeniedError and fn
// never runs.
func Wrap[In, Out any](g *Guard, name string, who call.Who, fn func(context.Context, In) (Out, error)) func(context.Context, In) (Out, error) {
	return func(ctx context.Context, in In) (Out, error) {
		var zero Out
		c, err := g.callFor(name, who, in)
		if err != nil {
			return zero, err
		}
		d, err := g.Authorize(ctx, c)
		if !d.Allowed() {
			return zero, &DeniedError{Tool: name, Decision: d}
		}
		if err != nil {
			return zero, err
		}
		return fn(ctx, in)
	}
}

func (g *Guard) callFor(name string, who call.Who, in any) (call.Call, error) {
	raw, err := json.Marshal(in)
	if err != nil {
		return call.Call{}, fmt.Errorf("%s: encoding the arguments: %w", name, err)
	}
	var input map[string]any
	if err := json.Unmarshal(raw, &input); err != nil {
		return call.Call{}, fmt.Errorf("%s: the arguments must encode as a JSON object: %w", name, err)
	}
	cwd, _ := input["cwd"].(string)
	return g.policy.Tools().Normalize(call.Request{Tool: name, Input: input, Cwd: cwd, Workspace: g.workspace(cwd), Who: who})
}

func (g *Guard) workspace(cwd string) string {
	if cwd != "" {
		return cwd
	}
	return g.workdir
}
