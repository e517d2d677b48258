package hook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/internal/tree"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// Defaults for [Options] fields left at their zero value.
const (
	// DefaultTimeout bounds one hook invocation, well below the agents' own
	// hook timeouts (Gemini CLI and docker-agent default to 60 s).
	DefaultTimeout = 5 * time.Second
	// DefaultMaxInput bounds the payload read from stdin: room for one
	// argument of call.MaxInputBytes (a file's content) even when JSON
	// escaping doubles it.
	DefaultMaxInput = 2*call.MaxInputBytes + 1<<20
	// AgentTimeout is the hook timeout install writes into every agent's
	// settings: room for DefaultTimeout and a person's answer through the
	// approver (MaxApprovalWait), so the agent never times the hook out
	// (most agents let a call through when a hook times out).
	AgentTimeout = 150 * time.Second
	// MaxApprovalWait bounds how long a hook waits for a person's answer
	// through [Options.Approver], whatever the policy's approval timeout.
	MaxApprovalWait = 135 * time.Second
)

// Agent names accepted by [New] and [Run].
const (
	ClaudeCode  = "claude-code"
	Codex       = "codex"
	GeminiCLI   = "gemini-cli"
	Cursor      = "cursor"
	DockerAgent = "docker-agent"
	Copilot     = "copilot"
	OpenCode    = "opencode"
	Kilo        = "kilo"
	QwenCode    = "qwen-code"
	Cline       = "cline"
	Droid       = "droid"
)

// Agents lists the supported agent names in a stable order.
func Agents() []string {
	return []string{ClaudeCode, Codex, GeminiCLI, Cursor, DockerAgent, Copilot, OpenCode, Kilo, QwenCode, Cline, Droid}
}

// Decider decides one normalised call. *policy.Policy satisfies it.
type Decider interface {
	Decide(ctx context.Context, c call.Call) policy.Decision
}

// DeciderFunc adapts a function to [Decider].
type DeciderFunc func(ctx context.Context, c call.Call) policy.Decision

// Decide calls f.
func (f DeciderFunc) Decide(ctx context.Context, c call.Call) policy.Decision { return f(ctx, c) }

// Options tune the adapters and [Run].
type Options struct {
	// DeferAllow, when true, answers an allow with "{}" (no opinion) so the
	// agent's own permission rules decide. The zero value answers an explicit
	// allow, so people are not asked about harmless calls.
	DeferAllow bool
	// DeferAsk, when true, answers an ask on an event that cannot ask (Codex
	// PreToolUse, Cursor beforeReadFile and preToolUse) with "{}" so the
	// agent's own approval flow decides. The zero value denies such a call
	// with a reason telling the person how to approve it (fail closed).
	DeferAsk bool
	// AgentRunsAsks says the agent runs a call whose hook answers ask
	// (docker-agent up to v1.32.3): an ask then goes to Approver, or is
	// denied. install writes it (--agent-runs-asks) for such versions.
	// False means the agent puts an ask to its user where it can.
	AgentRunsAsks bool
	// Timeout bounds reading, decoding and deciding. Zero means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxInput bounds the payload size in bytes. Zero means DefaultMaxInput.
	MaxInput int64
	// Table maps tool names onto kinds. Nil means call.Default().
	Table *call.Table
	// ProjectDir is the workspace used when the payload names none (the CLI
	// fills it from CLAUDE_PROJECT_DIR or GEMINI_PROJECT_DIR). Empty means
	// the payload's cwd.
	ProjectDir string
	// Inline makes Run decide in the calling goroutine, leaving the bound
	// on its time to the caller (the CLI arms one watchdog for the whole
	// process instead of a goroutine per call). The zero value runs the
	// decision in a goroutine of its own and returns a block at Timeout.
	Inline bool
	// Approver answers an ask that the agent cannot put to a person (Codex
	// PreToolUse, Claude Code in bypassPermissions, Gemini CLI headless,
	// Cursor's file reads): the hook waits for a person's answer through it
	// (a running toolguard serve's page) and allows the call only when a
	// person approves. Nil means no approver: such an ask is denied with a
	// reason that says how to allow the call.
	Approver approval.Approver
	// ApprovalTimeout bounds the wait for the Approver, capped at
	// MaxApprovalWait. Zero means MaxApprovalWait.
	ApprovalTimeout time.Duration
	// Logger receives the approval events of asks put to the Approver. Nil
	// means none.
	Logger *slog.Logger
	// Wrap writes the command that runs a Contained call in toolguard's
	// sandbox; with it, the shell calls of the agents whose reply can
	// rewrite a call are marked containable for the policy's [sandbox]
	// wrap. Nil means calls run as they came.
	Wrap *Wrapper
}

