//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// systemDirs are readable and executable in every confined run.
var systemDirs = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
	"/etc", "/run/systemd/resolve",
}

// deviceFiles may be opened read-write in every confined run.
var deviceFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// secretSystemFiles are patterns (filepath.Match) for files under the system
// directories that hold secrets and stay hidden even though their directory
// is readable.
var secretSystemFiles = []string{
	"/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-",
	"/etc/sudoers", "/etc/sudoers.d", "/etc/ssh/ssh_host_*_key",
	"/etc/ssl/private", "/etc/security/opasswd", "/etc/krb5.keytab",
}

// isSecretSystemFile reports whether path matches secretSystemFiles.
func isSecretSystemFile(path string) bool {
	for _, pattern := range secretSystemFiles {
		if ok, _ := filepath.Match(pattern, path); ok {
			return true
		}
	}
	return false
}

// holdsSecretSystemFile reports whether dir is an ancestor of (or the
// directory holding) a secret system file pattern.
func holdsSecretSystemFile(dir string) bool {
	for _, pattern := range secretSystemFiles {
		parent := filepath.Dir(pattern)
		if parent == dir || strings.HasPrefix(parent, dir+"/") {
			return true
		}
	}
	return false
}

// grant is a set of paths to allow, split by kind because Landlock gives
// directories and files different rights.
type grant struct {
	dirs, files []string
}

// add records the real path (symbolic links resolved) of an existing path
// under its kind: the rules are enforced on real paths and refuse a link
// found in one then. A missing path or one that resolves to a secret
// system file is skipped.
func (g *grant) add(path string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil || isSecretSystemFile(real) {
		return
	}
	info, err := os.Stat(real)
	switch {
	case err != nil:
	case info.IsDir():
		g.dirs = appendNew(g.dirs, real)
	default:
		g.files = appendNew(g.files, real)
	}
}

// appendNew appends p unless list holds it.
func appendNew(list []string, p string) []string {
	if slices.Contains(list, p) {
		return list
	}
	return append(list, p)
}

// addTree grants dir, or when it holds secret system files, each of its
// entries except those, recursively.
func (g *grant) addTree(dir string) {
	if !holdsSecretSystemFile(dir) {
		g.add(dir)
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case isSecretSystemFile(path):
		case e.IsDir():
			g.addTree(path)
		default:
			g.add(path)
		}
	}
}

// systemGrant returns the read-only system paths present on this machine.
func systemGrant() grant {
	var g grant
	for _, dir := range systemDirs {
		g.addTree(dir)
	}
	return g
}

// secretSystemPaths expands secretSystemFiles to the paths that exist here.
func secretSystemPaths() []string {
	var out []string
	for _, pattern := range secretSystemFiles {
		matches, _ := filepath.Glob(pattern)
		out = append(out, matches...)
	}
	return out
}
