//go:build linux

package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cgroupRoot is where the cgroup file systems are mounted; a variable so
// tests can point it elsewhere.
var cgroupRoot = "/sys/fs/cgroup"

// memoryCgroup holds a run's processes under one memory limit for the
// whole run, where toolguard may make a cgroup: a child of its own cgroup
// in the v2 hierarchy with the memory controller delegated, or in the v1
// memory hierarchy when that directory is writable (root, or a delegated
// subtree). RLIMIT_DATA still limits each process; the cgroup limits them
// together, children and grandchildren included.
type memoryCgroup struct {
	dir string
	v2  bool
}

// newMemoryCgroup makes the run's cgroup with the limit, or returns nil
// when no cgroup can be made here (the per-process limit then stands
// alone).
func newMemoryCgroup(runID string, limit int64) *memoryCgroup {
	if limit <= 0 {
		return nil
	}
	v2dir, v1dir := ownCgroups()
	for _, c := range []*memoryCgroup{{dir: v2dir, v2: true}, {dir: v1dir}} {
		if c.dir == "" {
			continue
		}
		if c.v2 && !hasWord(filepath.Join(c.dir, "cgroup.subtree_control"), "memory") {
			continue // the memory controller is not delegated to our children
		}
		child := &memoryCgroup{dir: filepath.Join(c.dir, "toolguard-"+runID), v2: c.v2}
		if err := os.Mkdir(child.dir, 0o755); err != nil {
			continue
		}
		file, value := "memory.limit_in_bytes", strconv.FormatInt(limit, 10)
		if c.v2 {
			file = "memory.max"
			_ = os.WriteFile(filepath.Join(child.dir, "memory.swap.max"), []byte("0"), 0) // the limit is not moved to swap
		}
		if err := os.WriteFile(filepath.Join(child.dir, file), []byte(value), 0); err != nil {
			_ = os.Remove(child.dir)
			continue
		}
		return child
	}
	return nil
}

// ownCgroups are the directories of this process's cgroup in the v2
// hierarchy and in the v1 memory hierarchy, "" where there is none.
func ownCgroups() (v2, v1 string) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			if dir := filepath.Join(cgroupRoot, parts[2]); isFile(filepath.Join(dir, "cgroup.controllers")) {
				v2 = dir
			}
		case hasItem(parts[1], "memory"):
			if dir := filepath.Join(cgroupRoot, "memory", parts[2]); isFile(filepath.Join(dir, "memory.limit_in_bytes")) {
				v1 = dir
			}
		}
	}
	return v2, v1
}

// add moves a process (and the children it starts afterwards) into the
// cgroup.
func (c *memoryCgroup) add(pid int) error {
	return os.WriteFile(filepath.Join(c.dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0)
}

// oomKilled reports whether the kernel killed a process of the run for the
// cgroup's limit.
func (c *memoryCgroup) oomKilled() bool {
	file := "memory.oom_control" // v1: "oom_kill N" on kernels ≥ 4.13
	if c.v2 {
		file = "memory.events"
	}
	data, err := os.ReadFile(filepath.Join(c.dir, file))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if n, ok := strings.CutPrefix(line, "oom_kill "); ok && strings.TrimSpace(n) != "0" {
			return true
		}
	}
	return false
}

// remove deletes the cgroup once its processes are gone (a killed run's
// processes may take a moment to leave it).
func (c *memoryCgroup) remove() {
	for deadline := time.Now().Add(2 * time.Second); ; {
		err := os.Remove(c.dir)
		if err == nil || errors.Is(err, os.ErrNotExist) || time.Now().After(deadline) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func hasWord(file, word string) bool {
	data, err := os.ReadFile(file)
	return err == nil && hasItem(strings.Join(strings.Fields(string(data)), ","), word)
}

func hasItem(list, item string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == item {
			return true
		}
	}
	return false
}

func isFile(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
