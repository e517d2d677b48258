package audit

import (
	"math"
	"strconv"
	"time"

	"github.com/toolguard/toolguard/internal/jsonquote"
)

// AppendJSON appends r encoded exactly as encoding/json's Marshal encodes
// it (field order, omitempty, HTML-safe string escaping, float format),
// without reflection: a hook process writes one record and should not pay
// for building json's type encoders.
func (r *Record) AppendJSON(b []byte) []byte {
	b = append(b, `{"time":`...)
	b = appendTime(b, r.Time)
	b = appendOptString(b, "agent", r.Agent)
	b = appendOptString(b, "session", r.Session)
	b = appendOptString(b, "sender", r.Sender)
	b = appendField(b, "tool", r.Tool)
	b = appendField(b, "kind", string(r.Kind))
	b = appendOptString(b, "args", r.Args)
	b = r.Verdict.AppendQuoted(append(b, `,"verdict":`...))
	b = r.Tier.AppendQuoted(append(b, `,"tier":`...))
	b = r.Blast.AppendQuoted(append(b, `,"blast_radius":`...))
	b = appendOptString(b, "category", string(r.Category))
	b = appendField(b, "rule", r.Rule)
	if r.Reason != "" {
		// A rule's text, the same call after call: quoted from jsonquote's
		// table of recent ones (the same bytes).
		b = append(b, `,"reason":`...)
		b = jsonquote.AppendRepeated(b, r.Reason)
	}
	b = appendOptString(b, "approval", r.Approval)
	b = appendOptString(b, "approval_scope", r.ApprovalScope)
	b = appendOptString(b, "approved_by", r.ApprovedBy)
	b = append(b, `,"latency_ms":`...)
	b = appendFloat(b, r.LatencyMS)
	if r.Unverifiable {
		b = append(b, `,"unverifiable":true`...)
	}
	if r.Contained {
		b = append(b, `,"contained":true`...)
	}
	if r.Policy != "" {
		b = append(b, `,"policy":`...) // the policy's hash, the same call after call
		b = jsonquote.AppendRepeated(b, r.Policy)
	}
	b = appendOptString(b, "replica", r.Replica)
	return append(b, '}')
}

func appendField(b []byte, key, v string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

func appendOptString(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	return appendField(b, key, v)
}

func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// appendFloat formats like encoding/json: shortest representation, 'f'
// unless the exponent is below -6 or at least 21, then 'e' with a
// two-digit exponent trimmed of a leading zero.
func appendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(b, '0') // json refuses these; latencies are never either
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendString quotes s as encoding/json does with HTML escaping on.
func appendString(b []byte, s string) []byte { return jsonquote.Append(b, s, true) }
