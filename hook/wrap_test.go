package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/internal/jsonquote/jsonquotetest"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

var testWrapper = &Wrapper{Program: "/opt/tg bin/toolguard", Args: []string{"--config", "/etc/tg.toml"}}

func TestWrapperCommand(t *testing.T) {
	tests := []struct {
		name, command, profile, want string
	}{
		{"plain", "make test", "",
			`'/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --workspace /ws -- bash -c 'make test'`},
		{"profile", "go build ./...", "ci",
			`'/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --profile ci --workspace /ws -- bash -c 'go build ./...'`},
		{"quotes and newline", "echo 'a b' \"$HOME\"\nls", "",
			`'/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --workspace /ws -- bash -c $'echo \'a b\' "$HOME"\nls'`},
		{"leading cd stays in the agent's shell", "cd pkg/a && go test ./... && echo ok", "",
			`cd pkg/a && '/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --workspace /ws -- bash -c 'go test ./... && echo ok'`},
		{"quoted cd target", `cd 'my dir' && make`, "",
			`cd 'my dir' && '/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --workspace /ws -- bash -c make`},
		{"cd with an expansion runs inside", `cd "$D" && make`, "",
			`'/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --workspace /ws -- bash -c 'cd "$D" && make'`},
		{"cd in the background runs inside", `cd x && make &`, "",
			`'/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --workspace /ws -- bash -c 'cd x && make &'`},
		{"cd then or runs inside", `cd x && make || echo no`, "",
			`'/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --workspace /ws -- bash -c 'cd x && make || echo no'`},
		{"cd option runs inside", `cd -P x && make`, "",
			`'/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --workspace /ws -- bash -c 'cd -P x && make'`},
		{"two statements run inside", "cd x && make; ls", "",
			`'/opt/tg bin/toolguard' exec --wrapped --config /etc/tg.toml --workspace /ws -- bash -c 'cd x && make; ls'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := testWrapper.Command(tt.command, "/ws", tt.profile)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Command(%q)\n got %s\nwant %s", tt.command, got, tt.want)
			}
			checkRoundTrip(t, tt.command, "/ws", tt.profile, got)
		})
	}
	if _, err := testWrapper.Command("a\x00b", "/ws", ""); err == nil {
		t.Error("a command with a NUL byte was wrapped")
	}
}

// FuzzWrapperCommand: whatever the command, the wrapped line parses as
// bash into toolguard exec running exactly that command (after a cd the
// agent's shell makes itself): the quoting survives any text.
func FuzzWrapperCommand(f *testing.F) {
	for _, s := range jsonquotetest.Samples {
		f.Add(s, "/w s", "")
	}
	for _, s := range []string{"cd a && b", "cd 'x y' && rm -rf \"$z\"", "$'\\x00'", "a\nb\r\n", "\xff\xfe", "'\"'\"'"} {
		f.Add(s, "/ws", "p")
	}
	f.Fuzz(func(t *testing.T, command, workspace, profile string) {
		got, err := testWrapper.Command(command, workspace, profile)
		if strings.ContainsRune(command+workspace+profile, 0) {
			if err == nil {
				t.Fatalf("Command with a NUL byte = %q, want an error", got)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		checkRoundTrip(t, command, workspace, profile, got)
	})
}

// checkRoundTrip parses line with the shell parser and checks it runs
// toolguard exec --wrapped with command (or its part after a leading cd).
func checkRoundTrip(t *testing.T, command, workspace, profile, line string) {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) != 1 {
		t.Fatalf("the wrapped line %q does not parse as one statement: %v", line, err)
	}
	st := f.Stmts[0]
	prefix, rest := splitLeadingCd(command)
	if prefix != "" {
		bin, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok || bin.Op != syntax.AndStmt {
			t.Fatalf("%q: the cd is not joined with &&", line)
		}
		if got := line[:bin.Y.Pos().Offset()]; got != prefix {
			t.Fatalf("%q: prefix %q, want %q", line, got, prefix)
		}
		st = bin.Y
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		t.Fatalf("%q is not a simple command", line)
	}
	var argv []string
	for _, w := range ce.Args {
		s, err := expand.Literal(nil, w)
		if err != nil {
			t.Fatalf("%q: word %v does not expand: %v", line, w, err)
		}
		argv = append(argv, s)
	}
	want := append([]string{testWrapper.Program, "exec", "--wrapped"}, testWrapper.Args...)
	if profile != "" {
		want = append(want, "--profile", profile)
	}
	want = append(want, "--workspace", workspace, "--", "bash", "-c", rest)
	if diff := cmp.Diff(want, argv); diff != "" {
		t.Fatalf("%q runs (-want +got):\n%s", line, diff)
	}
}

// containedDecider allows every call, contained when the call is
// containable, as [sandbox] wrap = "all" does.
type containedDecider struct{ seen []bool }

func (d *containedDecider) Decide(_ context.Context, c call.Call) policy.Decision {
	d.seen = append(d.seen, c.Containable)
	return policy.Decision{Verdict: risk.Allow, Tier: risk.Execute, Rule: "mode.trusted", Contained: c.Containable}
}

// TestContainedReplies: a Contained allow is answered, in every agent whose
// reply can rewrite a call, with the input to run instead — the command
// replaced, the other arguments as sent — and elsewhere the call is not
// offered for containment at all.
func TestContainedReplies(t *testing.T) {
	const reason = "toolguard allowed this call (rule mode.trusted) to run contained: " + ContainedText
	wrapped := func(cmd string) string {
		line, err := testWrapper.Command(cmd, "/ws", "")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(line)
		return string(b)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	tests := []struct {
		agent, payload string
		containable    bool
		want           string
	}{
		{ClaudeCode, `{"hook_event_name":"PreToolUse","cwd":"/ws/sub","tool_name":"Bash","tool_input":{"command":"make test","description":"run the tests","timeout":120000}}`, true,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":` + q(reason) + `,"updatedInput":{"command":` + wrapped("make test") + `,"description":"run the tests","timeout":120000}}}`},
		{ClaudeCode, `{"hook_event_name":"PermissionRequest","cwd":"/ws","tool_name":"Bash","tool_input":{"command":"make test"}}`, true,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":` + wrapped("make test") + `}}}}`},
		{ClaudeCode, `{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Write","tool_input":{"file_path":"/ws/a","content":"x"}}`, false,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"toolguard allowed this call (rule mode.trusted)."}}`},
		{Codex, `{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Bash","tool_input":{"command":"make test"}}`, true,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":` + q(reason) + `,"updatedInput":{"command":` + wrapped("make test") + `}}}`},
		{Codex, `{"hook_event_name":"PermissionRequest","cwd":"/ws","tool_name":"Bash","tool_input":{"command":"make test"}}`, false,
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{GeminiCLI, `{"hook_event_name":"BeforeTool","cwd":"/ws","tool_name":"run_shell_command","tool_input":{"command":"make test","dir_path":"sub","description":"d"}}`, true,
			`{"decision":"allow","reason":` + q(reason) + `,"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":` + wrapped("make test") + `,"description":"d","dir_path":"sub"}}}`},
		{Cursor, `{"hook_event_name":"preToolUse","cwd":"/ws","workspace_roots":["/ws"],"tool_name":"Shell","tool_input":{"command":"make test","working_directory":"/ws"}}`, true,
			`{"permission":"allow","agent_message":` + q(reason) + `,"updated_input":{"command":` + wrapped("make test") + `,"working_directory":"/ws"}}`},
		{Cursor, `{"hook_event_name":"beforeShellExecution","cwd":"/ws","workspace_roots":["/ws"],"command":"make test"}`, false,
			`{"permission":"allow"}`},
		{DockerAgent, `{"hook_event_name":"pre_tool_use","cwd":"/ws","tool_name":"shell","tool_input":{"cmd":"make test","cwd":"."}}`, true,
			`{"hook_specific_output":{"hook_event_name":"pre_tool_use","permission_decision":"allow","permission_decision_reason":` + q(reason) + `,"updated_input":{"cmd":` + wrapped("make test") + `,"cwd":"."}}}`},
		{Copilot, `{"sessionId":"s","timestamp":1,"cwd":"/ws","toolName":"bash","toolArgs":{"command":"make test","description":"run the tests"}}`, true,
			`{"permissionDecision":"allow","permissionDecisionReason":` + q(reason) + `,"modifiedArgs":{"command":` + wrapped("make test") + `,"description":"run the tests"}}`},
		{Copilot, `{"sessionId":"s","timestamp":1,"cwd":"/ws","toolName":"bash","toolArgs":"{\"command\":\"make test\"}"}`, false,
			`{"permissionDecision":"allow","permissionDecisionReason":"toolguard allowed this call (rule mode.trusted)."}`},
		{OpenCode, `{"hook_event_name":"tool.execute.before","session_id":"s","cwd":"/ws","tool_name":"bash","tool_input":{"command":"make test","description":"run the tests"},"args_rewritable":true}`, true,
			`{"decision":"allow","reason":` + q(reason) + `,"args":{"command":` + wrapped("make test") + `,"description":"run the tests"}}`},
		{Kilo, `{"hook_event_name":"tool.execute.before","session_id":"s","cwd":"/ws","tool_name":"bash","tool_input":{"command":"make test","timeout":5000},"args_rewritable":true}`, true,
			`{"decision":"allow","reason":` + q(reason) + `,"args":{"command":` + wrapped("make test") + `,"timeout":5000}}`},
		{Cline, `{"hookName":"tool_call","taskId":"t","workspaceRoots":["/ws"],"tool_call":{"id":"c","name":"run_commands","input":{"commands":["make test","go vet ./..."],"timeout":30}}}`, true,
			`{"cancel":false,"overrideInput":{"commands":[` + wrapped("make test") + `,` + wrapped("go vet ./...") + `],"timeout":30}}`},
		{Cline, `{"hookName":"tool_call","taskId":"t","workspaceRoots":["/ws"],"tool_call":{"id":"c","name":"run_commands","input":[{"command":"ls","args":["-l","a b"]},"make"]}}`, true,
			`{"cancel":false,"overrideInput":[` + wrapped("ls -l 'a b'") + `,` + wrapped("make") + `]}`},
		{Cline, `{"hookName":"tool_call","taskId":"t","workspaceRoots":["/ws"],"tool_call":{"id":"c","name":"run_commands","input":"make test"}}`, true,
			`{"cancel":false,"overrideInput":` + wrapped("make test") + `}`},
		{Droid, `{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Execute","tool_input":{"command":"make test","riskLevel":"low","riskLevelReason":"r"}}`, true,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":` + q(reason) + `,"updatedInput":{"command":` + wrapped("make test") + `,"riskLevel":"low","riskLevelReason":"r"}}}`},
		// Qwen Code 0.24.4 does not apply PreToolUse's updatedInput.
		{QwenCode, `{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"run_shell_command","tool_input":{"command":"make test"}}`, false,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"toolguard allowed this call (rule mode.trusted)."}}`},
		// The VS Code extension's PreToolUse has no overrideInput here.
		{Cline, `{"hookName":"PreToolUse","taskId":"t","workspaceRoots":["/ws"],"preToolUse":{"toolName":"execute_command","parameters":{"command":"make test"}}}`, false,
			`{"cancel":false}`},
		// A plugin written by an earlier install does not apply "args": its
		// calls are not offered for containment.
		{OpenCode, `{"hook_event_name":"tool.execute.before","session_id":"s","cwd":"/ws","tool_name":"bash","tool_input":{"command":"make test"}}`, false,
			`{"decision":"allow"}`},
		{OpenCode, `{"hook_event_name":"tool.execute.before","session_id":"s","cwd":"/ws","tool_name":"bash","tool_input":{"command":"make test"},"args_rewritable":"yes"}`, false,
			`{"decision":"allow"}`},
		{DockerAgent, `{"hook_event_name":"tool_guard","cwd":"/ws","tool_name":"shell","tool_input":{"cmd":"make test"}}`, false,
			`{"hook_specific_output":{"hook_event_name":"tool_guard","permission_decision":"allow","permission_decision_reason":"toolguard allowed this call (rule mode.trusted).","metadata":{"blast_radius":"none","reason":"no reason was given","rule":"mode.trusted","safety_label":"execute"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.agent+"/"+tt.payload[19:40], func(t *testing.T) {
			d := &containedDecider{}
			stdout, stderr, code := Run(context.Background(), tt.agent, strings.NewReader(tt.payload), d, Options{Wrap: testWrapper, ProjectDir: "/ws"})
			if code != 0 || len(stderr) > 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if diff := cmp.Diff(tt.want+"\n", string(stdout)); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
			if !slices.Equal(d.seen, []bool{tt.containable}) {
				t.Errorf("containable = %v, want %v", d.seen, tt.containable)
			}
			if v, ok := ReplyVerdict(stdout, code); !ok || v != risk.Allow {
				t.Errorf("the reply reads as %v (%v), want allow", v, ok)
			}
			// A forwarding hook prints the server's reply only when it is
			// the agent's own: a contained allow must pass.
			if err := CheckReply(tt.agent, stdout); err != nil {
				t.Errorf("CheckReply refuses the reply: %v", err)
			}
		})
	}
}

// TestNotContainable: without a Wrapper, with defer-allow, or for an
// empty command, nothing is offered for containment.
func TestNotContainable(t *testing.T) {
	payload := `{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Bash","tool_input":{"command":"make test"}}`
	for name, opts := range map[string]Options{
		"no wrapper":  {},
		"defer allow": {Wrap: testWrapper, DeferAllow: true},
	} {
		d := &containedDecider{}
		Run(context.Background(), ClaudeCode, strings.NewReader(payload), d, opts)
		if !slices.Equal(d.seen, []bool{false}) {
			t.Errorf("%s: containable = %v, want false", name, d.seen)
		}
	}
	// A Cline input whose commands cannot all be rewritten is not offered
	// for containment (and runs as it came, judged as it is).
	for _, in := range []string{`{"commands":["make",7]}`, `{"command":"ls","args":["-l"]}`, `{"other":"x","commands":[]}`} {
		d := &containedDecider{}
		p := `{"hookName":"tool_call","taskId":"t","workspaceRoots":["/ws"],"tool_call":{"id":"c","name":"run_commands","input":` + in + `}}`
		Run(context.Background(), Cline, strings.NewReader(p), d, Options{Wrap: testWrapper})
		if slices.Contains(d.seen, true) {
			t.Errorf("cline %s: containable", in)
		}
	}
	// PowerShell source is not bash's: it runs as it came.
	d := &containedDecider{}
	ps := `{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"PowerShell","tool_input":{"command":"Get-ChildItem"}}`
	Run(context.Background(), ClaudeCode, strings.NewReader(ps), d, Options{Wrap: testWrapper})
	if !slices.Equal(d.seen, []bool{false}) {
		t.Errorf("PowerShell: containable = %v, want false", d.seen)
	}
	// The judged command must be the one in the input: a command key the
	// agent reads but whose value differs is rewritten too, never left to
	// run uncontained.
	d = &containedDecider{}
	both := `{"hook_event_name":"PreToolUse","cwd":"/ws","tool_name":"Bash","tool_input":{"command":"make test","cmd":"rm -rf ~"}}`
	stdout, _, _ := Run(context.Background(), ClaudeCode, strings.NewReader(both), d, Options{Wrap: testWrapper})
	if bytes.Contains(stdout, []byte("rm -rf")) || !bytes.Contains(stdout, []byte(`"cmd":"'/opt/tg bin/toolguard' exec`)) {
		t.Errorf("both command keys: %s", stdout)
	}
}

// TestWrappedCommandPasses: the command the hook's [sandbox] wrap rewrite
// produces is judged again when a second hook (or the agent's permission
// request after its pre-tool hook) sees it: it must pass as the command it
// wraps would, although it names --config, because the guard that wrote it
// was started with that --config; the same line under a guard started
// without it loosens the guard and is denied.
func TestWrappedCommandPasses(t *testing.T) {
	const ws = "/home/u/proj"
	tests := []struct {
		name      string
		guardArgs []string
		command   string
		profile   string
		want      string
	}{
		{"the guard's own rewrite", testWrapper.Args, "go test ./...", "", "allow"},
		{"after a leading cd", testWrapper.Args, "cd pkg && go vet ./...", "", "allow"},
		{"its child is still judged", testWrapper.Args, "rm -rf ~", "", "deny"},
		{"under a guard without that config", nil, "go test ./...", "", "deny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := policy.Compile(&policy.Config{Settings: policy.Settings{Mode: "trusted"}},
				policy.Options{Home: "/home/u", GuardArgs: tt.guardArgs})
			if err != nil {
				t.Fatal(err)
			}
			line, err := testWrapper.Command(tt.command, ws, tt.profile)
			if err != nil {
				t.Fatal(err)
			}
			c, err := p.Tools().Normalize(call.Request{Tool: "Bash", Input: map[string]any{"command": line}, Cwd: ws, Workspace: ws})
			if err != nil {
				t.Fatal(err)
			}
			if d := p.Decide(context.Background(), c); d.Verdict.String() != tt.want {
				t.Errorf("%s: %s (%s: %s), want %s", line, d.Verdict, d.Rule, d.Reason, tt.want)
			}
		})
	}
}
