package audit

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolguard/toolguard/call"
)

// MaxValueLen is the longest argument value kept in a summary, in bytes;
// longer values are cut at a character boundary and end in "…".
const MaxValueLen = 200

// pathKeys are argument names shown first, in this order.
var pathKeys = []string{"file_path", "path", "notebook_path", "url", "pattern"}

// Summarize renders a call's arguments as one short, redacted line: the
// shell command for shell calls; otherwise "key=value" pairs with path-like
// arguments (file_path, path, notebook_path, url, pattern) first and the
// rest sorted. Values under secret keys become [Mask], other values go
// through [RedactString] and are cut to [MaxValueLen].
func Summarize(c call.Call) string {
	if c.Command != "" {
		return cut(redactHead(c.Command))
	}
	// The keys and their values are kept on the stack for the few
	// arguments of an ordinary call, and the line built in one allocation:
	// joining "key=value" strings made one for each pair, two for the
	// keys' lists and one for the join.
	var keyBuf, valBuf [8]string
	keys := orderedKeys(c.Input, keyBuf[:0])
	vals := valBuf[:0]
	n := 0
	for _, k := range keys {
		v := summarizeValue(k, c.Input[k])
		vals = append(vals, v)
		n += len(k) + 1 + len(v) + 1
	}
	if len(keys) == 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(n - 1)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(vals[i])
	}
	return b.String()
}

// orderedKeys appends in's keys to dst: the path keys present, in
// pathKeys' order, then the others sorted.
func orderedKeys(in map[string]any, dst []string) []string {
	for _, k := range pathKeys {
		if _, ok := in[k]; ok {
			dst = append(dst, k)
		}
	}
	first := len(dst)
	for k := range in {
		if !isPathKey(k) {
			dst = append(dst, k)
		}
	}
	slices.Sort(dst[first:])
	return dst
}

func isPathKey(k string) bool {
	for _, p := range pathKeys {
		if p == k {
			return true
		}
	}
	return false
}

func summarizeValue(key string, v any) string {
	if IsSecretKey(key) {
		return Mask
	}
	if s, ok := v.(string); ok {
		return cut(redactHead(s))
	}
	b, err := json.Marshal(Redact(v))
	if err != nil {
		return "<unencodable>"
	}
	return cut(string(b))
}

// redactWindow is how much of a long value is redacted for a summary that
// keeps MaxValueLen bytes of it: enough context before the kept part for
// every secret form to be recognised, without redacting 60 KB to show 200
// bytes (it was a third of the CPU of refusing a hostile request).
const redactWindow = 4 << 10

// redactHead redacts the start of s that a summary can show.
func redactHead(s string) string {
	if len(s) <= redactWindow {
		return redactRepeated(s)
	}
	end := redactWindow
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return RedactString(s[:end]) + "…" // longer than MaxValueLen: cut adds its own mark
}

// cut shortens s to MaxValueLen bytes at a rune boundary, newlines shown as
// "⏎" so that the summary stays on one line.
func cut(s string) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if len(s) <= MaxValueLen {
		return s
	}
	end := MaxValueLen
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}
