// Package server is toolguard's HTTP surface: the decision API
// (POST /v1/decide, POST /v1/authorize), the agents' HTTP hooks
// (POST /v1/hooks/{agent}), Server-Sent Events (GET /v1/events), the
// approval endpoints (GET /v1/approvals, POST /v1/approvals/{id}), the
// embedded approval page, Prometheus metrics and a health check.
//
// A [Server] is built from a compiled policy with [New] and served with
// net/http. Calls whose verdict is ask wait in a [Broker] until a person
// answers on the page, the timeout passes, the client goes away or the
// server shuts down; everything but an explicit approval ends in deny.
//
// Every deciding endpoint is bounded (see Options.DecideTimeout,
// MaxConcurrent, MaxHeavy, QueueWait): a call waits a short time for one
// of a few deciding slots — long shell commands have slots of their own —
// and is decided in a goroutine of its own; a call that gets no slot, or
// no decision before its deadline, is answered at once with a deny (a
// hook with the agent's blocking reply), so a flood of hostile requests
// costs bounded memory and ordinary calls keep being answered. Every
// decision is audited, the server's own denies included; a call whose
// record cannot be written is denied. Publishing an event costs the same
// whatever the number of SSE subscribers (see [Hub]).
//
// The security model (see docs/server.md): loopback binds by default;
// every non-loopback bind needs a bearer token (see [LoadOrCreateToken]);
// state-changing requests are protected against CSRF with
// http.CrossOriginProtection, and approving additionally needs a
// same-origin browser request or the token; on a bind without a token the
// Host header must name a loopback address (DNS rebinding); responses carry
// CSP, nosniff, frame-deny and referrer headers; request bodies are
// size-limited and strictly decoded; per-request policy overrides may only
// tighten the policy.
package server
