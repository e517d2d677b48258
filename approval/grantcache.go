package approval

import (
	"slices"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// alwaysCache keeps the always grants last parsed from the user policy
// file, with the file's stamp when it was read, so that a server asking
// for them on every ask reads and parses the file only when it changed:
// with a policy file of a few grants, a read and a TOML parse cost some
// tens of microseconds and five system calls; checking the stamp costs
// one stat.
//
// Why a stat suffices: any change to the file's contents or metadata sets
// its change time (ctime) to the current time, and no call sets ctime to
// a chosen value; a replacement (AddAlways renames a new file over it) is
// another file (device, inode) and has a new ctime too, even where the
// inode number is reused. The stamp is the device, inode, size, mtime and
// ctime. One race remains: file times are kept to a clock tick (a few
// milliseconds), so a change in the same tick as the stamp was taken may
// keep the stamp. The cache therefore keeps a file only once its ctime is
// settleAfter older than the clock, as git treats a "racily clean" index:
// a file changed in the last moments is read again every time, until it
// has been left alone for settleAfter.
type alwaysCache struct {
	mu     sync.Mutex
	file   string
	stamp  fileStamp
	grants []Grant
}

// settleAfter is how long a file's ctime must lie in the past for its
// grants to be kept: far above any file system's timestamp granularity
// (ext4, xfs, btrfs and tmpfs keep a kernel tick; FAT two seconds).
const settleAfter = 3 * time.Second

// fileStamp is what tells whether a file changed since it was read.
type fileStamp struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds since the epoch
}

// statStamp stats file (following links, as reading it does); ok is false
// when it cannot be stat-ed (the caller reads it, and reports what that
// finds), and missing says it does not exist: then there is nothing to
// read (the file made a moment later is read by the next call, as it
// would be had the read come first).
func statStamp(file string) (stamp fileStamp, ok, missing bool) {
	var st unix.Stat_t
	for {
		err := unix.Stat(file, &st)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return fileStamp{}, false, err == unix.ENOENT
		}
		break
	}
	return fileStamp{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size, //nolint:unconvert // their types differ between systems
		mtime: unix.TimespecToNsec(st.Mtim), ctime: unix.TimespecToNsec(st.Ctim)}, true, false
}

// get returns a copy of the grants kept for file when its stamp is still
// stamp.
func (c *alwaysCache) get(file string, stamp fileStamp) ([]Grant, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file != file || c.stamp != stamp || c.file == "" {
		return nil, false
	}
	return slices.Clone(c.grants), true // the caller may append to it
}

// put keeps grants parsed from file, which had stamp before it was read,
// when the file had settled by then (now).
func (c *alwaysCache) put(file string, stamp fileStamp, grants []Grant, now time.Time) {
	if now.UnixNano()-stamp.ctime < int64(settleAfter) || now.UnixNano()-stamp.mtime < int64(settleAfter) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.file, c.stamp, c.grants = file, stamp, slices.Clone(grants)
}
