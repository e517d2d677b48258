//go:build linux

package sandbox

import (
	"context"
	"fmt"
	"syscall"
	"time"
)

// run starts the prepared job, waits for it and builds the result.
func (j *job) run(ctx context.Context) (Result, error) {
	if (j.choice.backend == Landlock || j.choice.backend == None) && j.runID != "" { // the helper is our child: it joins before it runs anything
		if j.cgroup = newMemoryCgroup(j.runID, j.spec.Limits.Memory); j.cgroup != nil {
			defer j.cgroup.remove()
		}
	}
	p, err := j.start()
	if err != nil {
		return Result{}, err
	}
	o := p.wait(ctx, j.spec.Timeout, j.spec.Grace)
	duration := time.Since(p.started)
	if msg := p.setupError(); msg != "" {
		return Result{}, fmt.Errorf("sandbox: setting up the %s backend failed: %s", j.choice.backend, msg)
	}
	r := j.result(p, o, duration)
	if o.canceled {
		return r, fmt.Errorf("sandbox: run stopped: %w", context.Cause(ctx))
	}
	return r, nil
}

// result reads the exit status, classifies limit hits and fills the rest.
func (j *job) result(p *process, o outcome, duration time.Duration) Result {
	r := Result{
		ExitCode:   -1,
		TimedOut:   o.timedOut,
		Backend:    j.choice.backend,
		Unenforced: j.choice.unenforced,
		Truncated:  p.stdout.truncated || p.stderr.truncated,
		Duration:   duration,
	}
	if j.choice.backend == Landlock {
		r.LandlockABI = j.choice.abi
	}
	info := exitInfo{timedOut: o.timedOut, stderrTail: p.stderr.ends()}
	if st, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
		r.ExitCode, r.Signal = decodeStatus(st, j.choice.backend)
	}
	if ru, ok := p.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		info.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		info.maxRSS = ru.Maxrss * 1024
	}
	info.exitCode, info.signal = r.ExitCode, r.Signal
	r.LimitHit = limitHit(j.spec.Limits, info)
	if r.LimitHit == "" && j.cgroup != nil && j.cgroup.oomKilled() {
		r.LimitHit = "memory " + formatBytes(j.spec.Limits.Memory) + " for the whole run"
	}
	return r
}

// decodeStatus turns a wait status into (exit code, signal). bwrap and
// firejail report a child killed by signal N as exit status 128+N; that
// is mapped back to the signal.
func decodeStatus(st syscall.WaitStatus, b Backend) (int, syscall.Signal) {
	switch {
	case st.Signaled():
		return -1, st.Signal()
	case (b == Bubblewrap || b == Firejail) && st.ExitStatus() > 128 && st.ExitStatus() < 128+65:
		return -1, syscall.Signal(st.ExitStatus() - 128)
	}
	return st.ExitStatus(), 0
}
