package audit

import (
	"hash/maphash"
	"sync/atomic"
)

// A decision's reason is, most of the time, one of the rules' and modes'
// own texts, the same for call after call, and redacting it was a tenth of
// what recording a decision cost in toolguard serve. redactReason keeps the
// redacted form of recent reasons in a small table, direct-mapped by a hash
// of the text: a reason found there with the very same text is answered
// from it, anything else is redacted as RedactString does and takes the
// slot. Redaction is a function of the text alone, so an answer from the
// table is the answer RedactString gives. The table holds at most
// reasonSlots texts of at most maxCachedReason bytes each, and only within
// this process (texts that held a secret included, as the process holds
// them anyway while it decides).

const (
	reasonSlots     = 256
	maxCachedReason = 1 << 10
)

type reasonEntry struct{ text, redacted string }

var (
	reasonSeed  = maphash.MakeSeed()
	reasonTable [reasonSlots]atomic.Pointer[reasonEntry]
)

// redactReason is RedactString(s), remembered for short texts.
func redactReason(s string) string {
	if len(s) > maxCachedReason {
		return RedactString(s)
	}
	slot := &reasonTable[maphash.String(reasonSeed, s)%reasonSlots]
	if e := slot.Load(); e != nil && e.text == s {
		return e.redacted
	}
	r := RedactString(s)
	slot.Store(&reasonEntry{text: s, redacted: r})
	return r
}
