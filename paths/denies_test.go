package paths

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/risk"
)

// checkDeniesPath fails when DeniesPath disagrees with a Deny among
// CheckPath's findings, for every access (and one it does not know).
func checkDeniesPath(t *testing.T, c *Checker, p string, env Env) {
	t.Helper()
	cp, err := Canonicalize(p, env, c.Home())
	if err != nil {
		return
	}
	for a := Read; a <= Delete+1; a++ {
		want := hasVerdict(c.CheckPath(cp, a, env), risk.Deny)
		if got := c.DeniesPath(cp, a, env); got != want {
			t.Errorf("DeniesPath(%q, %v) = %v, CheckPath holds a deny: %v", p, a, got, want)
		}
	}
}

// denyPieces are the names paths are built from: the fixture's files and
// links, secrets, protected, sensitive and escape-hatch names, roots.
var denyPieces = []string{"/", "~", "..", ".", "key", "relkey", "dangling", "loop1", "outdir", "srclink", "src",
	"main.go", ".ssh", "id_rsa", "id_rsa.pub", ".env", ".env.example", ".aws", "credentials", ".git", "config",
	"hooks", "pre-commit", ".claude", "settings.json", "guard.local.toml", "private", "vendor", "shared", "drop",
	"rwroot", "etc", "shadow", "safe_config", "tmp", "dev", "null", ".npmrc", "secrets.yaml", "server.pem", "x"}

func TestDeniesPathAgrees(t *testing.T) {
	f := newFixture(t)
	paths := []string{"key", "relkey", "dangling", "loop1", "outdir/data.txt", "srclink/main.go", "src/main.go",
		"~/.ssh/id_rsa", "~/.ssh/id_rsa.pub", ".env", ".env.example", "private/x", "guard.local.toml",
		".git/hooks/pre-commit", ".claude/settings.json", "/etc/shadow", "/etc/safe_config", "/dev/null",
		"../../outside/data.txt", f.root + "/shared/notes.md", f.root + "/drop/x", "/tmp/x", "x\x00y", ""}
	r := rand.New(rand.NewPCG(7, 8))
	n := 5000
	if testing.Short() {
		n = 1000
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		for k := r.IntN(6); k >= 0; k-- {
			if k > 0 || r.IntN(2) == 0 {
				b.WriteString(denyPieces[r.IntN(len(denyPieces))])
			}
			b.WriteByte('/')
		}
		paths = append(paths, strings.TrimSuffix(b.String(), "/"))
	}
	for name, c := range checkers(t, f) {
		for _, env := range []Env{{Cwd: f.ws}, {Cwd: f.ws, Workspace: f.ws}, {Cwd: "/", Workspace: "rel"}} {
			for _, p := range paths {
				checkDeniesPath(t, c, p, env)
				if t.Failed() {
					t.Fatalf("checker %s, env %+v", name, env)
				}
			}
		}
	}
}

func FuzzDeniesPath(f *testing.F) {
	for _, s := range []string{"key", "~/.ssh/id_rsa", ".env", "private/x", ".git/hooks/pre-commit", "/etc/shadow", "/tmp/x"} {
		f.Add(s, uint8(0))
	}
	fx := newFixture(f)
	cs := checkers(f, fx)
	names := []string{"default", "trusted", "allowed"}
	f.Fuzz(func(t *testing.T, p string, which uint8) {
		checkDeniesPath(t, cs[names[int(which)%len(names)]], p, Env{Cwd: fx.ws})
	})
}
