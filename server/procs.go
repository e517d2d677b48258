package server

import (
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
)

// Adapting GOMAXPROCS. While a server decides one call at a time (an agent
// waits for each answer before its next call: the usual case on a
// laptop), every processor beyond the first costs without helping: the Go
// scheduler wakes an idle thread for each goroutine a request readies
// (net/http starts one per request), the thread spins looking for work,
// finds none and sleeps again. Measured on two cores, one connection:
// 136–147 µs of serve's CPU per decision with two processors, 102–104 µs
// with one. With Options.AdaptProcs the server runs on one processor after
// procsQuietTicks ticks in which no two calls were in flight at once, and
// on the runtime's default again as soon as two are, or as soon as the one
// processor is nearly saturated (the process used procsBusy of a core over
// a tick: one processor decides calls one after another however many
// connections wait, so only its load shows that more would help); after
// that, it stays on the default for procsHoldTicks ticks. The limits, the
// deadlines and every answer are the same either way; only how many
// threads run Go code at once changes.

// The controller's tick, and how many ticks it waits.
const (
	procsTick       = 200 * time.Millisecond
	procsQuietTicks = 2    // ticks without two calls at once before one processor
	procsHoldTicks  = 10   // ticks on the default after one processor was saturated
	procsBusy       = 0.85 // share of one core that counts as saturated
)

// procs counts the calls in flight and tells its controller (run) when two
// overlap. The zero value is ready; its methods are safe for concurrent
// use.
type procs struct {
	inflight atomic.Int32
	peak     atomic.Int32 // the most calls in flight at once since the last tick
	one      atomic.Bool  // GOMAXPROCS is 1 by the controller's doing
	wake     chan struct{}
	// run's goroutine only: ticks in a row without two calls at once,
	// ticks left on the default, the process's CPU time at the last tick.
	quiet, hold int
	lastCPU     time.Duration
	lastTick    time.Time
}

func newProcs() *procs { return &procs{wake: make(chan struct{}, 1)} }

// enter counts a call in; leave must follow. A nil procs counts nothing.
func (p *procs) enter() {
	if p == nil {
		return
	}
	n := p.inflight.Add(1)
	for {
		pk := p.peak.Load()
		if n <= pk || p.peak.CompareAndSwap(pk, n) {
			break
		}
	}
	if n >= 2 && p.one.Load() {
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
}

// leave counts a call out.
func (p *procs) leave() {
	if p != nil {
		p.inflight.Add(-1)
	}
}

// procsSetter changes the number of processors: one, or the runtime's
// default (runtime.SetDefaultGOMAXPROCS, which follows a container's CPU
// limit as at start).
type procsSetter interface {
	setOne()
	setDefault()
}

type runtimeProcs struct{}

func (runtimeProcs) setOne()     { runtime.GOMAXPROCS(1) }
func (runtimeProcs) setDefault() { runtime.SetDefaultGOMAXPROCS() }

// run is the controller (see the top of this file). cpu reads the
// process's CPU time. It returns when stop is closed, leaving the default
// in place.
func (p *procs) run(set procsSetter, cpu func() time.Duration, tick <-chan time.Time, stop <-chan struct{}) {
	p.lastCPU, p.lastTick = cpu(), time.Now()
	for {
		select {
		case <-stop:
			p.raise(set)
			return
		case <-p.wake:
			p.raise(set)
		case now := <-tick:
			p.onTick(set, now, cpu())
		}
	}
}

// onTick is one tick of the controller at time now, with the process's CPU
// time used so far (run's goroutine only).
func (p *procs) onTick(set procsSetter, now time.Time, used time.Duration) {
	busy := false
	if wall := now.Sub(p.lastTick); wall > 0 {
		busy = float64(used-p.lastCPU) >= procsBusy*float64(wall)
	}
	p.lastCPU, p.lastTick = used, now
	overlap := p.peak.Swap(p.inflight.Load()) >= 2
	switch {
	case busy && p.one.Load():
		p.raise(set)
		p.hold = procsHoldTicks
	case overlap:
		p.raise(set)
	case p.hold > 0:
		p.hold--
	default:
		if p.quiet++; p.quiet >= procsQuietTicks && !p.one.Load() {
			set.setOne()
			p.one.Store(true)
		}
	}
}

// raise puts the default back if the controller lowered it (run's
// goroutine only).
func (p *procs) raise(set procsSetter) {
	if p.one.Load() {
		set.setDefault()
		p.one.Store(false)
	}
	p.quiet = 0
}

// processCPU is the CPU time (user and system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
