package paths

import "strings"

// harmlessDevices are device files any access but delete may touch.
var harmlessDevices = map[string]bool{
	"/dev/null": true, "/dev/zero": true, "/dev/full": true,
	"/dev/random": true, "/dev/urandom": true,
	"/dev/stdin": true, "/dev/stdout": true, "/dev/stderr": true,
	"/dev/tty": true,
}

// harmlessProcReads are kernel files that describe the machine (its
// processors, memory, disks, mounts, limits and load) and hold no secret;
// they may be read. A process's own files (/proc/self/environ,
// /proc/1/status) and the kernel's memory (/proc/kcore) are not among them.
var harmlessProcReads = map[string]bool{
	"/proc/cpuinfo": true, "/proc/meminfo": true, "/proc/version": true,
	"/proc/loadavg": true, "/proc/uptime": true, "/proc/partitions": true,
	"/proc/diskstats": true, "/proc/filesystems": true, "/proc/mounts": true,
	"/proc/swaps": true, "/proc/stat": true, "/proc/vmstat": true,
	"/proc/devices": true, "/proc/interrupts": true, "/proc/zoneinfo": true,
	"/proc/buddyinfo": true, "/proc/modules": true,
	"/proc/sys/kernel/osrelease": true, "/proc/sys/kernel/ostype": true,
	"/proc/sys/fs/file-max": true, "/proc/sys/fs/inotify/max_user_watches": true,
	"/proc/sys/vm/max_map_count": true, "/proc/sys/vm/overcommit_memory": true,
	"/sys/fs/cgroup/cpu.max": true, "/sys/fs/cgroup/memory.max": true,
	"/sys/fs/cgroup/memory.current": true, "/sys/fs/cgroup/pids.max": true,
}

// systemAreas are the kernel's virtual file systems, denied for every access
// except the harmless files above.
var systemAreas = [...]string{"/proc", "/sys", "/dev"}

// isHarmlessDevice reports whether p is a harmless device, including the
// descriptors /dev/fd/N.
func isHarmlessDevice(p string) bool {
	if harmlessDevices[p] {
		return true
	}
	n, ok := strings.CutPrefix(p, "/dev/fd/")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// systemArea returns the system area p lies in, or "" when it lies in none
// or is a harmless file for access a.
func systemArea(p string, a Access) string {
	for _, area := range systemAreas {
		if !within(p, area) {
			continue
		}
		if a != Delete && isHarmlessDevice(p) || a == Read && harmlessProcReads[p] {
			return ""
		}
		return area
	}
	return ""
}

// within reports whether p is dir or lies under it. Both are clean and
// absolute.
func within(p, dir string) bool {
	if dir == "/" {
		return true
	}
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}
