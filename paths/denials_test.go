package paths

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

// checkDenials fails when Denials differs from Check's RuleDenied findings
// (every field, in order), for every access and one it does not know. It
// returns how many denials it saw.
func checkDenials(t *testing.T, c *Checker, p string, env Env) int {
	t.Helper()
	n := 0
	for a := Read; a <= Delete+1; a++ {
		want := onlyDeniedRef(c.Check(p, a, env))
		got := c.Denials(p, a, env)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Denials(%q, %v) differs from Check's denials (-check +denials):\n%s", p, a, diff)
		}
		n += len(got)
	}
	return n
}

// onlyDeniedRef is the filter the callers of Check applied before Denials.
func onlyDeniedRef(fs []risk.Finding) []risk.Finding {
	var out []risk.Finding
	for _, f := range fs {
		if f.Rule == RuleDenied {
			out = append(out, f)
		}
	}
	return out
}

// TestDenialsAreChecksDenials holds Denials to Check over the fixture's
// paths and links, and links the fixture adds here whose name is denied
// and whose target is not (.env → src/main.go), whose target is denied
// (key → ~/.ssh/id_rsa), a public certificate and a link to it named as a
// key, paths not known before they run (~/.ssh/$K), invalid paths, and
// random paths of those names, in three configurations and three
// working directories.
func TestDenialsAreChecksDenials(t *testing.T) {
	f := newFixture(t)
	cert, _, _ := pemFixtures(t)
	must(t, os.WriteFile(f.ws+"/server.pem", []byte(cert), 0o600))
	must(t, os.Symlink("src/main.go", f.ws+"/.env"))
	must(t, os.Symlink("server.pem", f.ws+"/id_rsa"))
	must(t, os.Symlink("src/main.go", f.ws+"/credentials"))
	paths := []string{"key", "relkey", "dangling", "loop1", "outdir/data.txt", "srclink/main.go", "src/main.go",
		".env", "id_rsa", "server.pem", "credentials", "~/.ssh/id_rsa", "~/.ssh/id_rsa.pub", "~/.ssh/$K",
		"~/.ssh/id_$K", "$HOME/.ssh/x", "private/x", "guard.local.toml", ".git/hooks/pre-commit",
		".claude/settings.json", "/etc/shadow", "/etc/safe_config", "/dev/null", "../../outside/data.txt",
		f.root + "/shared/notes.md", f.root + "/drop/x", f.root + "/wslink/.env", "/tmp/x", "x\x00y", ""}
	r := rand.New(rand.NewPCG(9, 10))
	n := 3000
	if testing.Short() {
		n = 600
	}
	for range n {
		var b strings.Builder
		for k := r.IntN(6); k >= 0; k-- {
			if k > 0 || r.IntN(2) == 0 {
				b.WriteString(denyPieces[r.IntN(len(denyPieces))])
			}
			b.WriteByte('/')
		}
		paths = append(paths, strings.TrimSuffix(b.String(), "/"))
	}
	denials := 0
	for name, c := range checkers(t, f) {
		for _, env := range []Env{{Cwd: f.ws}, {Cwd: f.ws, Workspace: f.ws}, {Cwd: "/", Workspace: "rel"}} {
			for _, p := range paths {
				denials += checkDenials(t, c, p, env)
				if t.Failed() {
					t.Fatalf("checker %s, env %+v", name, env)
				}
			}
		}
	}
	if denials < 100 {
		t.Errorf("only %d denials seen: the paths do not exercise the denied lists", denials)
	}
	// the cases Denials takes apart: a denied link name with a harmless
	// target (the literal form's denial), and a public certificate read
	// (no denial) and written (denied)
	c, env := checkers(t, f)["default"], Env{Cwd: f.ws}
	for _, tc := range []struct {
		p    string
		a    Access
		want int
	}{{".env", Read, 1}, {"key", Read, 1}, {"server.pem", Read, 0}, {"server.pem", Write, 1}, {"src/main.go", Read, 0}} {
		if got := len(c.Denials(tc.p, tc.a, env)); got != tc.want {
			t.Errorf("Denials(%q, %v): %d findings, want %d", tc.p, tc.a, got, tc.want)
		}
	}
}

func FuzzDenials(f *testing.F) {
	for _, s := range []string{"key", "~/.ssh/id_rsa", ".env", "private/x", ".git/hooks/pre-commit", "/etc/shadow", "~/.ssh/$K"} {
		f.Add(s, uint8(0))
	}
	fx := newFixture(f)
	cs := checkers(f, fx)
	names := []string{"default", "trusted", "allowed"}
	f.Fuzz(func(t *testing.T, p string, which uint8) {
		checkDenials(t, cs[names[int(which)%len(names)]], p, Env{Cwd: fx.ws})
	})
}