// approvalWait is how long Run may wait for a person beyond Timeout.
func (o Options) approvalWait() time.Duration {
	if o.Approver == nil {
		return 0
	}
	if o.ApprovalTimeout <= 0 {
		return MaxApprovalWait
	}
	return min(o.ApprovalTimeout, MaxApprovalWait)
}

func (o Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}

func (o Options) maxInput() int64 {
	if o.MaxInput > 0 {
		return o.MaxInput
	}
	return DefaultMaxInput
}

func (o Options) table() *call.Table {
	if o.Table != nil {
		return o.Table
	}
	return defaultTable()
}

// defaultTable is built on first use, not in package initialisation.
var defaultTable = sync.OnceValue(call.Default)

// Event is one decoded hook payload.
type Event struct {
	// Agent is the adapter's agent name.
	Agent string
	// Name is the hook_event_name the agent sent (Cursor's before* and
	// preToolUse names too); empty when the payload could not be read.
	Name string
	// Request is the tool call the agent asks about.
	Request call.Request
	// ReadOnlyHint is true when the agent said the tool is read-only
	// (docker-agent tool_read_only). It is a hint, never a permission.
	ReadOnlyHint bool
	// ToolUseID is the agent's id of the tool call; empty when absent.
	ToolUseID string
	// PermissionMode is the agent's permission mode as its payload says
	// (Claude Code's permission_mode); empty when it sends none.
	PermissionMode string
	// RawInput is the tool's input object as the agent sent it; empty when
	// the payload has none (Cursor's beforeShellExecution).
	RawInput json.RawMessage
	// Rewrite is the input the agent is to run instead, when the decision
	// is Contained: RawInput with its command replaced by one that runs it
	// in toolguard's sandbox. An adapter that implements the rewriter
	// interface writes it into its reply's field for a rewritten input.
	Rewrite json.RawMessage
}

// Adapter speaks one agent's hook protocol.
type Adapter interface {
	// Name is the agent name, e.g. "claude-code".
	Name() string
	// Events lists the hook_event_name values the adapter answers.
	Events() []string
	// Decode reads one payload. On error the returned Event still carries
	// the event name when it could be read, so the failure can be answered
	// in that event's blocking form.
	Decode(stdin []byte) (Event, error)
	// Encode answers a decision for ev exactly as the agent documents it.
	Encode(ev Event, d policy.Decision) (stdout, stderr []byte, exitCode int)
}

// asker is implemented by adapters some of whose events cannot put an ask
// to a person.
type asker interface {
	// CanAsk reports whether an ask answered for ev reaches a person.
	CanAsk(ev Event) bool
}

// canAsk reports whether the agent puts an ask for ev to a person.
func canAsk(a Adapter, ev Event) bool {
	if k, ok := a.(asker); ok {
		return k.CanAsk(ev)
	}
	return true
}

