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
// collector — with the policy cache (whose guards keep their audit log
// open, once) and without it (a guard per call, closed after it).
func TestRelayedCallsKeepNoDescriptors(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts descriptors through /proc")
	}
	for _, cached := range []bool{true, false} {
		d := hermeticEnv(t)
		compiled = nil
		if cached {
			withCache(t)
		}
		deny := []byte(`{"session_id":"s","cwd":"` + d.proj + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`)
		allow := []byte(`{"session_id":"s","cwd":"` + d.proj + `","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"` + d.proj + `/README.md"}}`)
		args := []string{"hook", "claude-code"}
		relayed(args, deny) // warm up: the policy cache, the state directory
		relayed(args, allow)
		// Files other tests left to the garbage collector are closed by
		// their finalizers now, not while the calls below run.
		runtime.GC()
		runtime.GC()
		before := openDescriptors(t)
		for range 25 {
			if got := relayed(args, deny); got.Code != 0 || got.Stdout == "" {
				t.Fatalf("deny call: %+v", got)
			}
			relayed(args, allow)
		}
		if after := openDescriptors(t); after != before {
			t.Errorf("cached %v: 50 relayed calls left %d descriptors open (%d before, %d after)", cached, after-before, before, after)
		}
	}
}
