package server

import (
	"fmt"
	"path/filepath"

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
const minTokenLen = state.MinSecretLen

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
// with mode 0600. created reports a new token. Servers that start together
// on a missing file agree on one token: the file is created exclusively
// and the others read it (state.LoadOrCreateSecret). A token file readable
// by group or others, or holding a short token, is an error.
func LoadOrCreateToken(path string) (token string, created bool, err error) {
	token, created, err = state.LoadOrCreateSecret(path)
	if err != nil {
		return "", false, fmt.Errorf("token file %w", err)
	}
	return token, created, nil
}
