package analysis

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Trees gives the analysis the names below a directory a command copies,
// moves or links: a recursive copy writes every path its source holds
// (cp -r evil/. . writes ./.claude/settings.local.json when evil/ holds
// one), so those paths are judged as written. Only names are read, never
// what the files hold.
type Trees interface {
	// List returns the paths below the canonical directory dir, relative
	// to it ("a", "a/b"), without following symbolic links. It returns
	// at most max of them: a tree that holds more gives ErrTooLarge (the
	// copy cannot be judged whole, which makes it unverifiable). A dir
	// that is not a directory gives ErrNotExist.
	List(dir string, max int) ([]string, error)
}

// maxTreeEntries bounds the entries of one source tree or archive listed
// for a call; more makes the copy or extraction unverifiable.
const maxTreeEntries = 20000

// maxJudgedEntries bounds the entries of one tree or archive the judge
// weighs (those configNames keeps); more is unverifiable too.
const maxJudgedEntries = 512

// configNames keeps the entries of a listed tree that can be
// configuration the policy protects: a path with a component that starts
// with a dot (.claude/settings.local.json, .config/toolguard/policy.toml,
// .toolguard.toml, .github/hooks/…), the agents' configuration files
// named without one (opencode.json, kilo.json) and a program named
// toolguard. The others (sources, node_modules' packages) are written
// under the destination, whose own tree the rule packs already judge; a
// tree of ten thousand source files costs a listing, not ten thousand
// judgements.
func configNames(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if strings.HasPrefix(part, ".") && part != "." && part != ".." {
			return true
		}
	}
	switch path.Base(rel) {
	case "opencode.json", "opencode.jsonc", "kilo.json", "kilo.jsonc", "toolguard", "toolguard.exe":
		return true
	}
	return false
}

// DiskTrees lists directories on the machine's file system.
type DiskTrees struct{}

var errStop = errors.New("stop")

// List walks dir in lexical order.
func (DiskTrees) List(dir string, max int) ([]string, error) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil, ErrNotExist
	}
	var out []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return ErrUnreadable
		}
		if p == dir {
			return nil
		}
		if len(out) == max {
			return errStop
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return ErrUnreadable
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	switch {
	case errors.Is(err, errStop):
		return out, ErrTooLarge
	case err != nil:
		return out, err
	}
	return out, nil
}
