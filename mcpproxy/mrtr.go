package mcpproxy

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Protocol 2026-07-28 (SEP-2322) has no separate elicitation/create
// request: a tools/call result may be "input_required" with input
// requests, and the client retries the call with the answers and the
// opaque requestState. The proxy uses this to ask clients of that
// revision: the first call is answered with its own input request, and
// the retry, recognised by the proxy's requestState, carries the answer.

const (
	// modernProtocol is the first revision with multi round-trip requests.
	modernProtocol = "2026-07-28"
	// inputKey names the proxy's input request and its answer.
	inputKey = "toolguard_approval"
	// statePrefix starts every requestState the proxy issues.
	statePrefix = "toolguard-state-"
	// maxRounds bounds the approvals waiting for the client's retry.
	maxRounds = 64
)

// Per-request _meta keys of protocol 2026-07-28.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// round is an approval put to the client, waiting for its retry.
type round struct {
	call      [32]byte        // hash of the tool name and arguments asked about
	state     json.RawMessage // the server's requestState of the first call; nil when none
	responses json.RawMessage // the server's inputResponses of the first call; nil when none
	expires   time.Time
}

// answerKey carries the answer of a retried call to the elicitor.
type answerKey struct{}

type carriedAnswer struct {
	answer approval.Answer
	err    error
}

// modernElicits reports whether a tools/call comes from a client of
// protocol 2026-07-28 or later that declared the elicitation capability
// in the request's _meta.
func modernElicits(tc toolCall) bool {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(tc.params["_meta"], &p.Meta) != nil {
		return false
	}
	var version string
	var caps struct {
		Elicitation json.RawMessage `json:"elicitation"`
	}
	_ = json.Unmarshal(p.Meta[metaProtocolVersion], &version)
	_ = json.Unmarshal(p.Meta[metaClientCapabilities], &caps)
	el := strings.TrimSpace(string(caps.Elicitation))
	return version >= modernProtocol && el != "" && el != "null"
}

// callHash binds an approval to the tool and its arguments.
func callHash(tc toolCall) [32]byte {
	args, _ := json.Marshal(tc.args) // map keys are sorted; values came from JSON
	return sha256.Sum256(append([]byte(tc.name+"\x00"), args...))
}

// retriedState is the proxy's requestState a retried call carries, or "".
func retriedState(tc toolCall) string {
	var s string
	if json.Unmarshal(tc.params["requestState"], &s) != nil || !strings.HasPrefix(s, statePrefix) {
		return ""
	}
	return s
}

// askInRound answers a call that needs approval with an input request and
// remembers the round.
func (p *proxy) askInRound(id json.RawMessage, tc toolCall, d policy.Decision) {
	token := statePrefix + randomHex(16)
	r := &round{call: callHash(tc), state: tc.params["requestState"], responses: tc.params["inputResponses"],
		expires: time.Now().Add(approval.ClampTimeout(p.policy.Config().Approval.Timeout))}
	p.mu.Lock()
	p.pruneRounds(time.Now())
	p.rounds[token] = r
	p.mu.Unlock()
	req := approval.Request{Call: p.describe(tc), Decision: d}
	res := map[string]any{
		"resultType":    "input_required",
		"inputRequests": map[string]any{inputKey: map[string]any{"method": methodElicit, "params": elicitParams(req)}},
		"requestState":  token,
	}
	msg, err := resultReply(id, res)
	if err != nil {
		p.replyDenied(id, internalDeny("toolguard could not encode its approval request"))
		return
	}
	p.reply(msg)
}

// pruneRounds drops expired rounds, and the oldest when there are too many.
func (p *proxy) pruneRounds(now time.Time) {
	var oldest string
	for token, r := range p.rounds {
		if now.After(r.expires) {
			delete(p.rounds, token)
		} else if oldest == "" || r.expires.Before(p.rounds[oldest].expires) {
			oldest = token
		}
	}
	if len(p.rounds) >= maxRounds {
		delete(p.rounds, oldest)
	}
}

// takeRound removes and returns the round a retried call answers, if it
// is known, unexpired and about the same call.
func (p *proxy) takeRound(token string, tc toolCall) (*round, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r, ok := p.rounds[token]
	delete(p.rounds, token)
	return r, ok && time.Now().Before(r.expires) && r.call == callHash(tc)
}

// roundAnswer reads the proxy's answer out of a retried call.
func roundAnswer(tc toolCall) carriedAnswer {
	var responses map[string]json.RawMessage
	_ = json.Unmarshal(tc.params["inputResponses"], &responses)
	raw, ok := responses[inputKey]
	if !ok {
		return carriedAnswer{approval.Answer{By: "elicitation"}, fmt.Errorf("the MCP client retried the call without the %q answer", inputKey)}
	}
	a, err := parseElicitResult(raw)
	return carriedAnswer{a, err}
}

// expiredRound is the decision for a retry whose round is unknown.
func expiredRound() policy.Decision {
	return policy.Decision{Verdict: risk.Deny, Tier: risk.Execute, Blast: risk.BlastUnknown, Rule: "approval.expired",
		Category: risk.CatInput, Reason: "The approval this call answers is unknown, expired or was for a different call, so it is denied; call the tool again to be asked again."}
}

// restoreServerState rewrites a retried call as the server expects it:
// the server's own requestState and inputResponses from the first call,
// or neither.
func restoreServerState(m *message, tc toolCall, r *round) ([]byte, error) {
	params := make(map[string]json.RawMessage, len(tc.params))
	for k, v := range tc.params {
		params[k] = v
	}
	setOrDelete(params, "requestState", r.state)
	setOrDelete(params, "inputResponses", r.responses)
	fields := make(map[string]json.RawMessage, len(m.fields))
	for k, v := range m.fields {
		fields[k] = v
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	fields["params"] = raw
	return json.Marshal(fields)
}

func setOrDelete(m map[string]json.RawMessage, key string, v json.RawMessage) {
	if v == nil {
		delete(m, key)
	} else {
		m[key] = v
	}
}

// withAnswer makes the elicitor return a carried answer instead of asking.
func withAnswer(ctx context.Context, a carriedAnswer) context.Context {
	return context.WithValue(ctx, answerKey{}, a)
}
