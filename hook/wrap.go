package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// Wrapper makes an allowed shell call run inside toolguard's sandbox: the
// hook allows the call with its command replaced by one that runs it
// through `toolguard exec --wrapped` (policy.Decision.Contained).
type Wrapper struct {
	// Program is the absolute path of the toolguard program that runs the
	// command. Required.
	Program string
	// Args are options of exec placed before the command, such as the
	// --config the hook itself was given. Nil means none.
	Args []string
}

// errNotQuotable is returned for a command no shell word can hold.
var errNotQuotable = errors.New("the command cannot be written as a shell word (it holds a NUL byte)")

// Command returns the command line that runs command (bash source, as the
// agent would run it) contained, with workspace writable and the
// decision's profile. A leading `cd DIR &&` stays outside, so the agent's
// shell still moves to DIR as it would have; the rest runs as
// `bash -c REST` in the sandbox. Every word is quoted by the shell
// syntax's own rules.
func (w *Wrapper) Command(command, workspace, profile string) (string, error) {
	prefix, rest := splitLeadingCd(command)
	words := append([]string{w.Program, "exec", "--wrapped"}, w.Args...)
	if profile != "" {
		words = append(words, "--profile", profile)
	}
	words = append(words, "--workspace", workspace, "--", "bash", "-c", rest)
	var b strings.Builder
	b.WriteString(prefix)
	for i, word := range words {
		q, err := syntax.Quote(word, syntax.LangBash)
		if err != nil {
			return "", errNotQuotable
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(q)
	}
	return b.String(), nil
}

// splitLeadingCd splits `cd DIR && REST` (one statement, a chain of &&
// whose first command is cd with one literal operand, no redirection, not
// in the background) into "cd DIR && " and REST as written. Anything else
// is all REST.
func splitLeadingCd(command string) (prefix, rest string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", command
	}
	st := f.Stmts[0]
	if st.Background || st.Negated || st.Coprocess || len(st.Redirs) > 0 {
		return "", command
	}
	chain := andChain(st.Cmd)
	if len(chain) < 2 || !isPlainCd(chain[0]) {
		return "", command
	}
	start := chain[1].Pos().Offset()
	if chain[1].Pos().Offset() > uint(len(command)) {
		return "", command
	}
	cd := command[chain[0].Pos().Offset():chain[0].End().Offset()]
	return cd + " && ", command[start:]
}

// andChain flattens a left-nested chain of && into its statements.
func andChain(cmd syntax.Command) []*syntax.Stmt {
	bin, ok := cmd.(*syntax.BinaryCmd)
	if !ok || bin.Op != syntax.AndStmt {
		return nil
	}
	left := andChain(bin.X.Cmd)
	if left == nil {
		left = []*syntax.Stmt{bin.X}
	}
	return append(left, bin.Y)
}

// isPlainCd reports whether st is `cd WORD` with WORD literal text (plain
// or quoted, no expansion) that is not an option.
func isPlainCd(st *syntax.Stmt) bool {
	if st.Background || st.Negated || len(st.Redirs) > 0 {
		return false
	}
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) != 2 || ce.Args[0].Lit() != "cd" {
		return false
	}
	dir, ok := literalWord(ce.Args[1])
	return ok && dir != "" && !strings.HasPrefix(dir, "-")
}

// literalWord is the text of a word made only of literal parts.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\~*?[") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// rewriter is implemented by adapters whose reply can replace the input of
// the call it allows. An agent plugs into wrapping with it and by writing
// Event.Rewrite into its reply's field for a rewritten input.
type rewriter interface {
	// CanRewrite reports whether the reply to ev can replace the call's
	// input.
	CanRewrite(ev Event) bool
	// RewriteField names the reply's field for the new input and the
	// events that have it, for doctor and the documentation.
	RewriteField() string
}

