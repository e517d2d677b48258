package server

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolguard/toolguard/state"
)

// TokenFileName is the token file's name inside the state directory.
const TokenFileName = "serve.token"

// PageKeyFileName is the name inside the state directory of the file
// holding the page key of a server that requires a token: the key people
// answer approvals with, which agents holding the API token never see.
const PageKeyFileName = "serve-page.token"

// DefaultPageKeyFile returns <state dir>/serve-page.token.
func DefaultPageKeyFile() (string, error) {
	dir, err := state.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, PageKeyFileName), nil
}

// minTokenLen rejects token files too short to be secret.
const minTokenLen = 32

// DefaultTokenFile returns <state dir>/serve.token.
func DefaultTokenFile() (string, error) {
	dir, err := state.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, TokenFileName), nil
}

// LoadOrCreateToken reads the bearer token from path, or, when the file
// does not exist, generates one (256 bits from crypto/rand) and stores it
// with mode 0600. created reports a new token. A token file readable by
// group or others, or holding a short token, is an error.
func LoadOrCreateToken(path string) (token string, created bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createToken(path)
	}
	if err != nil {
		return "", false, fmt.Errorf("token file: %w", err)
	}
	if err := checkTokenMode(path); err != nil {
		return "", false, err
	}
	token = strings.TrimSpace(string(data))
	if len(token) < minTokenLen {
		return "", false, fmt.Errorf("token file %s holds %d characters; a token needs at least %d (delete the file to generate one)", path, len(token), minTokenLen)
	}
	return token, false, nil
}

func checkTokenMode(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("token file: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("token file %s has mode %04o; run chmod 600 %s (the token must be private)", path, fi.Mode().Perm(), path)
	}
	return nil
}

func createToken(path string) (string, bool, error) {
	var buf [32]byte
	if _, err := rand.Read(buf[:]); err != nil {
		return "", false, fmt.Errorf("generate token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(buf[:])
	if err := state.Ensure(filepath.Dir(path)); err != nil {
		return "", false, fmt.Errorf("token directory: %w", err)
	}
	if err := state.WriteFile(path, []byte(token+"\n"), 0o600); err != nil {
		return "", false, fmt.Errorf("write token file: %w", err)
	}
	return token, true, nil
}
