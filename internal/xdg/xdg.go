// Package xdg finds toolguard's directories under the XDG base directory
// specification.
package xdg

import (
	"errors"
	"os"
	"path/filepath"
)

// AppName is the directory name used under the XDG base directories.
const AppName = "toolguard"

// StateDir is $XDG_STATE_HOME/toolguard, or ~/.local/state/toolguard when
// XDG_STATE_HOME is unset or not absolute.
func StateDir() (string, error) { return Dir("XDG_STATE_HOME", filepath.Join(".local", "state")) }

// ConfigDir is $XDG_CONFIG_HOME/toolguard, or ~/.config/toolguard.
func ConfigDir() (string, error) { return Dir("XDG_CONFIG_HOME", ".config") }

// Dir is $env/toolguard when env names an absolute path (as the
// specification requires), else ~/fallback/toolguard.
func Dir(env, fallback string) (string, error) {
	if base := os.Getenv(env); filepath.IsAbs(base) {
		return filepath.Join(base, AppName), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return "", errors.New("cannot locate the " + AppName + " directory: set " + env + " or HOME to an absolute path")
	}
	return filepath.Join(home, fallback, AppName), nil
}
