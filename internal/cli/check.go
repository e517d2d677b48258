package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func init() { register("check", newCheckCmd) }

func newCheckCmd(a *app) *cobra.Command {
	var asJSON, jsonl bool
	cmd := &cobra.Command{
		Use:   "check [flags] -- 'COMMAND'",
		Short: "Judge a shell command, or tool calls given as JSON lines on stdin",
		Long: `Judge one shell command (as the shell tool of an agent would run it), or with
--jsonl one call per input line: {"tool": NAME, "input": {...}, "cwd": DIR}.

Exit codes: 0 allow, 3 ask, 2 deny, 1 usage or configuration error. With
--jsonl the exit code is 0 once every line has been answered (denied lines
included) and 1 on a read error.`,
	}
	pf := addPolicyFlags(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the decision as JSON")
	cmd.Flags().BoolVar(&jsonl, "jsonl", false, "read calls as JSON lines on stdin, write one decision per line")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		p, err := pf.load(pf.cwd)
		if err != nil {
			return err
		}
		pf.warnIgnored(a.io.Stderr)
		if jsonl {
			return checkLines(a, p, pf.workdir())
		}
		if len(args) == 0 {
			return fmt.Errorf("check needs a command: toolguard check -- 'ls -la' (or --jsonl)")
		}
		c := shellCall(args, pf.workdir())
		d := p.Decide(a.ctx, c)
		if err := printDecision(a.io.Stdout, d, c.Command, asJSON); err != nil {
			return err
		}
		return exitWith(verdictExit(d.Verdict))
	}
	return cmd
}

func verdictExit(v risk.Verdict) int {
	switch v {
	case risk.Allow:
		return ExitAllow
	case risk.Ask:
		return ExitAsk
	}
	return ExitDeny
}

// lineCall is one --jsonl input line.
type lineCall struct {
	Tool      string         `json:"tool"`
	Input     map[string]any `json:"input"`
	Cwd       string         `json:"cwd"`
	Workspace string         `json:"workspace"`
	Agent     string         `json:"agent"`
	Session   string         `json:"session"`
}

func checkLines(a *app, p *policy.Policy, wd string) error {
	sc := bufio.NewScanner(a.io.Stdin)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	enc := json.NewEncoder(a.io.Stdout)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if err := enc.Encode(decideLine(a, p, line, wd)); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading calls: %w", err)
	}
	return nil
}

func decideLine(a *app, p *policy.Policy, line, wd string) policy.Decision {
	var lc lineCall
	if err := json.Unmarshal([]byte(line), &lc); err != nil {
		return invalidCall("the line is not a JSON object: " + err.Error())
	}
	cwd := firstNonEmpty(lc.Cwd, wd)
	req := call.Request{Tool: lc.Tool, Input: lc.Input, Cwd: cwd, Workspace: firstNonEmpty(lc.Workspace, cwd),
		Who: call.Who{Agent: lc.Agent, Session: lc.Session}}
	c, err := p.Tools().Normalize(req)
	if err != nil {
		return invalidCall(err.Error())
	}
	return p.Decide(a.ctx, c)
}

func invalidCall(why string) policy.Decision {
	return policy.Decision{Verdict: risk.Deny, Tier: risk.Execute, Blast: risk.BlastUnknown, Rule: "input.invalid",
		Category: risk.CatInput, Reason: "Malformed call: " + why,
		Suggestion: `send {"tool": NAME, "input": {...}, "cwd": DIR}`}
}

func printDecision(w io.Writer, d policy.Decision, command string, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	}
	fmt.Fprintf(w, "%s  tier=%s  blast=%s", strings.ToUpper(d.Verdict.String()), d.Tier, d.Blast)
	if d.Category != "" {
		fmt.Fprintf(w, "  category=%s", d.Category)
	}
	fmt.Fprintf(w, "  rule=%s\n  %s\n", d.Rule, d.Reason)
	if d.Suggestion != "" {
		fmt.Fprintf(w, "  instead: %s\n", d.Suggestion)
	}
	for _, f := range d.Findings {
		fmt.Fprintf(w, "  - %s [%s/%s] %s%s\n", f.Rule, f.Tier, f.Blast, f.Reason, spanText(command, f.Span))
	}
	return nil
}

func spanText(src string, s risk.Span) string {
	if s.IsZero() || s.End > len(src) || s.Start < 0 || s.Start >= s.End {
		return ""
	}
	return fmt.Sprintf(" (at %q)", src[s.Start:s.End])
}
