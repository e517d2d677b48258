package shell

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSpawnEnvArgs: an argument of a spawn call that is an environment
// variable's value (perl's $ENV{HOME}, ruby's ENV["HOME"], node's
// process.env.HOME, php's getenv('HOME')) is that variable's value as the
// shell would give it, so system("rm", "-rf", $ENV{HOME}) is judged as
// rm -rf "$HOME" (it ran rm alone); a list form with another argument
// that is not known is a problem, never its first word alone.
func TestSpawnEnvArgs(t *testing.T) {
	tests := []struct {
		src      string
		nested   []string // the commands the code runs (origin interpreter)
		problems []string
	}{
		{`perl -e 'system("rm", "-rf", $ENV{HOME})'`, []string{"rm -rf /home/u"}, nil},
		{`perl -e 'system("rm", "-rf", $ENV{'HOME'})'`, []string{"rm -rf /home/u"}, nil},
		{`perl -e 'exec "rm", "-rf", $ENV{"HOME"}'`, []string{"rm -rf /home/u"}, nil},
		{`ruby -e 'system("rm", "-rf", ENV["HOME"])'`, []string{"rm -rf /home/u"}, nil},
		{`ruby -e 'system("rm", "-rf", ENV.fetch("HOME"))'`, []string{"rm -rf /home/u"}, nil},
		{`node -e 'require("child_process").execFileSync("rm", ["-rf", "x"]); require("child_process").spawnSync("rm", ["-rf", process.env.HOME])'`,
			[]string{"rm -rf x"}, []string{"node code runs spawnSync with an argument that is not a literal"}},
		{`php -r 'system(getenv("EDITOR"));'`, []string{"${EDITOR}?"}, []string{"command name not static: ${EDITOR}"}},
		{`perl -e 'system("rm", "-rf", $dir)'`, nil, []string{"perl code runs system with an argument that is not a literal"}},
		{`perl -e 'system("ls", "-l", $ENV{1X})'`, nil, []string{"perl code runs system with an argument that is not a literal"}},
		{`perl -e 'system("make", "test")'`, []string{"make test"}, nil},
	}
	for _, tt := range tests {
		s, _ := Parse(tt.src, testOptions)
		var nested []string
		for _, c := range s.Commands {
			if c.Origin == "interpreter" {
				v := view(c)
				if i := strings.Index(v, " @"); i >= 0 {
					v = v[:i]
				}
				nested = append(nested, v)
			}
		}
		got := reasons(s)
		if len(got) == 0 {
			got = nil
		}
		if diff := cmp.Diff(tt.nested, nested); diff != "" {
			t.Errorf("Parse(%q) nested commands (-want +got):\n%s", tt.src, diff)
		}
		if diff := cmp.Diff(tt.problems, got); diff != "" {
			t.Errorf("Parse(%q) problems (-want +got):\n%s", tt.src, diff)
		}
	}
}
