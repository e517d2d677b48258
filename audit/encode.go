package audit

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
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
	b = appendField(b, "verdict", r.Verdict.String())
	b = appendField(b, "tier", r.Tier.String())
	b = appendField(b, "blast_radius", r.Blast.String())
	b = appendOptString(b, "category", string(r.Category))
	b = appendField(b, "rule", r.Rule)
	b = appendOptString(b, "reason", r.Reason)
	b = appendOptString(b, "approval", r.Approval)
	b = appendOptString(b, "approval_scope", r.ApprovalScope)
	b = appendOptString(b, "approved_by", r.ApprovedBy)
	b = append(b, `,"latency_ms":`...)
	b = appendFloat(b, r.LatencyMS)
	if r.Unverifiable {
		b = append(b, `,"unverifiable":true`...)
	}
	b = appendOptString(b, "policy", r.Policy)
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

const hexDigits = "0123456789abcdef"

// appendString quotes s as encoding/json does with HTML escaping on:
// control characters, quotes and backslashes escaped, <, > and & as
// \u003c, \u003e and \u0026, invalid UTF-8 as \ufffd, and U+2028 and
// U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
