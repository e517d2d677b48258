package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// stdinMarker is what the model types into a running session: a word, not
// a command, so nothing runs whatever happens to it.
const stdinMarker = "probe-4711"

// TestCodexWriteStdin: Codex's unified exec lets the model type into a
// session that exec_command started (write_stdin). The hook is asked about
// the exec_command; this records whether Codex asks it again for the
// input. Codex 0.171.0 does not (openai/codex#46372): the input reaches
// the process unseen, so a session toolguard allowed (a bare interpreter
// in trusted or full mode, a pager in any mode) could be handed any
// command. The hook's payload names the exec_command Bash with only its
// command, so toolguard cannot tell a terminal session from a plain run. Turning the
// unified_exec feature off does not take write_stdin away either.
func TestCodexWriteStdin(t *testing.T) {
	t.Run("unified exec", func(t *testing.T) {
		r := newRun(t, "codex")
		r.codexSetup(t)
		r.toolguardCmd("install", "codex", "--program", r.bin, "--trust")
		sc := scenario{API: "openai", Tool: "exec_command", Final: "done",
			Input: map[string]any{"cmd": "cat", "tty": true, "yield_time_ms": 500},
			Then: &followUp{Tool: "write_stdin",
				Input: map[string]any{"session_id": "$SESSION", "chars": stdinMarker + "\n", "yield_time_ms": 500}}}
		res := r.session(sc, 90*time.Second, codexEnv(), "exec", "--json", "--skip-git-repo-check", "-s", "danger-full-access", "do the task")
		if res.timedOut {
			t.Fatalf("the session hung:\n%s", res.describe())
		}
		var results []string
		for _, e := range res.log {
			if e.Got {
				results = append(results, e.Result)
			}
		}
		if len(results) < 2 || !sessionIDRE.MatchString(results[0]) {
			t.Fatalf("cat did not keep running in a session for write_stdin (results %q):\n%s", results, res.describe())
		}
		second := results[1]
		// toolguard's audit log holds every call its hook was asked about:
		// the exec_command alone (Codex names it Bash, with only the
		// command; no tty), nothing for the input typed into it.
		audit, err := os.ReadFile(filepath.Join(r.home, ".local", "state", "toolguard", "audit.jsonl"))
		if err != nil {
			t.Fatalf("toolguard's audit log: %v", err)
		}
		if lines := strings.Split(strings.TrimSpace(string(audit)), "\n"); len(lines) != 1 || !strings.Contains(lines[0], `"tool":"Bash"`) {
			t.Errorf("the hook was asked about other calls than the exec_command; update docs/agents.md (known edges):\n%s", audit)
		}
		switch {
		case strings.Contains(second, "toolguard"):
			t.Errorf("Codex now runs the PreToolUse hook for write_stdin (toolguard answered %q): update docs/agents.md (known edges) and check toolguard's verdict on it", second)
		case !strings.Contains(second, stdinMarker):
			t.Errorf("the input did not reach the session, and not through toolguard either: %q\n%s", second, res.describe())
		}
	})
	t.Run("unified exec off", func(t *testing.T) {
		r := newRun(t, "codex")
		r.codexSetup(t)
		r.toolguardCmd("install", "codex", "--program", r.bin, "--trust")
		res := r.session(scenario{API: "openai", Tool: "none", Final: "done"}, 90*time.Second, codexEnv(),
			"exec", "--json", "--skip-git-repo-check", "--disable", "unified_exec", "-m", "gpt-5", "do the task")
		if res.timedOut || len(res.log) == 0 {
			t.Fatalf("the session hung or asked nothing:\n%s", res.describe())
		}
		// Codex 0.171.0 keeps exec_command and write_stdin whatever the
		// feature says (its model catalog picks the shell tool), so no
		// setting takes write_stdin away; the day one does, docs/agents.md
		// should recommend it.
		if tools := res.log[0].Tools; !slices.Contains(tools, "write_stdin") {
			t.Errorf("with --disable unified_exec Codex no longer offers write_stdin (tools %v): recommend it in docs/agents.md (known edges)", tools)
		}
	})
}
