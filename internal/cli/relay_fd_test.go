package cli

import (
	"os"
	"runtime"
	"testing"
)

// openDescriptors counts this process's open file descriptors.
func openDescriptors(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count descriptors: %v", err)
	}
	return len(fds)
}

// A daemon runs thousands of calls: each must close what it opened (the
// audit log and its lock, the events log), not leave it to the garbage
// collector.
func TestRelayedCallsKeepNoDescriptors(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts descriptors through /proc")
	}
	d := hermeticEnv(t)
	withCache(t)
	deny := []byte(`{"session_id":"s","cwd":"` + d.proj + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
	allow := []byte(`{"session_id":"s","cwd":"` + d.proj + `","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"` + d.proj + `/README.md"}}`)
	args := []string{"hook", "claude-code"}
	relayed(args, deny) // warm up: the policy cache, the state directory
	relayed(args, allow)
	before := openDescriptors(t)
	for range 25 {
		if got := relayed(args, deny); got.Code != 0 || got.Stdout == "" {
			t.Fatalf("deny call: %+v", got)
		}
		relayed(args, allow)
	}
	if after := openDescriptors(t); after != before {
		t.Errorf("50 relayed calls left %d descriptors open (%d before, %d after)", after-before, before, after)
	}
}
