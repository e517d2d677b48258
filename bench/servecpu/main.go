// Command servecpu compares `toolguard serve`'s own CPU per decision
// between builds, side by side: for each build (a toolguard binary, or a
// git commit it builds in a temporary worktree) it starts `toolguard serve`
// with its audit log on, under a temporary HOME and XDG directories, on a
// free loopback port, and loads it with bench/serveload (`-url … -pid PID`)
// at each connection count. Every round runs every build once, in an order
// that turns round by round, so load from elsewhere on the machine falls on
// all builds alike; the table gives each build's median and range over the
// rounds: serve's CPU (user + system, /proc/PID/stat) per answered decision,
// decisions/s and p99, and the audit records written per decision (a build
// that records nothing is flagged: its figure is not comparable).
//
// A build argument may carry more arguments for serve after its first word,
// e.g. "noaudit=main --config=noaudit.toml" ([audit] disabled = true), to
// measure one binary two ways in the same rounds.
//
// The request mix is serveload's, built once from this checkout, so every
// build answers the same six calls. servecpu stops only the processes it
// started and removes its temporary directories and worktrees.
//
//	go run ./bench/servecpu main HEAD~20 HEAD~40
//	go run ./bench/servecpu -rounds 5 before=/tmp/tg-before after=/tmp/tg-after
//	bench/serve-cpu.sh 824b33b c5dd551 main        # the same, built first
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Bounds, so a mistake cannot turn a run into a flood or an endless one.
const (
	maxRounds   = 50
	maxBuilds   = 16
	maxRequests = 200_000
)

// config is what the flags say.
type config struct {
	rounds    int
	conns     []int
	requests  int // per run at more than one connection
	requests1 int // per run at one connection
	warmup    int
	serveload string
	repo      string
	keep      bool
	// userPolicy is a file every server reads as its user policy file
	// (a link to it in each home), or "".
	userPolicy string
	builds     []buildArg
}

// buildArg is one build to measure: Label=Path of a binary, or a commit.
type buildArg struct {
	label  string
	binary string // a toolguard binary, or empty for a commit
	commit string
	// args are more arguments for `toolguard serve` (words after the
	// first in the argument, e.g. "noaudit=main --config=noaudit.toml").
	args []string
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "servecpu:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "servecpu:", err)
		stop()
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	var conns string
	fs := flag.NewFlagSet("servecpu", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: servecpu [flags] BUILD...\n"+
			"BUILD is LABEL=PATH of a toolguard binary, PATH of one, or a git commit (built in a temporary worktree)")
		fs.PrintDefaults()
	}
	fs.IntVar(&c.rounds, "rounds", 5, fmt.Sprintf("rounds; each runs every build at every connection count (at most %d)", maxRounds))
	fs.StringVar(&conns, "c", "1,8,32", "connection counts, comma-separated")
	fs.IntVar(&c.requests, "n", 16000, "requests per run above one connection")
	fs.IntVar(&c.requests1, "n1", 5000, "requests per run at one connection")
	fs.IntVar(&c.warmup, "warmup", 1500, "requests at 8 connections after each start, not measured")
	fs.StringVar(&c.serveload, "serveload", "", "serveload binary (default: built from this checkout's bench/serveload)")
	fs.StringVar(&c.repo, "repo", ".", "git repository the commits are built from")
	fs.BoolVar(&c.keep, "keep", false, "keep the temporary directory (servers' state and audit logs) and print where")
	fs.StringVar(&c.userPolicy, "user-policy", "", "a policy file every server reads as its user policy (a symlink to it in each home): e.g. one with [[grants]], which serve reads on every ask")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	var err error
	if c.conns, err = parseConns(conns); err != nil {
		return c, err
	}
	switch {
	case c.rounds < 1 || c.rounds > maxRounds:
		return c, fmt.Errorf("-rounds %d: want 1 to %d", c.rounds, maxRounds)
	case c.requests < 1 || c.requests > maxRequests, c.requests1 < 1 || c.requests1 > maxRequests:
		return c, fmt.Errorf("-n %d, -n1 %d: want 1 to %d", c.requests, c.requests1, maxRequests)
	case c.warmup < 0 || c.warmup > maxRequests:
		return c, fmt.Errorf("-warmup %d: want 0 to %d", c.warmup, maxRequests)
	case fs.NArg() == 0 || fs.NArg() > maxBuilds:
		return c, fmt.Errorf("give 1 to %d builds (LABEL=BINARY, BINARY or COMMIT), got %d", maxBuilds, fs.NArg())
	}
	c.builds = parseBuilds(fs.Args())
	return c, nil
}

// parseConns reads "1,8,32".
func parseConns(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1024 {
			return nil, fmt.Errorf("-c %q: want connection counts from 1 to 1024, comma-separated", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseBuilds reads LABEL=BINARY, BINARY (a path that exists) or COMMIT.
func parseBuilds(args []string) []buildArg {
	var out []buildArg
	for _, arg := range args {
		words := strings.Fields(arg)
		if len(words) == 0 {
			continue
		}
		a, extra := words[0], words[1:]
		if len(extra) == 0 {
			extra = nil
		}
		label, path, hasLabel := strings.Cut(a, "=")
		if !hasLabel {
			label, path = a, a
		}
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			if !hasLabel {
				label = filepath.Base(filepath.Dir(path)) + "/" + filepath.Base(path)
			}
			out = append(out, buildArg{label: label, binary: path, args: extra})
			continue
		}
		out = append(out, buildArg{label: label, commit: path, args: extra})
	}
	return out
}

func run(ctx context.Context, c config, out, log io.Writer) error {
	tmp, err := os.MkdirTemp("", "servecpu-")
	if err != nil {
		return err
	}
	if c.keep {
		defer fmt.Fprintln(log, "servecpu: kept", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	bins, err := prepare(ctx, c, tmp, log)
	if err != nil {
		return err
	}
	load0 := loadAverage()
	start := time.Now()
	results, err := measure(ctx, c, bins, tmp, log)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "servecpu: %d rounds, %d builds, connections %v, %d requests per run (%d at one connection), %s\n",
		c.rounds, len(bins), c.conns, c.requests, c.requests1, time.Since(start).Round(time.Second))
	fmt.Fprintf(out, "load average before: %s; after: %s; %s\n\n", load0, loadAverage(), machine())
	return writeTable(out, c.conns, bins, results)
}