// askPerson puts an ask the agent cannot ask to the approver and turns the
// answer into the decision: allow only when a person approved in time.
func askPerson(ctx context.Context, opts Options, c call.Call, d policy.Decision) policy.Decision {
	ans, err := approval.Ask(ctx, opts.Approver, approval.Request{Call: c, Decision: d},
		approval.AskOptions{Timeout: opts.approvalWait(), Logger: opts.Logger})
	if err == nil && ans.Approved {
		d.Verdict = risk.Allow
		d.Reason = "a person approved it (" + cmpOr(ans.By, "approver") + "): " + d.Reason
		return d
	}
	why := "a person denied it" + ans.Where()
	switch {
	case err != nil:
		why = "no approval: " + err.Error()
	case ans.Note != "":
		why += " (" + ans.Note + ")"
	}
	d.Verdict = risk.Deny
	d.Reason = strings.TrimSuffix(d.Reason, ".") + "; the agent cannot ask, so toolguard asked a person: " + why
	return d
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ErrUnknownAgent is wrapped by errors for agent names [New] does not know.
var ErrUnknownAgent = errors.New("unknown agent")

// New returns the adapter for an agent.
func New(agent string, opts Options) (Adapter, error) {
	switch agent {
	case ClaudeCode:
		return &claudeAdapter{claudeProfile(), opts}, nil
	case Codex:
		return &claudeAdapter{codexProfile(), opts}, nil
	case GeminiCLI:
		return &geminiAdapter{opts}, nil
	case Cursor:
		return &cursorAdapter{opts}, nil
	case DockerAgent:
		return &dockerAdapter{opts}, nil
	case Copilot:
		return &copilotAdapter{opts}, nil
	case OpenCode, Kilo:
		return &pluginAdapter{agent, opts}, nil
	case QwenCode:
		return &claudeAdapter{qwenProfile(), opts}, nil
	case Droid:
		return &claudeAdapter{droidProfile(), opts}, nil
	case Cline:
		return &clineAdapter{opts}, nil
	}
	return nil, UnknownAgentError(agent)
}

// ProjectDirEnv names the environment variable through which an agent tells
// its hooks the project directory; empty when the agent has none.
func ProjectDirEnv(agent string) string {
	switch agent {
	case ClaudeCode:
		return "CLAUDE_PROJECT_DIR"
	case GeminiCLI:
		return "GEMINI_PROJECT_DIR"
	case Copilot:
		return "COPILOT_PROJECT_DIR"
	case QwenCode:
		return "QWEN_PROJECT_DIR"
	case Droid:
		return "FACTORY_PROJECT_DIR"
	}
	return ""
}

// Run answers one hook invocation: it reads the payload from stdin, decides
// it with d and returns what to print and the exit code. It never panics and
// never takes longer than the options' timeout; every failure blocks the call
// in the agent's blocking form.
func Run(ctx context.Context, agent string, stdin io.Reader, d Decider, opts Options) (stdout, stderr []byte, code int) {
	if lim := MaxApprovalWaitFor(agent); opts.Approver != nil && (opts.ApprovalTimeout <= 0 || opts.ApprovalTimeout > lim) {
		opts.ApprovalTimeout = lim
	}
	a, err := New(agent, opts)
	if err != nil {
		return blockExit2(fmt.Sprintf("%v; the call is blocked", err))
	}
	ctx, cancel := context.WithTimeout(ctx, opts.timeout()+opts.approvalWait())
	defer cancel()
	if opts.Inline {
		r := handle(ctx, a, stdin, d, opts)
		return r.stdout, r.stderr, r.code
	}
	done := make(chan reply, 1)
	go func() { done <- handle(ctx, a, stdin, d, opts) }()
	select {
	case r := <-done:
		return r.stdout, r.stderr, r.code
	case <-ctx.Done():
		return blockExit2(fmt.Sprintf("no decision within %s (%v); the call is blocked", opts.timeout()+opts.approvalWait(), context.Cause(ctx)))
	}
}

type reply struct {
	stdout, stderr []byte
	code           int
}

func handle(ctx context.Context, a Adapter, stdin io.Reader, d Decider, opts Options) (r reply) {
	var ev Event
	defer func() {
		if p := recover(); p != nil {
			r = fail(a, ev, RuleInternal, fmt.Sprintf("internal error (%v)", p))
		}
	}()
	raw, err := readLimited(stdin, opts.maxInput())
	if err != nil {
		return fail(a, ev, RuleInvalidPayload, err.Error())
	}
	ev, err = a.Decode(raw)
	if err != nil {
		return fail(a, ev, ruleFor(err), fmt.Sprintf("could not read the %s hook payload: %v", a.Name(), err))
	}
	c, err := normalize(ev, opts)
	if err != nil {
		return fail(a, ev, RuleInvalidPayload, fmt.Sprintf("could not understand the %s call: %v", ev.Request.Tool, err))
	}
	c.Containable = containable(a, ev, c, opts)
	dctx, cancel := context.WithTimeout(ctx, opts.timeout())
	dec := sanitize(d.Decide(dctx, c))
	cancel()
	if dec.Verdict == risk.Ask && opts.Approver != nil && !canAsk(a, ev) {
		dec = askPerson(ctx, opts, c, dec)
	}
	if dec.Verdict == risk.Allow && dec.Contained {
		if ev.Rewrite, err = rewrite(a, ev, c, dec, opts.Wrap); err != nil {
			// containable checked what rewrite needs; this cannot happen,
			// and a call that was to run contained must not run uncontained.
			return fail(a, ev, RuleInternal, "the call was to run in toolguard's sandbox, but its command could not be rewritten: "+err.Error())
		}
	}
	return answer(a.Encode(ev, dec))
}

func answer(stdout, stderr []byte, code int) reply { return reply{stdout, stderr, code} }

func normalize(ev Event, opts Options) (call.Call, error) {
	req := ev.Request
	if req.Workspace == "" {
		req.Workspace = opts.ProjectDir
	}
	c, err := opts.table().Normalize(req)
	c.ReadOnlyHint = ev.ReadOnlyHint
	return c, err
}

// readLimited reads all of r, failing when it holds more than max bytes.
func readLimited(r io.Reader, max int64) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no hook payload on stdin")
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("could not read the hook payload: %v", err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("the hook payload is over the %d byte limit", max)
	}
	return b, nil
}

