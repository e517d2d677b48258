// Command hooktime times hook processes the way an agent runs them: start
// the command, write a payload to its stdin, read its reply, wait. It runs
// every command on every payload, N rounds interleaved (the order rotates
// each round) so that background load affects all commands alike, and prints
// median, p90 and p99 wall time, median CPU time, median page faults and
// peak RSS per command and payload as a Markdown table, with the ratio to a
// baseline command.
//
// Usage:
//
//	hooktime -n 300 -cmd minimal=./minimal \
//	    -cmd 'toolguard=./toolguard hook claude-code' \
//	    -payload bash-rm=rm.json -expect toolguard/bash-rm=deny
//
// A command's argv is split on spaces; leading VAR=value words are added to
// that command's environment, as in a shell. -expect CMD/PAYLOAD=DECISION fails the
// run (exit 1) when the reply's decision differs; decisions are the Claude
// Code PreToolUse ones (allow, ask, deny), "none" for "{}", and exit code 2
// counts as deny.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hooktime:", err)
		os.Exit(1)
	}
}

// config is the parsed command line.
type config struct {
	rounds   int
	warmup   int
	baseline string
	cmds     []command
	payloads []payload
	expects  map[string]string // "cmd/payload" → decision
}

type command struct {
	name string
	env  []string // VAR=value pairs added to the harness's environment
	argv []string
}

type payload struct {
	name string
	data []byte
}

func run(ctx context.Context, args []string, out io.Writer) error {
	cfg, err := parseArgs(args)
	if err != nil {
		return err
	}
	loadBefore := loadAverage()
	res, err := measure(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d rounds after %d warm-up; load average before: %s, after: %s\n\n",
		cfg.rounds, cfg.warmup, loadBefore, loadAverage())
	writeTable(out, cfg, res)
	return checkExpectations(cfg, res)
}

func parseArgs(args []string) (*config, error) {
	cfg := &config{expects: map[string]string{}}
	fs := flag.NewFlagSet("hooktime", flag.ContinueOnError)
	fs.IntVar(&cfg.rounds, "n", 300, "measured rounds (each runs every command on every payload once)")
	fs.IntVar(&cfg.warmup, "warmup", 5, "unmeasured rounds first (page cache, compile caches)")
	fs.StringVar(&cfg.baseline, "baseline", "", "command the ratios divide by (default: the first -cmd)")
	fs.Func("cmd", "NAME=[VAR=value ...] ARGV a command to time; argv split on spaces (repeatable)", cfg.addCommand)
	fs.Func("payload", "NAME=FILE a payload written to stdin (repeatable)", cfg.addPayload)
	fs.Func("expect", "CMD/PAYLOAD=DECISION the decision a command must reply (repeatable)", cfg.addExpect)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return cfg, cfg.validate()
}

func (c *config) addCommand(v string) error {
	name, argv, ok := strings.Cut(v, "=")
	env, fields := splitEnv(strings.Fields(argv))
	if !ok || name == "" || len(fields) == 0 {
		return fmt.Errorf("want NAME=[VAR=value ...] ARGV, got %q", v)
	}
	c.cmds = append(c.cmds, command{name: name, env: env, argv: fields})
	return nil
}

// splitEnv separates leading VAR=value words from the argv after them.
func splitEnv(words []string) (env, argv []string) {
	for len(words) > 0 && isAssignment(words[0]) {
		env, words = append(env, words[0]), words[1:]
	}
	return env, words
}

// isAssignment reports a VAR=value word: a name before the first "=" that
// is not empty and is not a path.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	return ok && name != "" && !strings.Contains(name, "/")
}

func (c *config) addPayload(v string) error {
	name, file, ok := strings.Cut(v, "=")
	if !ok || name == "" || file == "" {
		return fmt.Errorf("want NAME=FILE, got %q", v)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	c.payloads = append(c.payloads, payload{name: name, data: data})
	return nil
}

func (c *config) addExpect(v string) error {
	key, decision, ok := strings.Cut(v, "=")
	if !ok || !strings.Contains(key, "/") || decision == "" {
		return fmt.Errorf("want CMD/PAYLOAD=DECISION, got %q", v)
	}
	c.expects[key] = decision
	return nil
}

func (c *config) validate() error {
	if len(c.cmds) == 0 || len(c.payloads) == 0 {
		return errors.New("need at least one -cmd and one -payload")
	}
	if c.rounds < 1 || c.warmup < 0 {
		return fmt.Errorf("-n must be at least 1 and -warmup at least 0 (got %d, %d)", c.rounds, c.warmup)
	}
	if c.baseline == "" {
		c.baseline = c.cmds[0].name
	}
	for _, cmd := range c.cmds {
		if cmd.name == c.baseline {
			return nil
		}
	}
	return fmt.Errorf("-baseline %q is not one of the -cmd names", c.baseline)
}

// loadAverage is the first three fields of /proc/loadavg, or "unknown".
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// sample is one timed process.
type sample struct {
	wall   time.Duration
	cpu    time.Duration
	rssKB  int64
	faults int64
}

// outcome is what a command replied to a payload (last run).
type outcome struct {
	decision string
	stderr   string
}

// results are keyed by "cmd/payload".
type results struct {
	samples  map[string][]sample
	outcomes map[string]outcome
}

func measure(ctx context.Context, cfg *config) (*results, error) {
	res := &results{samples: map[string][]sample{}, outcomes: map[string]outcome{}}
	for round := range cfg.warmup + cfg.rounds {
		if err := res.round(ctx, cfg, round, round >= cfg.warmup); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// round runs every command on every payload once, starting with a different
// command each round.
func (r *results) round(ctx context.Context, cfg *config, round int, keep bool) error {
	for _, p := range cfg.payloads {
		for k := range cfg.cmds {
			c := cfg.cmds[(k+round)%len(cfg.cmds)]
			s, o, err := timeOne(ctx, c, p)
			if err != nil {
				return fmt.Errorf("%s on %s: %w", c.name, p.name, err)
			}
			key := c.name + "/" + p.name
			r.outcomes[key] = o
			if keep {
				r.samples[key] = append(r.samples[key], s)
			}
		}
	}
	return nil
}

func timeOne(ctx context.Context, c command, p payload) (sample, outcome, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, c.argv[0], c.argv[1:]...)
	if len(c.env) > 0 {
		cmd.Env = append(os.Environ(), c.env...)
	}
	cmd.Stdin = bytes.NewReader(p.data)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return sample{}, outcome{}, err
	}
	st := cmd.ProcessState
	s := sample{wall: wall, cpu: st.UserTime() + st.SystemTime(), rssKB: maxRSSKB(st), faults: pageFaults(st)}
	o := outcome{decision: decisionOf(st.ExitCode(), stdout.Bytes()), stderr: stderr.String()}
	return s, o, nil
}