// RewriteField names the field through which agent's hook replies can
// replace the input of a call they allow, and on which events; "" when
// they cannot: such an agent's calls run as they came, contained or not.
func RewriteField(agent string) string {
	a, err := New(agent, Options{})
	if err != nil {
		return ""
	}
	if r, ok := a.(rewriter); ok {
		return r.RewriteField()
	}
	return ""
}

// NotRewrittenWhy says why agent's hook does not rewrite a call although
// its reply has a field for it; "" when there is no such reason.
func NotRewrittenWhy(agent string) string {
	if agent == QwenCode {
		return "Qwen Code (checked with 0.24.4) does not apply PreToolUse's updatedInput, so toolguard does not rewrite its calls"
	}
	return ""
}

// containable reports whether the call of ev can run contained: a shell
// call with a command that is not empty and can be quoted, from an event
// whose reply can rewrite it, with a Wrapper to write it with.
func containable(a Adapter, ev Event, c call.Call, opts Options) bool {
	r, ok := a.(rewriter)
	if !ok || opts.Wrap == nil || opts.DeferAllow || c.Kind != call.Shell || len(ev.RawInput) == 0 {
		return false
	}
	if strings.TrimSpace(c.Command) == "" || strings.IndexByte(c.Command, 0) >= 0 || strings.IndexByte(c.Root(), 0) >= 0 {
		return false
	}
	if tool := strings.ToLower(c.Tool); strings.Contains(tool, "powershell") || strings.Contains(tool, "pwsh") {
		return false // not bash source: bash -c would not run it
	}
	if !r.CanRewrite(ev) {
		return false
	}
	if o, ok := a.(ownRewriter); ok {
		_, err := o.rewriteInput(ev, c, func(cmd string) (string, error) { return cmd, nil })
		return err == nil
	}
	return commandKey(ev.RawInput, c.Command) != ""
}

// ownRewriter is implemented by rewriters whose input does not hold the
// judged command under one key (Cline's run_commands holds a list): they
// rewrite the input themselves, writing each command they find with wrap.
type ownRewriter interface {
	rewriteInput(ev Event, c call.Call, wrap func(cmd string) (string, error)) (json.RawMessage, error)
}

// commandKeys are the input keys that carry a shell tool's command.
var commandKeys = []string{"command", "cmd"}

// commandKey is the key of the input object raw whose string value is the
// judged command; "" when there is none.
func commandKey(raw json.RawMessage, command string) string {
	fields, err := objectFields(raw, false)
	if err != nil {
		return ""
	}
	for _, k := range commandKeys {
		var v string
		if json.Unmarshal(fields[k], &v) == nil && v == command {
			return k
		}
	}
	return ""
}

// rewrite returns the call's input with the command replaced by the one
// that runs it contained; the other members are kept as the agent sent
// them (whole: an agent that replaces the input takes all of it).
func rewrite(a Adapter, ev Event, c call.Call, d policy.Decision, w *Wrapper) (json.RawMessage, error) {
	if o, ok := a.(ownRewriter); ok {
		return o.rewriteInput(ev, c, func(cmd string) (string, error) { return w.Command(cmd, c.Root(), d.Profile) })
	}
	key := commandKey(ev.RawInput, c.Command)
	if key == "" {
		return nil, errors.New("the command is not in the call's input")
	}
	cmd, err := w.Command(c.Command, c.Root(), d.Profile)
	if err != nil {
		return nil, err
	}
	fields, err := objectFields(ev.RawInput, false)
	if err != nil {
		return nil, err
	}
	out := appendQuoted(appendKey([]byte{'{'}, key), cmd)
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if k == key || isCommandKey(k) {
			continue // every command key carries the contained command
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, fields[k]); err != nil {
			return nil, err
		}
		out = append(appendQuoted(append(out, ','), k), ':')
		out = append(out, compact.Bytes()...)
	}
	for _, k := range commandKeys {
		if _, ok := fields[k]; ok && k != key {
			out = appendQuoted(append(appendQuoted(append(out, ','), k), ':'), cmd)
		}
	}
	return append(out, '}'), nil
}

func isCommandKey(k string) bool { return slices.Contains(commandKeys, k) }
