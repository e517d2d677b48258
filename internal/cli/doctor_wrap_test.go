package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolguard/toolguard/install"
	"github.com/toolguard/toolguard/policy"
)

func TestWrapState(t *testing.T) {
	on := policy.Sandbox{Wrap: "execute"}
	hookCmd := "toolguard hook claude-code"
	dir := t.TempDir()
	newPlugin, oldPlugin := filepath.Join(dir, "new.js"), filepath.Join(dir, "old.js")
	if err := os.WriteFile(newPlugin, []byte("      tool_input: output.args,\n      args_rewritable: true,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(oldPlugin, []byte("      tool_input: output.args,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		cfg   policy.Sandbox
		agent string
		cmd   string
		file  string
		abi   int
		want  string
	}{
		{"qwen code", on, "qwen-code", "toolguard hook qwen-code", "", 7, "NOT possible: Qwen Code (checked with 0.24.4) does not apply PreToolUse's updatedInput, so toolguard does not rewrite its calls; calls run uncontained (see docs/agents.md)"},
		{"droid", on, "droid", "toolguard hook droid", "", 7, `in force for "execute" calls, through hookSpecificOutput.updatedInput (PreToolUse)`},
		{"cline", on, "cline", "toolguard hook cline", "", 7, `in force for "execute" calls, through overrideInput (tool_call)`},
		{"opencode", on, "opencode", "toolguard hook opencode", newPlugin, 7, `in force for "execute" calls, through the plugin's output.args (tool.execute.before)`},
		{"kilo, an earlier plugin", on, "kilo", "toolguard hook kilo", oldPlugin, 7, "NOT in force: the installed plugin was written by an earlier toolguard and does not apply a rewritten call; run toolguard install kilo again"},
		{"opencode, an earlier plugin forwarding", on, "opencode", "toolguard hook opencode --server http://127.0.0.1:7878", oldPlugin, 7, "NOT in force: the installed plugin was written by an earlier toolguard and does not apply a rewritten call; run toolguard install opencode again"},
		{"off", policy.Sandbox{}, "claude-code", hookCmd, "", 7, `off ([sandbox] wrap = "off"): calls run as the agent starts them`},
		{"in force", on, "claude-code", hookCmd, "", 7, `in force for "execute" calls, through hookSpecificOutput.updatedInput (PreToolUse, PermissionRequest)`},
		{"http hook", on, "claude-code", "http://127.0.0.1:7878/v1/hooks/claude-code", "", 7, "decided by the server: toolguard serve rewrites allowed calls through hookSpecificOutput.updatedInput (PreToolUse, PermissionRequest) when [sandbox] wrap is on in its policy"},
		{"http hook, local wrap off", policy.Sandbox{}, "claude-code", "http://127.0.0.1:7878/v1/hooks/claude-code", "", 7, "decided by the server: toolguard serve rewrites allowed calls through hookSpecificOutput.updatedInput (PreToolUse, PermissionRequest) when [sandbox] wrap is on in its policy"},
		{"defer allow", on, "codex", "toolguard hook codex --defer-allow", "", 7, "NOT in force: --defer-allow leaves allowed calls to the agent, uncontained"},
		{"an agent without a rewrite field", on, "some-agent", "toolguard hook some-agent", "", 7, "NOT possible: its hook cannot rewrite a call; calls run uncontained (see docs/sandbox.md)"},
		{"no Landlock", on, "codex", "toolguard hook codex", "", 0, "NOT in force: this kernel lacks Landlock, so calls run uncontained; [sandbox] require = true refuses them instead"},
		{"no Landlock, required", policy.Sandbox{Wrap: "all", Require: true}, "codex", "toolguard hook codex", "", 0, "refusing: this kernel lacks Landlock and [sandbox] require is set, so contained calls do not run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := wrapState(c.cfg, install.AgentStatus{Agent: c.agent, Command: c.cmd, File: c.file}, c.abi); got != c.want {
				t.Errorf("wrapState = %q\nwant          %q", got, c.want)
			}
		})
	}
}
