// Package audit keeps toolguard's decision receipts: one JSON line per
// decision in $XDG_STATE_HOME/toolguard/audit.jsonl, appended safely by many
// processes at once and rotated by size, with secrets redacted by key name
// and by value shape before anything is written.
//
// [Writer] appends records; [Query] and [Follow] read them back (rotated
// files included); [Redact], [RedactString] and [Summarize] turn tool
// arguments into a short text that is safe to keep.
package audit
