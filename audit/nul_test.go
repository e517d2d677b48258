package audit

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
)

// TestNULShown: a NUL byte in a shell command (which the analysis judges)
// is shown as "␀" in what the audit keeps and the approval page shows, so
// that a reader sees it and PostgreSQL, which refuses NUL in text and
// jsonb, can store the record.
func TestNULShown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"echo ok\x00rm -rf ~", "echo ok\u2400rm -rf ~"},
		{"\x00", "\u2400"},
		{"ls", "ls"},
	} {
		if got := RedactString(c.in); got != c.want {
			t.Errorf("RedactString(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	got := Summarize(call.Call{Kind: call.Shell, Command: "ls\x00; rm -rf /"})
	if diff := cmp.Diff("ls\u2400; rm -rf /", got); diff != "" {
		t.Errorf("Summarize (-want +got):\n%s", diff)
	}
	b, err := json.Marshal(Redact(map[string]any{"command": "a\x00b"}))
	if err != nil || strings.Contains(string(b), `\u0000`) {
		t.Errorf("Redact kept a NUL: %s %v", b, err)
	}
}
