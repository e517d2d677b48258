package buildfile_test

import (
	"fmt"

	"github.com/toolguard/toolguard/buildfile"
)

// files is a workspace in memory.
type files map[string]string

func (f files) Read(p string) (string, error) {
	if text, ok := f[p]; ok {
		return text, nil
	}
	return "", buildfile.ErrNotExist
}

// make test runs the test target's prerequisites first, with the
// Makefile's variables expanded.
func ExampleResolve() {
	fs := files{"/src/app/Makefile": "PKGS := ./...\n\ntest: vet\n\tgo test $(PKGS)\n\nvet:\n\tgo vet $(PKGS)\n"}
	plan := buildfile.Resolve(buildfile.Invocation{Name: "make", Args: []string{"test"}, Dir: "/src/app"}, fs)
	for _, s := range plan.Steps {
		fmt.Printf("%s:%d %s: %s\n", s.File, s.Line, s.Lang, s.Text)
	}
	// Output:
	// /src/app/Makefile:7 shell: go vet ./...
	// /src/app/Makefile:4 shell: go test ./...
}
