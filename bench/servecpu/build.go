package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// build is a binary ready to measure.
type build struct {
	label  string
	binary string
	commit string   // the full hash, for a build made from a commit
	args   []string // more arguments for serve
}

// prepare builds serveload (unless given) and every commit, each in a
// temporary worktree removed once its binary is built.
func prepare(ctx context.Context, c config, tmp string, log io.Writer) ([]build, error) {
	if c.serveload == "" {
		c.serveload = filepath.Join(tmp, "serveload")
		fmt.Fprintln(log, "servecpu: building bench/serveload from this checkout")
		if err := goBuild(ctx, ".", c.serveload, "./bench/serveload"); err != nil {
			return nil, fmt.Errorf("building serveload (run from the repository root, or give -serveload): %w", err)
		}
	}
	serveloadPath = c.serveload
	var out []build
	for i, b := range c.builds {
		if b.binary != "" {
			abs, err := filepath.Abs(b.binary)
			if err != nil {
				return nil, err
			}
			out = append(out, build{label: b.label, binary: abs, args: b.args})
			continue
		}
		bin := filepath.Join(tmp, fmt.Sprintf("toolguard-%d", i))
		hash, err := buildCommit(ctx, c.repo, b.commit, bin, tmp, log)
		if err != nil {
			return nil, err
		}
		out = append(out, build{label: b.label, binary: bin, commit: hash, args: b.args})
	}
	return out, nil
}

// serveloadPath is the load generator every run uses.
var serveloadPath string

// buildCommit builds cmd/toolguard at commit into bin and returns the
// commit's hash.
func buildCommit(ctx context.Context, repo, commit, bin, tmp string, log io.Writer) (string, error) {
	hash, err := gitOut(ctx, repo, "rev-parse", "--verify", commit+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%q is neither a file nor a commit of %s: %w", commit, repo, err)
	}
	wt := filepath.Join(tmp, "wt-"+hash[:12])
	if _, err := gitOut(ctx, repo, "worktree", "add", "--detach", wt, hash); err != nil {
		return "", fmt.Errorf("worktree for %s: %w", commit, err)
	}
	defer func() {
		// A fresh context: the worktree goes even after an interrupt.
		if _, err := gitOut(context.Background(), repo, "worktree", "remove", "--force", wt); err != nil {
			fmt.Fprintf(log, "servecpu: removing worktree %s: %v\n", wt, err)
		}
	}()
	fmt.Fprintf(log, "servecpu: building toolguard at %s (%s)\n", commit, hash[:12])
	if err := goBuild(ctx, wt, bin, "./cmd/toolguard"); err != nil {
		return "", fmt.Errorf("building %s: %w", commit, err)
	}
	return hash, nil
}

func goBuild(ctx context.Context, dir, out, pkg string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = dir
	msg, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(string(msg)))
	}
	return nil
}

func gitOut(ctx context.Context, repo string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", repo}, args...)...)
	cmd.Stderr = nil
	b, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// loadAverage is the first three fields of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// machine names the CPU model and count.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%d × %s", numCPU(), model)
}
