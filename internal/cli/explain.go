package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/shell"
)

func init() { register("explain", newExplainCmd) }

func newExplainCmd(a *app) *cobra.Command {
	var tool, input string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "explain [flags] -- 'COMMAND'  |  explain --tool NAME --input JSON",
		Short: "Show how a call is understood: the parse, each simple command, every matching rule, the decision",
		Long: `Show the reasoning behind a decision. For a shell command: the simple commands
after unwrapping wrappers and nested shells, with how each was reached, the
rules that matched with the text they matched, the paths and URLs judged, and
the final decision. For any other tool, give --tool and --input.
Exit codes as for check: 0 allow, 3 ask, 2 deny, 1 error.`,
	}
	pf := addPolicyFlags(cmd)
	cmd.Flags().StringVar(&tool, "tool", "", "tool name of a non-shell call (any supported agent's name or a kind)")
	cmd.Flags().StringVar(&input, "input", "{}", "JSON arguments of the --tool call")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the decision as JSON")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		p, err := pf.load(pf.cwd)
		if err != nil {
			return err
		}
		pf.warnIgnored(a.io.Stderr)
		c, err := explainCall(p, pf.workdir(), tool, input, args)
		if err != nil {
			return err
		}
		x := p.Explain(a.ctx, c)
		if asJSON {
			return printJSON(a.io.Stdout, x.Decision)
		}
		printExplanation(a.io.Stdout, c, x)
		return exitWith(verdictExit(x.Decision.Verdict))
	}
	return cmd
}

func explainCall(p *policy.Policy, wd, tool, input string, args []string) (call.Call, error) {
	if tool == "" {
		if len(args) == 0 {
			return call.Call{}, fmt.Errorf("explain needs a command (explain -- 'rm -rf x') or --tool and --input")
		}
		return shellCall(args, wd), nil
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(input), &in); err != nil {
		return call.Call{}, fmt.Errorf("--input is not a JSON object: %w", err)
	}
	return p.Tools().Normalize(call.Request{Tool: tool, Input: in, Cwd: wd, Workspace: wd})
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printExplanation(w io.Writer, c call.Call, x policy.Explanation) {
	fmt.Fprintf(w, "call: %s (kind %s, tier %s before analysis)\n", c.Tool, c.Kind, c.BaseTier())
	if x.Script != nil {
		printScript(w, x)
	}
	for _, p := range c.Paths {
		fmt.Fprintf(w, "path: %s\n", p)
	}
	for _, u := range c.URLs {
		fmt.Fprintf(w, "url: %s\n", u)
	}
	fmt.Fprintln(w, "decision:")
	printDecision(w, x.Decision, c.Command, false)
}

func printScript(w io.Writer, x policy.Explanation) {
	for _, pr := range x.Script.Problems {
		if pr.From != nil { // $(cat FILE), <(PROG completion bash): the analysis judges that output
			fmt.Fprintf(w, "code from the output of %s: judged with the command that runs it%s\n", quoteArgv(pr.From), spanText(x.Script.Source, pr.Span))
			continue
		}
		fmt.Fprintf(w, "unverifiable: %s%s\n", pr.Reason, spanText(x.Script.Source, pr.Span))
	}
	for i, ec := range x.Commands {
		cmd := ec.Command
		fmt.Fprintf(w, "command %d: %s\n", i+1, quoteArgv(cmd))
		tier := ec.Tier.String()
		if ec.Raised != "" {
			tier += fmt.Sprintf(" (%s by its effects; %s is a high-risk program, so at least execute)", ec.Result.Tier, ec.Raised)
		}
		fmt.Fprintf(w, "  reached: %s; tier %s; known: %v\n", origin(cmd), tier, ec.Result.Known)
		printCommandDetail(w, cmd, ec)
	}
}

func printCommandDetail(w io.Writer, cmd *shell.Command, ec policy.ExplainedCommand) {
	if len(cmd.Wrappers) > 0 {
		fmt.Fprintf(w, "  wrappers: %s\n", strings.Join(cmd.Wrappers, ", "))
	}
	if cmd.Dir.Value != "" {
		fmt.Fprintf(w, "  runs in: %s\n", cmd.Dir.Value)
	}
	for _, r := range cmd.Redirects {
		fmt.Fprintf(w, "  redirect: %s%s %s\n", r.Fd, r.Op, r.Target.Value)
	}
	for _, p := range ec.Result.Paths {
		fmt.Fprintf(w, "  path (%s): %s\n", p.Access, p.Word.Value)
	}
	for _, u := range ec.Result.URLs {
		fmt.Fprintf(w, "  contacts: %s\n", u.Value)
	}
	for _, f := range ec.Result.Findings {
		fmt.Fprintf(w, "  rule %s [%s/%s]: %s\n", f.Rule, f.Tier, f.Blast, f.Reason)
	}
	switch {
	case ec.AllowedBy != "":
		fmt.Fprintf(w, "  allowed by the user rule %q: its own effects do not ask; the other commands are judged as usual\n", ec.AllowedBy)
	case ec.NotCovered != "":
		fmt.Fprintf(w, "  user rule %s\n", ec.NotCovered)
	}
}

func origin(cmd *shell.Command) string {
	o := cmd.Origin
	switch {
	case o == "":
		o = "top level"
	case o == "bash -c" && len(cmd.Wrappers) > 0:
		o = codeOrigin(cmd.Wrappers[len(cmd.Wrappers)-1])
	}
	if cmd.Remote != "" {
		o += " on " + cmd.Remote
	}
	if cmd.Privileged {
		o += ", privileged"
	}
	return o
}

// codeOrigin names how code given to a program as a string was reached:
// "sh -c" for the shell that ran it, "code run by ssh" for others.
func codeOrigin(via string) string {
	switch via {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish", "yash", "posh", "tcsh", "csh":
		return via + " -c"
	}
	return "code run by " + via
}

func quoteArgv(cmd *shell.Command) string {
	var parts []string
	for _, w := range cmd.Argv {
		v := w.Value
		if !w.Known {
			v += "(?)"
		}
		if strings.ContainsAny(v, " \t'\"") {
			v = fmt.Sprintf("%q", v)
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, " ")
}
