package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Apply writes a planned change: it checks the file still holds
// c.Before, keeps the old content in File+BackupSuffix, and replaces the file
// atomically (a temporary file renamed over it), keeping its permissions.
// An unchanged plan writes nothing.
func Apply(c Change) error {
	for _, e := range c.Extra {
		if err := applyFile(e); err != nil {
			return err
		}
	}
	return applyFile(c)
}

// applyFile applies the change of c.File alone.
func applyFile(c Change) error {
	if !c.fileChanged() {
		return nil
	}
	now, err := readOptional(c.File)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, c.Before) || (now == nil) != (c.Before == nil) {
		return fmt.Errorf("%s changed since the plan was made; run the command again", c.File)
	}
	mode, file := fileMode(c.File), resolveLink(c.File)
	// KeepBackup: Before holds toolguard's hook, so it is no backup of the
	// person's file; the backup there (if any) is, and stays.
	if c.Before != nil && !c.Uninstall && !c.KeepBackup {
		if err := writeAtomic(c.File+BackupSuffix, c.Before, mode); err != nil {
			return fmt.Errorf("keeping a backup of %s: %w", c.File, err)
		}
	}
	if c.Uninstall && c.DropBackup {
		// Restoring the backup restores its permissions too (install may
		// have added the executable bits).
		if b, err := os.ReadFile(c.File + BackupSuffix); err == nil && bytes.Equal(b, c.After) {
			mode = fileMode(c.File + BackupSuffix)
		}
	}
	if err := write(file, c.After, mode|c.Mode); err != nil {
		return err
	}
	if c.DropBackup {
		if err := os.Remove(c.File + BackupSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the backup %s, which holds toolguard's hook: %w", c.File+BackupSuffix, err)
		}
	}
	if c.After == nil {
		return removeEmptyDirs(filepath.Dir(c.File), c.Root)
	}
	return nil
}

// removeEmptyDirs removes dir and its parents up to root (not root
// itself) while they are empty directories, so that uninstall leaves no
// directory install made for a file. A directory that holds anything, a
// symbolic link, or one not under root is left alone.
func removeEmptyDirs(dir, root string) error {
	if root == "" {
		return nil
	}
	dir, root = filepath.Clean(dir), filepath.Clean(root)
	for strings.HasPrefix(dir, root+string(filepath.Separator)) {
		st, err := os.Lstat(dir)
		if err != nil || !st.IsDir() {
			return nil
		}
		entries, err := os.ReadDir(dir)
		if err != nil || len(entries) > 0 {
			return nil
		}
		if err := os.Remove(dir); err != nil {
			return fmt.Errorf("removing the directory %s, empty once toolguard's file is gone: %w", dir, err)
		}
		dir = filepath.Dir(dir)
	}
	return nil
}

// write replaces file with data atomically, or removes it when data is nil.
func write(file string, data []byte, mode fs.FileMode) error {
	if data == nil {
		return os.Remove(file)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return writeAtomic(file, data, mode)
}

// resolveLink follows a symlinked settings file (dotfile managers link
// them), so the rename replaces the file it points to, not the link.
func resolveLink(path string) string {
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		return resolved
	}
	return path
}

func fileMode(path string) fs.FileMode {
	if st, err := os.Stat(path); err == nil {
		return st.Mode().Perm()
	}
	return 0o644
}

// writeAtomic writes data to a temporary file next to path and renames it
// over path, so readers see the old or the new content, never a mix.
func writeAtomic(path string, data []byte, mode fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	err = errors.Join(tmp.Chmod(mode), tmp.Sync(), tmp.Close())
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
