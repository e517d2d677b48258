package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHomeJoins(t *testing.T) {
	tests := []struct {
		name, code string
		want       []string
	}{
		{"node path.join", `const p = path.join(os.homedir(), ".gemini", "settings.json");`, []string{"~/.gemini/settings.json"}},
		{"python os.path.join", `k = os.path.join(os.path.expanduser("~"), ".ssh", "id_rsa")`, []string{"~/.ssh/id_rsa"}},
		{"pathlib", `p = Path.home() / ".aws" / "credentials"`, []string{"~/.aws/credentials"}},
		{"pathlib expanduser", `p = Path("~").expanduser() / '.bashrc'`, []string{"~/.bashrc"}},
		{"go filepath.Join with a home variable", `filepath.Join(home, ".config", "gh", "hosts.yml")`, []string{"~/.config/gh/hosts.yml"}},
		{"slashes in the parts", `path.join(os.homedir(), "/.claude/", "settings.json")`, []string{"~/.claude/settings.json"}},
		{"parent parts are left out", `path.join(os.homedir(), "..", ".ssh")`, []string{"~/.ssh"}},
		{"two joins", `a = os.path.join(os.path.expanduser('~'), '.netrc'); b = os.path.join(os.path.expanduser('~'), '.pypirc')`, []string{"~/.netrc", "~/.pypirc"}},
		{"a join of the workspace", `path.join(__dirname, "dist", "index.js")`, nil},
		{"a join of a variable not named for the home", `os.path.join(tmpdir, ".ssh", "id_rsa")`, nil},
		{"no home marker at all", `path.join(root, "a", "b")`, nil},
		{"the home alone", `path.join(os.homedir())`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, homeJoins(tt.code)); diff != "" {
				t.Errorf("homeJoins(%q) (-want +got):\n%s", tt.code, diff)
			}
		})
	}
}

func FuzzHomeJoins(f *testing.F) {
	f.Add(`path.join(os.homedir(), ".gemini", "settings.json")`)
	f.Add(`Path.home() / ".aws" / "credentials"`)
	f.Add(`os.path.join(os.path.expanduser("~"), "a`)
	f.Fuzz(func(t *testing.T, code string) {
		for _, p := range homeJoins(code) {
			if len(p) < 3 || p[:2] != "~/" {
				t.Fatalf("homeJoins(%q) gave %q, not a path below ~", code, p)
			}
		}
	})
}
