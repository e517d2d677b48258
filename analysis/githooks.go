package analysis

import (
	"errors"
	"fmt"

	"github.com/toolguard/toolguard/buildfile"
)

// The hooks git runs (git commit's pre-commit, git push's pre-push, …) are
// read by package buildfile as the steps of a build runner and judged as
// its steps are; git runs only hooks that are executable, which an
// [Execer] tells.

// Execer is a [Files] that can also tell whether a file is executable.
// Its error wraps ErrNotExist when there is no such file. Without it, a
// hook that exists is judged as if executable.
type Execer interface {
	Executable(p string) (bool, error)
}

// Executable tells package buildfile whether p is executable: a file the
// call wrote is taken to be (judged); otherwise the Files' Execer says, or
// every file that exists is.
func (b buildReader) Executable(p string) (bool, error) {
	if _, err := b.written.Read(p); err == nil {
		return true, nil
	}
	x, ok := b.files.(Execer)
	if !ok {
		return true, nil
	}
	exec, err := x.Executable(p)
	if errors.Is(err, ErrNotExist) {
		return false, fmt.Errorf("%w: %w", buildfile.ErrNotExist, err)
	}
	return exec, err
}
