package audit

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// Commands and the string arguments of tool calls repeat too (an agent
// runs git status again, reads the same files), and redacting them was
// most of what building a record cost after the reason table. Unlike a
// rule's reason they may hold secrets, which no table of this process
// should keep after its call; so the clean table keeps only texts that
// redaction leaves exactly as they are. A text found there with the very
// same bytes is answered with itself, which is what RedactString gives
// for it (redaction is a function of the text alone); any other text is
// redacted, and takes its slot only when redaction changed nothing. What
// the table holds is therefore text the audit log holds verbatim anyway.
// Each kept text is a copy, so that it keeps no request's buffer alive.

const (
	cleanSlots     = 256
	maxCachedClean = 1 << 10
)

var (
	cleanSeed  = maphash.MakeSeed()
	cleanTable [cleanSlots]atomic.Pointer[string]
)

// redactRepeated is RedactString(s), answered from the clean table for
// short texts it has seen unchanged by redaction.
func redactRepeated(s string) string {
	if len(s) > maxCachedClean {
		return RedactString(s)
	}
	slot := &cleanTable[maphash.String(cleanSeed, s)%cleanSlots]
	if p := slot.Load(); p != nil && *p == s {
		return s
	}
	r := RedactString(s)
	if r == s {
		kept := strings.Clone(s)
		slot.Store(&kept)
	}
	return r
}
