package server

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// closingAuthorizer decides with the policy and counts its Close calls.
type closingAuthorizer struct {
	p      *policy.Policy
	closed *atomic.Int32
}

func (a closingAuthorizer) Authorize(ctx context.Context, c call.Call) (policy.Decision, error) {
	return a.p.Decide(ctx, c), nil
}

func (a closingAuthorizer) Close() error {
	a.closed.Add(1)
	return nil
}

// An Authorizer built for one request's tightened policy is closed after
// the request (a guard's audit log must not wait for the garbage
// collector); the server's own stays open.
func TestPerRequestAuthorizersAreClosed(t *testing.T) {
	var built, closed atomic.Int32
	s := newTestServer(t, Options{Authorizer: func(p *policy.Policy, _ approval.Approver) (Authorizer, error) {
		built.Add(1)
		return closingAuthorizer{p: p, closed: &closed}, nil
	}})
	bodies := []string{
		`{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws"}`,
		`{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws","policy":{"mode":"readonly"}}`,
	}
	for _, path := range []string{"/v1/decide", "/v1/authorize"} {
		for _, b := range bodies {
			if rec := do(t, s.Handler(), "POST", path, b, nil); rec.Code != http.StatusOK {
				t.Fatalf("%s: status %d: %s", path, rec.Code, rec.Body)
			}
		}
	}
	got := [2]int32{built.Load(), closed.Load()}
	want := [2]int32{3, 2} // the server's own, then one per request with an override, each closed
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("authorizers [built, closed] (-want +got):\n%s", diff)
	}
}
