package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/paths"
)

// maxListed bounds the names one directory listing returns: a directory
// with more cannot be judged (go generate ./... over it is unverifiable).
const maxListed = 4096

// List returns the names in the directory dir, a trailing "/" on
// directories, for the build runners that find their files by listing
// (go generate ./..., pytest's conftest.py files): an [analysis.DirLister].
// It follows the path rules as Read does, and charges the call's work
// budget for each name.
// A directory listed again in the same call (eslint and prettier each
// walking up the same parents) is answered from the first listing.
func (d *diskFiles) List(dir string) ([]string, error) {
	if l, ok := d.lists[dir]; ok {
		if !d.budget.Spend(memoCost) {
			return nil, errWorkLimit
		}
		return slices.Clone(l.names), l.err
	}
	names, err := d.list(dir)
	if errors.Is(err, errWorkLimit) {
		return nil, err // not remembered: nothing was decided about the directory
	}
	if d.lists == nil {
		d.lists = map[string]dirList{}
	}
	d.lists[dir] = dirList{names, err}
	return slices.Clone(names), err
}

// list is List without the memo.
func (d *diskFiles) list(dir string) ([]string, error) {
	if !d.budget.Spend(pathCost) {
		return nil, errWorkLimit
	}
	cp, err := paths.Canonicalize(dir, d.env, d.p.home)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	}
	if why := d.forbidden(cp); why != "" {
		return nil, fmt.Errorf("%w: %s", analysis.ErrUnreadable, why)
	}
	names, err := readDirNames(cp.Resolved, maxListed+1)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, analysis.ErrNotExist
	case err != nil:
		return nil, fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	case len(names) > maxListed:
		return nil, fmt.Errorf("%w: %s holds more than %d entries", analysis.ErrTooLarge, dir, maxListed)
	case !d.budget.Spend(1 + len(names)/8):
		return nil, errWorkLimit
	}
	return names, nil
}
