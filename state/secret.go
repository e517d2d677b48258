package state

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MinSecretLen is the fewest characters a secret file (a token, a page
// key, a fleet key) may hold.
const MinSecretLen = 32

// CreateFile writes data to path only when no file is there yet. The data
// is written and synced to a temporary file in the same directory, which
// is then linked to path: a reader never sees a partial file, and of
// several processes creating path at once exactly one succeeds. created
// is false when path already existed; its content is left as it was. The
// directory is created (0700) when missing.
func CreateFile(path string, data []byte, perm os.FileMode) (created bool, err error) {
	dir := filepath.Dir(path)
	if err := Ensure(dir); err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".new-*")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	if err := writeTemp(tmp, data, perm, true); err != nil {
		return false, err
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, err
	}
	return true, syncDir(dir)
}

// LoadOrCreateSecret reads the secret held in the file path (surrounding
// white space trimmed), or, when there is no such file, generates one
// (256 bits from crypto/rand, URL-safe base64) and creates the file with
// mode 0600. Processes that start together agree: the file is created
// exclusively ([CreateFile]) and whoever loses the race reads the
// winner's. created reports that this call made the file. A file readable
// by group or others, or holding fewer than MinSecretLen characters, is an
// error naming the file and the fix.
func LoadOrCreateSecret(path string) (secret string, created bool, err error) {
	secret, err = readSecret(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return secret, false, err
	}
	var buf [32]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return "", false, fmt.Errorf("generating a secret for %s: %w", path, err)
	}
	fresh := base64.RawURLEncoding.EncodeToString(buf[:])
	created, err = CreateFile(path, []byte(fresh+"\n"), 0o600)
	if err != nil {
		return "", false, fmt.Errorf("writing %s: %w", path, err)
	}
	if created {
		return fresh, true, nil
	}
	secret, err = readSecret(path) // another process made it first: theirs holds
	return secret, false, err
}

// ReadSecret reads the secret held in the file path, with the checks of
// [LoadOrCreateSecret]; a missing file is an error (fs.ErrNotExist).
func ReadSecret(path string) (string, error) { return readSecret(path) }

func readSecret(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s has mode %04o; run chmod 600 %s (it holds a secret)", path, fi.Mode().Perm(), path)
	}
	data, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	secret := strings.TrimSpace(string(data))
	if len(secret) < MinSecretLen {
		return "", fmt.Errorf("%s holds %d characters; a secret needs at least %d (delete the file to generate one)", path, len(secret), MinSecretLen)
	}
	return secret, nil
}
