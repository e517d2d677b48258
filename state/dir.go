package state

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/toolguard/toolguard/internal/xdg"
)

// AppName is the directory name used under the XDG base directories.
const AppName = xdg.AppName

// Dir returns toolguard's state directory: $XDG_STATE_HOME/toolguard, or
// ~/.local/state/toolguard when XDG_STATE_HOME is unset or not absolute (as
// the XDG base directory specification requires). It does not create the
// directory; see [Ensure].
func Dir() (string, error) { return xdg.StateDir() }

// ConfigDir returns toolguard's configuration directory:
// $XDG_CONFIG_HOME/toolguard, or ~/.config/toolguard.
func ConfigDir() (string, error) { return xdg.ConfigDir() }

// UserPolicyFile returns the path of the user policy file,
// ConfigDir()/policy.toml.
func UserPolicyFile() (string, error) {
	dir, err := ConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "policy.toml"), nil
}

// Ensure creates dir and its parents with mode 0700 when missing.
func Ensure(dir string) error {
	return os.MkdirAll(dir, 0o700)
}

// FileName turns an identifier chosen by someone else (a session id, a
// sender name) into a safe file name: ASCII letters, digits, '-' and '_'
// are kept, every other byte becomes %XX, and the empty identifier becomes
// "_". The result never contains a path separator and is never "." or "..",
// and distinct identifiers give distinct names.
func FileName(id string) string {
	if id == "" {
		return "_"
	}
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(id); i++ {
		c := id[i]
		if isSafeByte(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

func isSafeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
