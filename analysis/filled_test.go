package analysis_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/shell"
)

// TestFillsInto: the destination a command puts existing files into, as
// written, for each program that does.
func TestFillsInto(t *testing.T) {
	cases := []struct {
		command string
		want    []string
	}{
		{"mv src out/", []string{"out/"}},
		{"mv src dist", []string{"dist"}},
		{"mv a b c build/stash", []string{"build/stash"}},
		{"mv -t target src lib", []string{"target"}},
		{"mv --target-directory=out src", []string{"out"}},
		{"mv -T src out", []string{"out"}},
		{"cp -r src build/", []string{"build/"}},
		{"ln -s ../src out", []string{"out"}},
		{"ln src", []string{"."}},
		{"install -m 755 tool bin/", []string{"bin/"}},
		{"install -d bin", nil},
		{"rsync -a src/ dist/", []string{"dist/"}},
		{"rsync -a src/ host:dist/", nil},
		{"tar -xzf a.tgz -C target", []string{"target"}},
		{"tar --extract --file=a.tar --directory=out", []string{"out"}},
		{"tar -xf a.tar", nil},
		{"unzip a.zip -d dist", []string{"dist"}},
		{`mv src "$D"`, nil},
		{"mv src", nil},
		{"rm -rf out", nil},
		{"echo out", nil},
	}
	for _, tc := range cases {
		s, err := shell.Parse(tc.command, shell.Options{})
		if err != nil || len(s.Commands) != 1 {
			t.Fatalf("%s: %v", tc.command, err)
		}
		if diff := cmp.Diff(tc.want, analysis.FillsInto(s.Commands[0])); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.command, diff)
		}
	}
}
