package server

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/toolguard/toolguard/internal/jsonquote"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// A decision is the answer of every deciding request, so it is encoded by
// hand, exactly as encoding/json's Marshal encodes a policy.Decision (field
// order, omitempty, HTML-safe escaping), into a pooled buffer: reflection
// and a fresh buffer per answer were a measurable part of serve's CPU per
// decision.

var replyBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// writeDecision answers d as JSON with status 200.
func writeDecision(w http.ResponseWriter, d policy.Decision) {
	bp := replyBufs.Get().(*[]byte)
	body := append(appendDecision((*bp)[:0], &d), '\n')
	w.Header()["Content-Type"] = jsonContentType[:1:1] // Set, without canonicalising the name or allocating the value
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	if cap(body) <= 64<<10 {
		*bp = body[:0]
		replyBufs.Put(bp)
	}
}

// jsonContentType is the Content-Type of a decision, shared by every reply;
// with no spare capacity, an Add elsewhere copies it rather than writing
// into it (as securityHeaders).
var jsonContentType = []string{"application/json"}

// writeDecisionFinal writes d as writeDecision does, but whole and at once
// while the handler still runs (see decideInline): with its length, flushed
// to the client, and with "Connection: close", since the connection stays
// busy until the handler returns.
func writeDecisionFinal(w http.ResponseWriter, d policy.Decision) {
	body := append(appendDecision(nil, &d), '\n')
	writeFinal(w, body)
}

// writeFinal writes a 200 JSON reply whole, flushed, and closes the
// connection after it.
func writeFinal(w http.ResponseWriter, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Connection", "close")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	_ = http.NewResponseController(w).Flush()
}

// appendDecision appends d encoded as json.Marshal encodes it.
func appendDecision(b []byte, d *policy.Decision) []byte {
	b = append(b, `{"verdict":`...)
	b = d.Verdict.AppendQuoted(b)
	b = appendKey(b, "tier")
	b = d.Tier.AppendQuoted(b)
	b = appendKey(b, "blast_radius")
	b = d.Blast.AppendQuoted(b)
	if d.Category != "" {
		b = appendKey(b, "category")
		b = jquote(b, string(d.Category))
	}
	b = appendKey(b, "rule")
	b = jquote(b, d.Rule)
	b = appendKey(b, "reason")
	b = jquoteRepeated(b, d.Reason)
	if d.Suggestion != "" {
		b = appendKey(b, "suggestion")
		b = jquoteRepeated(b, d.Suggestion)
	}
	if len(d.Findings) > 0 {
		b = appendKey(b, "findings")
		b = append(b, '[')
		for i := range d.Findings {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFinding(b, &d.Findings[i])
		}
		b = append(b, ']')
	}
	if d.Unverifiable {
		b = append(b, `,"unverifiable":true`...)
	}
	if d.Mode != "" {
		b = appendKey(b, "mode")
		b = jquote(b, d.Mode)
	}
	if d.Profile != "" {
		b = appendKey(b, "profile")
		b = jquote(b, d.Profile)
	}
	if d.Contained {
		b = append(b, `,"contained":true`...)
	}
	return append(b, '}')
}

func appendFinding(b []byte, f *risk.Finding) []byte {
	b = append(b, `{"rule":`...)
	b = jquote(b, f.Rule)
	if f.Category != "" {
		b = appendKey(b, "category")
		b = jquote(b, string(f.Category))
	}
	b = appendKey(b, "tier")
	b = f.Tier.AppendQuoted(b)
	b = appendKey(b, "blast_radius")
	b = f.Blast.AppendQuoted(b)
	b = appendKey(b, "floor")
	b = f.Verdict.AppendQuoted(b)
	b = appendKey(b, "reason")
	b = jquoteRepeated(b, f.Reason)
	if f.Suggestion != "" {
		b = appendKey(b, "suggestion")
		b = jquoteRepeated(b, f.Suggestion)
	}
	b = append(b, `,"span":{"start":`...)
	b = strconv.AppendInt(b, int64(f.Span.Start), 10)
	b = append(b, `,"end":`...)
	b = strconv.AppendInt(b, int64(f.Span.End), 10)
	b = append(b, '}')
	if f.Subject != "" {
		b = appendKey(b, "subject")
		b = jquote(b, f.Subject)
	}
	if f.Unverifiable {
		b = append(b, `,"unverifiable":true`...)
	}
	return append(b, '}')
}

func appendKey(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func jquote(b []byte, s string) []byte { return jsonquote.Append(b, s, true) }

// jquoteRepeated quotes a rule's text (a reason, a suggestion), which
// repeats call after call, from jsonquote's table of recent ones: the
// same bytes as jquote.
func jquoteRepeated(b []byte, s string) []byte { return jsonquote.AppendRepeated(b, s) }
