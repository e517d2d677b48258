package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// WriteFile replaces path with data atomically: it writes a temporary file
// in the same directory, syncs it, renames it over path and syncs the
// directory. Readers see either the old or the new content, never a mix.
// The directory is created (0700) when missing.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return writeFile(path, data, perm, true)
}

// WriteFileUnsynced is [WriteFile] without the fsync calls: the replacement
// is still atomic for readers and survives a crash of the process, but a
// crash of the machine may lose the last writes (or, rarely, leave an empty
// file, which readers treat as empty). Use it for data that is cheap to
// lose and written on hot paths, such as budget counts; a sync costs
// milliseconds on many disks.
func WriteFileUnsynced(path string, data []byte, perm os.FileMode) error {
	return writeFile(path, data, perm, false)
}

func writeFile(path string, data []byte, perm os.FileMode, sync bool) error {
	dir := filepath.Dir(path)
	if err := Ensure(dir); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if err := writeTemp(tmp, data, perm, sync); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if !sync {
		return nil
	}
	return syncDir(dir)
}

func writeTemp(f *os.File, data []byte, perm os.FileMode, sync bool) error {
	_, werr := f.Write(data)
	cerr := f.Chmod(perm)
	var serr error
	if sync {
		serr = f.Sync()
	}
	return errors.Join(werr, cerr, serr, f.Close())
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// Lock is an exclusive inter-process lock held on a lock file.
type Lock struct {
	f *os.File
}

// Maximum wait between two attempts to take a contended lock.
const maxLockBackoff = 10 * time.Millisecond

// LockFile takes an exclusive flock(2) lock on path+".lock", creating it
// when missing, and waits until it is free or ctx is done. The lock lives on
// a separate file because the data file itself is replaced by rename on
// every atomic write. Locks are advisory: every toolguard process honours
// them. Release it with [Lock.Unlock].
func LockFile(ctx context.Context, path string) (*Lock, error) {
	if err := Ensure(filepath.Dir(path)); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := flockWait(ctx, f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

func flockWait(ctx context.Context, f *os.File) error {
	wait := 100 * time.Microsecond
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, maxLockBackoff)
	}
}

// Unlock releases the lock. It is safe to call on a nil *Lock.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	return errors.Join(err, l.f.Close())
}

// CorruptError reports a state file that could not be read and was moved
// aside. Callers fail closed: whatever the file held (grants, counts) does
// not apply until a person looks at it.
type CorruptError struct {
	// Path is the file that was corrupt.
	Path string
	// MovedTo is where it now lives; empty when moving it failed.
	MovedTo string
	// Err is the parse error.
	Err error
}

// Error says which file was corrupt, why, and where it went.
func (e *CorruptError) Error() string {
	if e.MovedTo == "" {
		return fmt.Sprintf("state file %s is corrupt (%v) and could not be moved aside; remove or repair it", e.Path, e.Err)
	}
	return fmt.Sprintf("state file %s was corrupt (%v); moved it to %s for inspection — a new file starts empty", e.Path, e.Err, e.MovedTo)
}

// Unwrap returns the parse error.
func (e *CorruptError) Unwrap() error { return e.Err }

// SetAside renames a corrupt file to "<path>.corrupt-<UTC time>" and returns
// a *CorruptError describing what happened; reason is the parse error. The
// caller must hold the file's lock.
func SetAside(path string, reason error) error {
	dst := path + ".corrupt-" + time.Now().UTC().Format("20060102T150405.000000000Z")
	if err := os.Rename(path, dst); err != nil {
		return &CorruptError{Path: path, Err: errors.Join(reason, err)}
	}
	return &CorruptError{Path: path, MovedTo: dst, Err: reason}
}

// Locker is a reusable form of [LockFile] for long-lived writers: the lock
// file stays open between uses, saving an open and a close per lock. A
// Locker is not safe for concurrent use; guard it with a mutex.
type Locker struct {
	path string
	f    *os.File
}

// NewLocker returns a Locker on path+".lock"; nothing is opened yet.
func NewLocker(path string) *Locker { return &Locker{path: path} }

// Lock takes the lock, waiting until it is free or ctx is done.
func (l *Locker) Lock(ctx context.Context) error {
	if l.f == nil {
		if err := Ensure(filepath.Dir(l.path)); err != nil {
			return err
		}
		f, err := os.OpenFile(l.path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		l.f = f
	}
	if err := flockWait(ctx, l.f); err != nil {
		return fmt.Errorf("lock %s: %w", l.path, err)
	}
	return nil
}

// Unlock releases the lock and keeps the lock file open.
func (l *Locker) Unlock() error {
	if l.f == nil {
		return nil
	}
	return unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
}

// Close closes the lock file (releasing the lock if held).
func (l *Locker) Close() error {
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
