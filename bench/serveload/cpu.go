package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTicks is the unit of /proc/PID/stat's times (USER_HZ), 100 on every
// Linux this runs on.
const clockTicks = 100

// cpuMeter reads the CPU time (user + system) of what is measured: the
// server process named by -pid, or else this process (an in-process server
// and its clients together).
type cpuMeter struct{ pid int }

// read returns the CPU time used so far.
func (m cpuMeter) read() (time.Duration, error) {
	if m.pid == 0 {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0, err
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", m.pid))
	if err != nil {
		return 0, fmt.Errorf("-pid %d: %w", m.pid, err)
	}
	return statCPU(string(b))
}

// statCPU parses utime and stime (fields 14 and 15) of a /proc/PID/stat
// line; the command name in parentheses may hold spaces and parentheses.
func statCPU(line string) (time.Duration, error) {
	i := strings.LastIndexByte(line, ')')
	if i < 0 {
		return 0, fmt.Errorf("not a /proc stat line: %.40q", line)
	}
	f := strings.Fields(line[i+1:]) // f[0] is field 3, the state
	if len(f) < 13 {
		return 0, fmt.Errorf("short /proc stat line: %.40q", line)
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc stat time %q: %w", s, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}