// fail answers a failure in the event's own deny form when the event is
// known, else with exit code 2 and the reason on stderr, which every
// supported agent treats as a block.
func fail(a Adapter, ev Event, rule, reason string) reply {
	if ev.Name != "" && slices.Contains(a.Events(), ev.Name) {
		return answer(a.Encode(ev, failDecision(rule, reason)))
	}
	return answer(blockExit2(reason + "; the call is blocked"))
}

// Block is the answer every agent reads as "blocked": exit code 2 with the
// reason on stderr. It is what a caller writes when it cannot decide in
// time.
func Block(reason string) (stdout, stderr []byte, code int) { return blockExit2(reason) }

func blockExit2(reason string) (stdout, stderr []byte, code int) {
	return nil, []byte("toolguard: " + clip(reason) + "\n"), 2
}

// MaxApprovalWaitFor is the longest a hook of agent may wait for a person
// through the approver: MaxApprovalWait, less for an agent whose hook
// timeout is shorter than the one install writes (Cline gives a hook 120 s
// and lets the call through when it takes longer).
func MaxApprovalWaitFor(agent string) time.Duration {
	if agent == Cline {
		return 100 * time.Second
	}
	return MaxApprovalWait
}

// UnknownAgentError is the error for an agent name toolguard does not know,
// with the nearest known names when there are any (see [SuggestAgents]).
func UnknownAgentError(agent string) error {
	valid := strings.Join(Agents(), ", ")
	if s := SuggestAgents(agent); len(s) > 0 {
		return fmt.Errorf("%w %q (did you mean %s? valid: %s)", ErrUnknownAgent, agent, strings.Join(s, " or "), valid)
	}
	return fmt.Errorf("%w %q (valid: %s)", ErrUnknownAgent, agent, valid)
}

// SuggestAgents returns the known agent names nearest to name, in the
// order of [Agents]: the one it spells in another case; else those it
// names by their program's or product's name (claude → claude-code,
// cursor-agent → cursor, kilocode → kilo: the same first word, or one name
// a prefix of the other at four letters or more); else those at the
// smallest edit distance that still looks like a typo. None when nothing
// is near.
func SuggestAgents(name string) []string {
	w := strings.ToLower(strings.TrimSpace(name))
	var out []string
	for _, c := range Agents() {
		if w == c {
			return []string{c}
		}
		if sameProduct(w, c) {
			out = append(out, c)
		}
	}
	if len(out) > 0 {
		return out
	}
	if s := tree.Suggest(w, Agents()); s != "" {
		return []string{s}
	}
	return nil
}

// sameProduct reports whether a and b name the same program: their first
// words (up to a '-') are equal, or one is a prefix of the other at four
// letters or more.
func sameProduct(a, b string) bool {
	first := func(s string) string { f, _, _ := strings.Cut(s, "-"); return f }
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	return len(first(a)) >= 4 && first(a) == first(b) || len(short) >= 4 && strings.HasPrefix(long, short)
}
