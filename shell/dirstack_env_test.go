package shell

import "testing"

// TestBackToStartDropsExportedPWD checks that returning to the call's own
// directory (cd -, popd) leaves no exported PWD in what later commands
// inherit: the list of exported variables is built again once PWD is
// gone.
func TestBackToStartDropsExportedPWD(t *testing.T) {
	for _, src := range []string{
		"export PWD; cd /opt && env >/dev/null && cd - && printenv PWD",
		"export PWD; pushd /opt && env >/dev/null && popd && printenv PWD",
	} {
		s, err := Parse(src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		last := s.Commands[len(s.Commands)-1]
		if last.Name != "printenv" {
			t.Fatalf("%s: last command %q", src, last.Name)
		}
		for _, a := range last.Env {
			if a.Name == "PWD" && a.Value.Value == "/opt" {
				t.Errorf("%s: printenv inherits PWD=/opt after going back", src)
			}
		}
	}
}
