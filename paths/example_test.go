package paths_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolguard/toolguard/paths"
)

func Example() {
	cfg := paths.DefaultConfig()
	cfg.Home = "/home/alice"
	checker, err := paths.Compile(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	env := paths.Env{Cwd: "/home/alice/project"}
	for _, c := range []struct {
		path   string
		access paths.Access
	}{
		{"src/main.go", paths.Write},
		{"~/.ssh/id_rsa", paths.Read},
		{"../other/notes.txt", paths.Write},
		{"~/.config/app.toml", paths.Read},
		{"$TMPDIR/x", paths.Read},
	} {
		findings := checker.Check(c.path, c.access, env)
		if len(findings) == 0 {
			fmt.Printf("%s %s: no concern\n", c.access, c.path)
		}
		for _, f := range findings {
			fmt.Printf("%s %s: %s %s\n  %s\n", c.access, c.path, f.Verdict, f.Rule, f.Reason)
		}
	}
	// Output:
	// write src/main.go: no concern
	// read ~/.ssh/id_rsa: deny paths.denied
	//   Reading /home/alice/.ssh/id_rsa is denied: it matches the denied path pattern "**/.ssh/**".
	// write ../other/notes.txt: deny paths.outside-workspace
	//   Writing /home/alice/other/notes.txt is denied: it lies outside the workspace /home/alice/project and its roots.
	// read ~/.config/app.toml: ask paths.sensitive
	//   Reading /home/alice/.config/app.toml needs approval: it is a sensitive path (pattern "~/.config/**").
	// read $TMPDIR/x: ask paths.unverifiable
	//   Reading "$TMPDIR/x" needs approval: the path contains a shell variable or substitution other than $HOME.
}

func ExampleCanonicalize() {
	p, err := paths.Canonicalize("../lib/./util.go", paths.Env{Cwd: "/srv/app/cmd"}, "/home/alice")
	fmt.Println(p.Literal, err)
	_, err = paths.Canonicalize("..%2f..%2fetc%2fpasswd", paths.Env{Cwd: "/srv/app"}, "/home/alice")
	fmt.Println(err)
	// Output:
	// /srv/app/lib/util.go <nil>
	// invalid path "..%2f..%2fetc%2fpasswd": hides a separator or ".." in percent-encoding (%2f, %2e%2e, %252f)
}

// PublicPEMFile tells a certificate or a public key, which may be read,
// from a file named like one that holds anything else.
func ExamplePublicPEMFile() {
	dir, err := os.MkdirTemp("", "pem")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "server.pem")
	if err := os.WriteFile(p, []byte("API_KEY=abc123\n"), 0o600); err != nil {
		panic(err)
	}
	fmt.Println(paths.PublicPEMFile(p))
	// Output: false
}
