package approval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// Request is one call that needs a person's answer, with the decision that
// says why.
type Request struct {
	// Call is the tool call.
	Call call.Call
	// Decision is the policy's decision (verdict ask).
	Decision policy.Decision
}

// Scope is how long an approval lasts. The zero value is Once.
type Scope uint8

// The scopes.
const (
	// Once approves this call only.
	Once Scope = iota
	// Session approves matching calls for the rest of the agent session.
	Session
	// Always approves matching calls from now on (written to the user
	// policy file).
	Always
)

var scopeNames = []string{"once", "session", "always"}

// String returns "once", "session" or "always".
func (s Scope) String() string {
	if int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return fmt.Sprintf("invalid(%d)", s)
}

// ParseScope parses "once", "session" or "always" (case-insensitive).
func ParseScope(s string) (Scope, error) {
	for i, n := range scopeNames {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return Scope(i), nil
		}
	}
	return Once, fmt.Errorf("unknown approval scope %q (valid: %s)", s, strings.Join(scopeNames, ", "))
}

// MarshalText implements encoding.TextMarshaler.
func (s Scope) MarshalText() ([]byte, error) {
	if int(s) >= len(scopeNames) {
		return nil, fmt.Errorf("invalid approval scope %d", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Scope) UnmarshalText(b []byte) error {
	p, err := ParseScope(string(b))
	*s = p
	return err
}

// Answer is a person's answer.
type Answer struct {
	// Approved is true when the call may run. The zero Answer denies.
	Approved bool `json:"approved"`
	// Scope of an approval; ignored when Approved is false.
	Scope Scope `json:"scope"`
	// Prefix, for a session or always answer to a shell call, widens the
	// grant from the exact command to the commands that start with it; it
	// must be one of [Prefixes] of the command. Empty means the exact
	// command.
	Prefix string `json:"prefix,omitempty"`
	// By names the channel that answered: "terminal", "callback", "web", …
	By string `json:"by,omitempty"`
	// Note is free text from the person or the channel (why it was denied,
	// what the person wrote); may be empty.
	Note string `json:"note,omitempty"`
}

// Where says where the person answered, for a reason: " on the toolguard
// page" for the page (web) and a serve asked for an answer (serve), " in
// the terminal", and "" for other channels (an MCP client's elicitation
// says so in its note).
func (a Answer) Where() string {
	switch a.By {
	case "web", "serve":
		return " on the toolguard page"
	case "terminal":
		return " in the terminal"
	}
	return ""
}

// Approver answers requests. Implementations must honour ctx: when it is
// done, return promptly with an error. Whatever an Approver returns
// together with a non-nil error is ignored and the call is denied.
type Approver interface {
	Approve(ctx context.Context, r Request) (Answer, error)
}

// Errors an approver returns. Each one means deny.
var (
	// ErrTimeout: nobody answered in time.
	ErrTimeout = errors.New("no answer before the approval timeout")
	// ErrNoApprover: nobody can be asked.
	ErrNoApprover = errors.New("no approver configured")
)

// Callback adapts a function to an Approver, for programs that embed
// toolguard and ask their users their own way.
type Callback func(ctx context.Context, r Request) (Answer, error)

// Approve calls f. A nil Callback denies with ErrNoApprover.
func (f Callback) Approve(ctx context.Context, r Request) (Answer, error) {
	if f == nil {
		return Answer{}, ErrNoApprover
	}
	a, err := f(ctx, r)
	if a.By == "" {
		a.By = "callback"
	}
	return a, err
}

// None is the approver used when nobody can answer (CI, a server without a
// broker): it denies every request with ErrNoApprover.
type None struct{}

// Approve denies.
func (None) Approve(context.Context, Request) (Answer, error) {
	return Answer{By: "none", Note: ErrNoApprover.Error()}, ErrNoApprover
}

// First tries approvers in order and returns the first answer given without
// an error; a denial is an answer and ends the search. When every approver
// fails (for example no terminal and no callback), it returns the errors
// joined. With no approvers it behaves like [None].
type First []Approver

// Approve asks the approvers in turn.
func (f First) Approve(ctx context.Context, r Request) (Answer, error) {
	errs := []error{ErrNoApprover}
	for _, a := range f {
		ans, err := a.Approve(ctx, r)
		if err == nil {
			return ans, nil
		}
		if ctx.Err() != nil || errors.Is(err, ErrTimeout) {
			return Answer{}, err
		}
		errs = append(errs, err)
	}
	if len(errs) > 1 {
		errs = errs[1:]
	}
	return Answer{}, errors.Join(errs...)
}
