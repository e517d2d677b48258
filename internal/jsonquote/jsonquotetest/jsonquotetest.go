// Package jsonquotetest holds the strings that tests of JSON string
// quoting share: the jsonquote package's own tests, and the tests of the
// hand-written encoders built on it, which compare them with encoding/json.
package jsonquotetest

// Samples are strings that exercise every escaping rule: quotes and
// backslashes, control bytes, HTML characters, the JavaScript line
// separators, invalid and truncated UTF-8, and ordinary text.
var Samples = []string{
	"",
	"allow",
	`say "hi"`,
	`back\slash \\ \"`,
	"tab\there\nnew\rret\bbs\fff",
	"\x00\x01\x07\x0b\x0e\x1b\x1f\x7f",
	"<script>alert('x')</script> & &amp;",
	"line\u2028sep\u2029para \u2027\u202a",
	"bad\xffutf8\xc3 cut\xe2\x80 and \xed\xa0\x80 surrogate \xf8\x88\x80\x80\x80",
	"\xe2\x80",
	"héllo 世界 🎉 …",
	"\ufffd literal",
	"\u00a0\u0085\ufeff\U0010ffff",
	"toolguard blocked this call: rm -rf / (rule fs.destructive). Instead: use trash.",
}
