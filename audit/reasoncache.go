package audit

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// A decision's reason is, most of the time, one of the rules' and modes'
// own texts, the same for call after call, and redacting it was a tenth of
// what recording a decision cost in toolguard serve; commands and the
// string arguments of tool calls repeat too (an agent runs git status
// again, reads the same files). A redactTable keeps the redacted form of
// recent texts in a small table, direct-mapped by a hash of the text: a
// text found there with the very same bytes is answered from it, anything
// else is redacted as RedactString does and takes the slot. Redaction is a
// function of the text alone, so an answer from the table is the answer
// RedactString gives. A table holds at most redactSlots texts of at most
// maxRedactCached bytes each, each a copy (no request's buffer is kept
// alive), and only within this process.
//
// Reasons may be kept whatever redaction did to them (the process holds
// them anyway while it decides). Commands and arguments may hold secrets,
// which no table should keep after its call: their table keeps only texts
// redaction leaves exactly as they are, which the audit log holds verbatim
// anyway.

const (
	redactSlots     = 256
	maxRedactCached = 1 << 10
)

type redactEntry struct{ text, redacted string }

// redactTable is one table of recently redacted texts.
type redactTable struct {
	seed  maphash.Seed
	slots [redactSlots]atomic.Pointer[redactEntry]
	// onlyClean keeps only texts redaction leaves unchanged.
	onlyClean bool
}

var (
	reasons = &redactTable{seed: maphash.MakeSeed()}
	clean   = &redactTable{seed: maphash.MakeSeed(), onlyClean: true}
)

// redactReason is RedactString(s), remembered for short reasons.
func redactReason(s string) string { return reasons.redact(s) }

// RedactReason is RedactString for a decision's reason, answered from the
// table of recent reasons: a hook process that denies a call redacts its
// reason for the audit record and again for the "blocked" event, and the
// second redaction cost it ~10 K instructions.
func RedactReason(s string) string { return redactReason(s) }

// redactRepeated is RedactString(s), answered from the clean table for
// short texts it has seen unchanged by redaction.
func redactRepeated(s string) string { return clean.redact(s) }

// redact is RedactString(s), answered from the table when s is there.
func (t *redactTable) redact(s string) string {
	if len(s) > maxRedactCached {
		return RedactString(s)
	}
	slot := t.slot(s)
	if e := slot.Load(); e != nil && e.text == s {
		return e.redacted
	}
	r := RedactString(s)
	if r == s {
		kept := strings.Clone(s)
		slot.Store(&redactEntry{text: kept, redacted: kept})
	} else if !t.onlyClean {
		slot.Store(&redactEntry{text: strings.Clone(s), redacted: r})
	}
	return r
}

// slot is the table's slot for s.
func (t *redactTable) slot(s string) *atomic.Pointer[redactEntry] {
	return &t.slots[maphash.String(t.seed, s)%redactSlots]
}
