// Package peercorpus finds the peer guards' test corpora for the tests that
// measure toolguard against them.
//
// The corpora live beside the repository, in ../shared/corpus/peers, and are
// read at run time, never copied in. Without them a developer's test run
// skips the corpus tests with a message; with CORPUS_TEST_REQUIRE=1
// (CI sets it, as it sets FLEET_TEST_REQUIRE for the fleet tests) a missing
// or empty corpus fails instead, so a figure the project reports cannot
// silently stop being measured.
//
// It is imported by tests only.
package peercorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// RequireEnv is the variable that makes a missing corpus a failure.
const RequireEnv = "CORPUS_TEST_REQUIRE"

// root is the corpora's directory seen from a package directory one level
// below the module root (every package that reads them is).
const root = "../../shared/corpus/peers"

// Required reports whether a missing corpus fails the test run.
func Required() bool { return os.Getenv(RequireEnv) == "1" }

// Missing ends t: a failure when the corpora are required, a skip
// otherwise. The message says what is missing and why.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if Required() {
		t.Fatalf("%s (%s=1: the peer corpora are required)", msg, RequireEnv)
		return
	}
	t.Skipf("%s; the peer corpora live beside the repository in ../shared/corpus/peers (%s=1 makes this a failure)", msg, RequireEnv)
}

// Dir returns the corpora's directory, or ends t through Missing.
func Dir(t testing.TB) string {
	t.Helper()
	if _, err := os.Stat(root); err != nil {
		Missing(t, "peer corpora not found at %s: %v", root, err)
	}
	return root
}

// Path returns the path of one corpus file, rel to the corpora's
// directory, or ends t through Missing when the file is absent.
func Path(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(Dir(t), rel)
	if _, err := os.Stat(p); err != nil {
		Missing(t, "peer corpus file %s not found: %v", rel, err)
	}
	return p
}

// NonEmpty ends t through Missing when n, the number of cases read for
// what, is zero: an empty corpus measures nothing.
func NonEmpty(t testing.TB, n int, what string) {
	t.Helper()
	if n == 0 {
		Missing(t, "no cases read for %s", what)
	}
}

// Figure is an agreement figure: Agree of Cases agree with their peer.
type Figure struct{ Agree, Cases int }

func (f Figure) String() string { return fmt.Sprintf("%d/%d", f.Agree, f.Cases) }

// floorHeader opens every floor file.
const floorHeader = `# Raw agreement with the peer corpora (listed divergences counted as
# disagreements), as the test beside this file measures it. The figures may
# only rise: the test fails below them, and fails above them until they are
# raised with -update, so that the committed figure is the measured one.
# -update never lowers a figure; lowering one is a decision, made by editing
# this file by hand with the reason in the commit message.
`

// CheckFloor holds the figures got (name → figure) to the floor in file:
// a figure below its floor, or measured on a different number of cases,
// fails; one above fails until the floor is raised. With update set the
// file is rewritten with every figure that did not fall.
func CheckFloor(t testing.TB, file string, got map[string]Figure, update bool) {
	t.Helper()
	floor, err := readFloor(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("%s: %v", file, err)
	}
	next := map[string]Figure{}
	for name, g := range got {
		f, ok := floor[name]
		next[name] = g
		switch {
		case !ok:
			failUnless(t, update, "%s: no floor for %q (measured %s)", file, name, g)
		case g.Cases != f.Cases:
			failUnless(t, update, "%s: %q measured on %d cases, the floor on %d: the corpus or its loader changed", file, name, g.Cases, f.Cases)
		case g.Agree < f.Agree:
			t.Errorf("%s: %q fell from %s to %s: a case that agreed with its peer no longer does (list it with a reason, or fix it)", file, name, f, g)
			next[name] = f
		case g.Agree > f.Agree:
			failUnless(t, update, "%s: %q rose from %s to %s: raise the floor with -update and commit it", file, name, f, g)
		}
	}
	for name := range floor {
		if _, ok := got[name]; !ok {
			failUnless(t, update, "%s: %q is no longer measured", file, name)
		}
	}
	if update {
		if err := writeFloor(file, next); err != nil {
			t.Fatal(err)
		}
	}
}

func failUnless(t testing.TB, update bool, format string, args ...any) {
	t.Helper()
	if !update {
		t.Errorf(format, args...)
	}
}

func readFloor(file string) (map[string]Figure, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	out := map[string]Figure{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var f Figure
		name, fig, ok := strings.Cut(line, " ")
		if _, err := fmt.Sscanf(strings.TrimSpace(fig), "%d/%d", &f.Agree, &f.Cases); !ok || err != nil {
			return nil, fmt.Errorf("line %d: %q is not NAME AGREE/CASES", i+1, line)
		}
		out[name] = f
	}
	return out, nil
}

func writeFloor(file string, figs map[string]Figure) error {
	names := make([]string, 0, len(figs))
	for n := range figs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(floorHeader)
	for _, n := range names {
		fmt.Fprintf(&b, "%s %s\n", n, figs[n])
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}
