package analysis

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/buildfile"
)

// TestNotExistToBuild: the shared error is what fmt.Errorf makes of
// ErrNotExist (text, what it wraps, what it is), and other errors still go
// through fmt.Errorf.
func TestNotExistToBuild(t *testing.T) {
	other := fmt.Errorf("%w: x", ErrNotExist)
	for _, err := range []error{ErrNotExist, other} {
		slow := fmt.Errorf("%w: %w", buildfile.ErrNotExist, err)
		fast := notExistToBuild(err)
		if fast.Error() != slow.Error() {
			t.Errorf("notExistToBuild(%v) = %q, want %q", err, fast.Error(), slow.Error())
		}
		want := slow.(interface{ Unwrap() []error }).Unwrap()
		got := fast.(interface{ Unwrap() []error }).Unwrap()
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
			t.Errorf("notExistToBuild(%v) wraps (-fmt +fast):\n%s", err, diff)
		}
		for _, target := range []error{buildfile.ErrNotExist, ErrNotExist, ErrUnreadable, fs.ErrNotExist} {
			if errors.Is(fast, target) != errors.Is(slow, target) {
				t.Errorf("errors.Is(notExistToBuild(%v), %v) = %v, fmt.Errorf's %v", err, target, errors.Is(fast, target), errors.Is(slow, target))
			}
		}
	}
}
