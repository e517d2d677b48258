package analysis_test

import (
	"testing"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/shell"
)

// TestFillInto: the destination a command puts existing files into, as
// written, for each program that does.
func TestFillInto(t *testing.T) {
	cases := []struct {
		command string
		want    string // "" for none
	}{
		{"mv src out/", "out/"},
		{"mv src dist", "dist"},
		{"mv a b c build/stash", "build/stash"},
		{"mv -t target src lib", "target"},
		{"mv --target-directory=out src", "out"},
		{"mv -T src out", "out"},
		{"cp -r src build/", "build/"},
		{"ln -s ../src out", "out"},
		{"ln src", "."},
		{"install -m 755 tool bin/", "bin/"},
		{"install -d bin", ""},
		{"rsync -a src/ dist/", "dist/"},
		{"rsync -a src/ host:dist/", ""},
		{"tar -xzf a.tgz -C target", "target"},
		{"tar --extract --file=a.tar --directory=out", "out"},
		{"tar -xf a.tar", ""},
		{"unzip a.zip -d dist", "dist"},
		{`mv src "$D"`, ""},
		{"mv src", ""},
		{"rm -rf out", ""},
		{"echo out", ""},
	}
	for _, tc := range cases {
		s, err := shell.Parse(tc.command, shell.Options{})
		if err != nil || len(s.Commands) != 1 {
			t.Fatalf("%s: %v", tc.command, err)
		}
		got, ok := analysis.FillInto(s.Commands[0])
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%s: FillInto = %q, %v; want %q", tc.command, got, ok, tc.want)
		}
	}
}
