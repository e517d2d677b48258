package install

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/hook"
)

// snapshot is every directory, file and symbolic link under root, by path
// relative to root: its kind, permission bits and content (a link's
// target), so that two snapshots are equal only when the trees are equal
// byte for byte.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	s := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			to, err := os.Readlink(path)
			if err != nil {
				return err
			}
			s[rel] = "link -> " + to
		case d.IsDir():
			s[rel] = fmt.Sprintf("dir %v", info.Mode().Perm())
		default:
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			s[rel] = fmt.Sprintf("file %v\n%s", info.Mode().Perm(), b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestUninstallRestoresTheTree installs every agent's hook into a
// throwaway home and project — empty, or holding the person's own
// settings — and uninstalls it: the tree is then exactly what it was
// before, with no directory install made, no backstop file and no backup
// left; a second uninstall changes nothing. A reinstall with another
// program in between (which keeps the first backup) ends the same way.
func TestUninstallRestoresTheTree(t *testing.T) {
	sequences := map[string][]string{
		"install":            {program},
		"install twice":      {program, program},
		"install, reinstall": {program, "/usr/local/bin/toolguard"},
	}
	for _, agent := range hook.Agents() {
		for _, scope := range []Scope{User, Project} {
			if agent == hook.DockerAgent && scope == Project {
				continue // no project settings
			}
			for _, own := range []bool{false, true} {
				for name, installs := range sequences {
					label := "empty"
					if own {
						label = "own settings"
					}
					t.Run(fmt.Sprintf("%s/%s/%s/%s", agent, scope, label, name), func(t *testing.T) {
						opts := sandbox(t)
						root := filepath.Dir(opts.Home)
						if own {
							file, err := File(agent, scope, opts)
							if err != nil {
								t.Fatal(err)
							}
							original, err := os.ReadFile(filepath.Join("testdata", agent, "existing"))
							if err != nil {
								t.Fatal(err)
							}
							writeFile(t, file, original)
						}
						before := snapshot(t, root)
						for _, p := range installs {
							o := opts
							o.Program = p
							c, err := Plan(agent, scope, o)
							if err != nil {
								t.Fatal(err)
							}
							mustApply(t, c)
						}
						for i := range 2 {
							c, err := PlanUninstall(agent, scope, opts)
							if err != nil {
								t.Fatal(err)
							}
							if i > 0 && c.Changed() {
								t.Errorf("a second uninstall changes something:\n%s", c.Diff)
							}
							mustApply(t, c)
							if diff := cmp.Diff(before, snapshot(t, root)); diff != "" {
								t.Errorf("uninstall #%d left the tree changed (-before +after):\n%s", i+1, diff)
							}
						}
					})
				}
			}
		}
	}
}
