package call_test

import (
	"strings"
	"testing"

	"github.com/toolguard/toolguard/call"
)

// TestLargeWrites: a write of a few MiB is judged like any other (it was
// refused as "malformed" over 1 MiB); past the limit the refusal names the
// argument and the limit.
func TestLargeWrites(t *testing.T) {
	tbl := call.Default()
	write := func(n int) error {
		_, err := tbl.Normalize(call.Request{Tool: "Write", Cwd: "/w", Workspace: "/w",
			Input: map[string]any{"file_path": "/w/big.json", "content": strings.Repeat("x", n)}})
		return err
	}
	if err := write(4 << 20); err != nil {
		t.Errorf("a 4 MiB write: %v", err)
	}
	err := write(call.MaxInputBytes + 1)
	if err == nil || !strings.Contains(err.Error(), "input.content is 8388609 bytes") || !strings.Contains(err.Error(), "8 MiB") {
		t.Errorf("a write over the limit: %v; want the argument and the limit named", err)
	}
}
