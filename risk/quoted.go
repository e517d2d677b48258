package risk

import "github.com/toolguard/toolguard/internal/jsonquote"

// The names of the verdicts, tiers and blast radii as JSON strings, for
// the encoders written by hand (serve's replies, the audit records), which
// append one of each several times a decision: copying the quoted name is
// a few instructions where quoting it again scanned every byte for
// escapes. TestAppendQuoted holds each to json.Marshal of the name.
var (
	quotedVerdicts = [...]string{`"allow"`, `"ask"`, `"deny"`}
	quotedTiers    = [...]string{`"read"`, `"write"`, `"execute"`, `"destructive"`}
	quotedBlasts   = [...]string{`"none"`, `"low"`, `"medium"`, `"high"`, `"critical"`, `"unknown"`}
)

// AppendQuoted appends v's name as a JSON string, as json.Marshal writes
// v.String() (a value without a name is quoted as jsonquote quotes it).
func (v Verdict) AppendQuoted(b []byte) []byte {
	if int(v) < len(quotedVerdicts) {
		return append(b, quotedVerdicts[v]...)
	}
	return jsonquote.Append(b, v.String(), true)
}

// AppendQuoted appends t's name as a JSON string (see Verdict.AppendQuoted).
func (t Tier) AppendQuoted(b []byte) []byte {
	if int(t) < len(quotedTiers) {
		return append(b, quotedTiers[t]...)
	}
	return jsonquote.Append(b, t.String(), true)
}

// AppendQuoted appends x's name as a JSON string (see Verdict.AppendQuoted).
func (x Blast) AppendQuoted(b []byte) []byte {
	if int(x) < len(quotedBlasts) {
		return append(b, quotedBlasts[x]...)
	}
	return jsonquote.Append(b, x.String(), true)
}
