// Command startup measures where a fresh toolguard hook process spends its
// time (DESIGN §10: loading the default policy and rule packs ≤ 1 ms). It
// re-executes itself N times; each child times, once and cold as a hook
// process does, the phases of "toolguard hook claude-code":
//
//   - load: policy.Load of the built-in defaults, the user file, the
//     project directory and the environment, as the CLI does;
//   - compile: policy.Compile (tool table, path rules, rule packs);
//   - guard: guard.Standard (state directory, grants, budget, audit log);
//   - decide: hook.Run on the payload through guard.Check (decode,
//     normalise, decide, write the audit record, encode);
//   - cli: the same through cli.Run (cobra command tree, flags, all of the
//     above) in a second fresh process.
//
// The parent also reports "outside main": the child's wall time minus the
// time inside main, i.e. exec, runtime and package initialisation, and exit.
//
// Usage: startup -n 200 payload.json
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/hook"
	"github.com/toolguard/toolguard/internal/cli"
	"github.com/toolguard/toolguard/policy"
)

// childEnv selects the child's role: "phases" or "cli" (not TOOLGUARD_*:
// the policy reads those as configuration).
const childEnv = "HOOKBENCH_STARTUP_CHILD"

func main() {
	var err error
	switch os.Getenv(childEnv) {
	case "phases":
		err = childPhases(os.Stdin, os.Stdout)
	case "cli":
		err = childCLI(os.Stdin, os.Stdout)
	default:
		err = parent(os.Args[1:], os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

// childPhases times the phases one by one and prints "name ns" lines.
func childPhases(stdin io.Reader, out io.Writer) error {
	start := time.Now()
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	loaded, err := policy.Load(policy.LoadOptions{UserFile: policy.UserFile(), ProjectDir: wd, Environ: os.Environ()})
	if err != nil {
		return err
	}
	tLoad := time.Now()
	protected := append(slices.Clone(loaded.Files), hook.ProtectedPaths()...)
	p, err := policy.Compile(loaded.Config, policy.Options{Protected: protected})
	if err != nil {
		return err
	}
	tCompile := time.Now()
	g, err := guard.Standard(p)
	if err != nil {
		return err
	}
	tGuard := time.Now()
	_, _, code := hook.Run(context.Background(), hook.ClaudeCode, stdin, checker{g}, hook.Options{})
	tDecide := time.Now()
	fmt.Fprintf(out, "load %d\ncompile %d\nguard %d\ndecide %d\nmain %d\nexit %d\n",
		tLoad.Sub(start), tCompile.Sub(tLoad), tGuard.Sub(tCompile), tDecide.Sub(tGuard), tDecide.Sub(start), code)
	return nil
}

// checker decides through guard.Check, as the CLI's hook command does:
// grants and budgets apply and the decision is audited.
type checker struct{ g *guard.Guard }

func (c checker) Decide(ctx context.Context, cl call.Call) policy.Decision {
	d, _ := c.g.Check(ctx, cl)
	return d
}

// childCLI runs the real command line and prints its time inside main.
func childCLI(stdin io.Reader, out io.Writer) error {
	start := time.Now()
	var reply bytes.Buffer
	code := cli.Run(context.Background(), []string{"hook", "claude-code"}, cli.IO{Stdin: stdin, Stdout: &reply, Stderr: io.Discard})
	fmt.Fprintf(out, "cli %d\nmain %d\nexit %d\n", time.Since(start), time.Since(start), code)
	return nil
}

func parent(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("startup", flag.ContinueOnError)
	n := fs.Int("n", 200, "fresh processes per role")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *n < 1 {
		return fmt.Errorf("usage: startup [-n N≥1] PAYLOAD.json")
	}
	payload, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	phases := map[string][]time.Duration{}
	for i := range 2 * *n {
		role := []string{"phases", "cli"}[i%2]
		if err := runChild(self, role, payload, phases); err != nil {
			return err
		}
	}
	return report(out, *n, phases)
}

// runChild runs one fresh child and adds its phase times to phases.
func runChild(self, role string, payload []byte, phases map[string][]time.Duration) error {
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), childEnv+"="+role)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s child: %w: %s", role, err, stderr.String())
	}
	wall := time.Since(start)
	got, err := parseChild(stdout.String())
	if err != nil {
		return fmt.Errorf("%s child: %w", role, err)
	}
	for name, d := range got {
		if name != "main" && name != "exit" {
			phases[name] = append(phases[name], d)
		}
	}
	phases["outside main ("+role+")"] = append(phases["outside main ("+role+")"], wall-got["main"])
	phases["wall ("+role+")"] = append(phases["wall ("+role+")"], wall)
	return nil
}

func parseChild(s string) (map[string]time.Duration, error) {
	got := map[string]time.Duration{}
	for line := range strings.Lines(s) {
		var name string
		var ns int64
		if _, err := fmt.Sscanf(line, "%s %d", &name, &ns); err != nil {
			return nil, fmt.Errorf("bad line %q: %w", line, err)
		}
		got[name] = time.Duration(ns)
	}
	if _, ok := got["main"]; !ok {
		return nil, fmt.Errorf("no main time in %q", s)
	}
	return got, nil
}

func report(out io.Writer, n int, phases map[string][]time.Duration) error {
	fmt.Fprintf(out, "%d fresh processes per role; load average: %s\n\n", n, loadAverage())
	fmt.Fprintln(out, "| phase | median | p90 | p99 |")
	fmt.Fprintln(out, "|---|---:|---:|---:|")
	names := make([]string, 0, len(phases))
	for name := range phases {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		d := phases[name]
		slices.Sort(d)
		fmt.Fprintf(out, "| %s | %s | %s | %s |\n", name, ms(quantile(d, 0.5)), ms(quantile(d, 0.9)), ms(quantile(d, 0.99)))
	}
	return nil
}

func quantile(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond)) }

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(data))[:3], " ")
}
