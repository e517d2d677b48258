package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/paths"
)

// Executable reports whether the file at name may be run by its path (a
// regular file with an execute bit), for git's hooks, which git runs only
// when they are executable: an [analysis.Execer]. It follows links and the
// path rules as Read does (a file they deny reading is ErrUnreadable), and
// charges the call's work budget.
func (d *diskFiles) Executable(name string) (bool, error) {
	if !d.budget.Spend(pathCost) {
		return false, errWorkLimit
	}
	cp, err := paths.Canonicalize(name, d.env, d.p.home)
	if err != nil {
		return false, fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	}
	if why := d.forbidden(cp); why != "" {
		return false, fmt.Errorf("%w: %s", analysis.ErrUnreadable, why)
	}
	if d.env.Lookups.Missing(cp.Resolved) {
		return false, analysis.ErrNotExist
	}
	st, err := os.Stat(cp.Resolved)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, analysis.ErrNotExist
	case err != nil:
		return false, fmt.Errorf("%w: %v", analysis.ErrUnreadable, err)
	case st.IsDir():
		return false, nil
	}
	return st.Mode()&0o111 != 0, nil
}
