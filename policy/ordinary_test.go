package policy_test

import (
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// gitIndex is a git index of version 2 that tracks names (sorted), with
// zeroed stat data and object ids: what git grep reads to know which
// files it searches.
func gitIndex(names ...string) []byte {
	b := []byte("DIRC\x00\x00\x00\x02")
	b = binary.BigEndian.AppendUint32(b, uint32(len(names)))
	for _, n := range names {
		e := make([]byte, 60) // ctime, mtime, dev, ino, mode, uid, gid, size, sha-1
		e = binary.BigEndian.AppendUint16(e, uint16(len(n)))
		e = append(e, n...)
		pad := 8 - len(e)%8 // 1 to 8 NUL bytes end the name
		e = append(e, make([]byte, pad)...)
		b = append(b, e...)
	}
	return append(b, make([]byte, 20)...) // the checksum, unchecked
}

// TestRecursiveWalks: a recursive reader or writer meets a denied file
// only if it would touch it (issue 31), and a deny of a walk that would
// gives the command that leaves the file out.
func TestRecursiveWalks(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "project")
	must(t, os.MkdirAll(filepath.Join(ws, ".git"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".env"), []byte("API_KEY=abc123\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, ".git", "index"), gitIndex("main.go"), 0o644))
	tracked := filepath.Join(home, "tracked")
	must(t, os.MkdirAll(filepath.Join(tracked, ".git"), 0o755))
	must(t, os.WriteFile(filepath.Join(tracked, ".env"), []byte("API_KEY=abc123\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(tracked, ".git", "index"), gitIndex(".env", "main.go"), 0o644))
	p := compileAt(t, policy.ModeTrusted, home)
	for _, c := range []struct {
		cmd, dir string
		want     string // verdict
		reason   string // a part of the reason, when given
	}{
		{"grep -rn TODO .", ws, "deny", "Run `grep -rn TODO --exclude=.env .` instead: it leaves .env out."},
		{"grep -rn TODO", ws, "deny", "Run `grep -rn TODO --exclude=.env` instead"},
		{"grep -rn --exclude=.env TODO .", ws, "allow", ""},
		{"grep -rn --exclude='.e*' TODO .", ws, "allow", ""},
		{"grep -rn --include='*.go' TODO .", ws, "allow", ""},
		{"grep -rn --include='*.env' TODO .", ws, "deny", ""},
		{"grep -rn --include='src/*' TODO .", ws, "deny", ""}, // a glob with "/" may match anything
		{"rg TODO", ws, "allow", ""},
		{"rg --hidden TODO", ws, "deny", "Run `rg --hidden TODO '--glob=!.env'` instead"},
		{"rg --hidden -g '!.env' TODO", ws, "allow", ""},
		{"rg --hidden -g '*.go' TODO", ws, "allow", ""},
		{"git grep -n TODO", ws, "allow", ""},
		{"git grep --untracked -n TODO", ws, "deny", ""},
		{"git grep --no-index -n TODO .", ws, "deny", ""},
		{"git grep -n TODO", tracked, "deny", "Run `git grep -n TODO -- ':!.env'` instead: it leaves .env out."},
		{"git grep -n TODO -- ':!.env'", tracked, "allow", ""},
		{"git grep -n TODO .", tracked, "deny", "Run `git grep -n TODO -- ':!.env' .` instead"}, // pathspecs after --, before the operand git would read as a revision
		{"git grep -n TODO -- ':!.env' .", tracked, "allow", ""},
		{"git grep -n TODO -- src ':(exclude).env'", tracked, "allow", ""},
		{"git grep -n TODO -- ':(exclude)README.md'", tracked, "deny", ""}, // everything else, .env with it
		{"git grep -n TODO -- ':/'", tracked, "deny", ""},
		{"git grep -n TODO -- ':/'", ws, "allow", ""},
		{"git grep -n KEY -- '*.env'", tracked, "deny", ""},
		{"git grep -n KEY -- '*.go'", tracked, "allow", ""},
		// a file of a revision, the index's, a pathspec with magic: git's
		// spellings of the same .env
		{"git show HEAD:.env", ws, "deny", ""},
		{"git show HEAD~4:config/.env", ws, "deny", ""},
		{"git cat-file -p origin/main:.env", ws, "deny", ""},
		{"git show :.env", ws, "deny", ""},
		{"git show stash@{0}:.env", ws, "deny", ""},
		// a listing handed to a reader: ls -A lists the dot entries
		{"ls -A | xargs cat", ws, "deny", ""},
		{"cat $(ls -la)", ws, "deny", ""},
		{"ls | xargs cat", ws, "allow", ""},
		{"git diff HEAD~1 -- '*.env'", ws, "deny", ""},
		{"git log -p -- ':(icase).ENV'", ws, "deny", ""},
		{"git log -p -- '**/*.pem'", ws, "deny", ""},
		{"git show HEAD:main.go", ws, "allow", ""},
		{"git log -p -- '*.go'", ws, "allow", ""},
		{"git log -p -- '*'", ws, "allow", ""},
		{"git log --grep='fix*' --oneline", ws, "allow", ""},
		{"git fetch origin main:main", ws, "allow", ""},
		{"gofmt -l .", ws, "allow", ""},
		{"gofmt -w .", ws, "allow", ""},
		{"goimports -w .", ws, "allow", ""},
		{"tar czf /tmp/src.tgz .", ws, "deny", "Run `tar czf /tmp/src.tgz --exclude=.env .` instead"},
		{"tar czf /tmp/src.tgz --exclude=.env .", ws, "allow", ""},
		{"cat .env", ws, "deny", ""},
		// a file server on the loopback address reaches this machine only
		{"python3 -m http.server 8000 --bind 127.0.0.1", ws, "allow", ""},
		{"python3 -m http.server 8000", ws, "deny", "holds secrets"},
	} {
		d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: c.cmd, Cwd: c.dir, Workspace: c.dir})
		if d.Verdict.String() != c.want || c.reason != "" && !strings.Contains(d.Reason, c.reason) {
			t.Errorf("%s (in %s): %s (%s: %s), want %s with %q", c.cmd, filepath.Base(c.dir), d.Verdict, d.Rule, d.Reason, c.want, c.reason)
		}
	}
}

// TestPublishSaysWhatToLeaveOut: a publish of a package holding a denied
// file is denied with how to leave the file out of the package, and the
// package that leaves it out is judged as a publish only.
func TestPublishSaysWhatToLeaveOut(t *testing.T) {
	home := t.TempDir()
	pkg := filepath.Join(home, "project", "pkg")
	must(t, os.MkdirAll(pkg, 0o755))
	must(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"pkg","version":"1.0.0"}`), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, ".env"), []byte("API_KEY=abc123\n"), 0o600))
	p := compileAt(t, policy.ModeFull, home)
	decide := func() policy.Decision {
		return p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: "npm publish", Cwd: pkg, Workspace: pkg})
	}
	d := decide()
	if want := "leave .env out of the package (.npmignore, or the files list of package.json), then publish again."; d.Verdict.String() != "deny" || !strings.Contains(d.Reason, want) {
		t.Errorf("npm publish beside .env: %s (%s: %s), want deny with %q", d.Verdict, d.Rule, d.Reason, want)
	}
	if want := "add .env to the package's .npmignore"; !strings.HasPrefix(d.Suggestion, want) {
		t.Errorf("npm publish beside .env: suggestion %q, want it to start with %q", d.Suggestion, want)
	}
	must(t, os.WriteFile(filepath.Join(pkg, ".npmignore"), []byte(".env\n"), 0o644))
	if d := decide(); d.Verdict.String() != "allow" || d.Rule != "pkg.publish" {
		t.Errorf("npm publish with .env in .npmignore, full mode: %s (%s: %s), want allow by pkg.publish", d.Verdict, d.Rule, d.Reason)
	}
}

// TestDeclaredInstalls: installing what the project declares is the
// execute tier (allowed in trusted); adding an undeclared name is asked
// with a reason that names it.
func TestDeclaredInstalls(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "project")
	web := filepath.Join(ws, "web")
	must(t, os.MkdirAll(web, 0o755))
	must(t, os.WriteFile(filepath.Join(web, "package.json"), []byte(`{"name":"web","dependencies":{"lodash":"^4"},"devDependencies":{"@types/node":"20"}}`), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "requirements-dev.txt"), []byte("requests==2.31.0\npytest>=8\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "pyproject.toml"), []byte("[project]\nname = \"app\"\ndependencies = [\"httpx>=0.27\"]\n"), 0o644))
	p := compileAt(t, policy.ModeTrusted, home)
	for _, c := range []struct {
		cmd, dir string
		want     string
		reason   string
	}{
		{"npm install lodash", web, "allow", ""},
		{"npm i -D @types/node@20 lodash@^4", web, "allow", ""},
		{"cd web && npm install lodash", ws, "allow", ""},
		{"npm install lodash", ws, "ask", "npm adds lodash, which the project does not declare"},
		{"npm install lodash left-padx", web, "ask", "npm adds left-padx, which the project does not declare (package.json)"},
		{"npm install --registry https://npm.example.com lodash", web, "ask", ""},
		{"npm install -g lodash", web, "ask", ""},
		{"npm ci", web, "allow", ""},
		{"pip install requests pytest", ws, "allow", ""},
		{"pip install 'requests==2.31.0'", ws, "allow", ""},
		{"pip install -U httpx", ws, "allow", ""},
		{"uv add httpx", ws, "allow", ""},
		{"pip install reqeusts", ws, "ask", "pip adds reqeusts, which the project does not declare"},
		{"pip install -i https://pypi.example.com/simple requests", ws, "ask", ""},
		{"pip install -r requirements-dev.txt", ws, "allow", ""},
	} {
		d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: c.cmd, Cwd: c.dir, Workspace: ws})
		if d.Verdict.String() != c.want || !strings.Contains(d.Reason, c.reason) {
			t.Errorf("%s (in %s): %s (%s: %s), want %s with %q", c.cmd, filepath.Base(c.dir), d.Verdict, d.Rule, d.Reason, c.want, c.reason)
		}
	}
}

// TestPEMByContent: a file named like a key is judged by what it holds.
func TestPEMByContent(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "project")
	must(t, os.MkdirAll(filepath.Join(ws, "certs"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "certs", "server.pem"), []byte(testCertificate(t)), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "certs", "key.pem"), []byte("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n"), 0o600))
	p := compileAt(t, policy.ModeSupervised, home)
	for _, c := range []struct{ cmd, want string }{
		{"openssl x509 -in certs/server.pem -noout -text", "allow"},
		{"cat certs/server.pem", "allow"},
		{"cat certs/key.pem", "deny"},
		{"openssl x509 -in certs/key.pem -noout", "deny"},
	} {
		d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: c.cmd, Cwd: ws, Workspace: ws})
		if d.Verdict.String() != c.want {
			t.Errorf("%s: %s (%s: %s), want %s", c.cmd, d.Verdict, d.Rule, d.Reason, c.want)
		}
	}
}

// TestOrdinaryWork: calls of ordinary work that used to be denied.
func TestOrdinaryWork(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "project")
	must(t, os.MkdirAll(ws, 0o755))
	for _, mode := range []string{policy.ModeSupervised, policy.ModeTrusted} {
		p := compileAt(t, mode, home)
		for _, c := range []struct {
			cmd  string
			want map[string]string // mode → verdict
		}{
			{`python3 -c "import numpy as np; q1 = np.array([1]); q_not = ~q1; print(q_not)"`, map[string]string{policy.ModeSupervised: "ask", policy.ModeTrusted: "allow"}},
			{`python3 -c "from urllib.parse import urlsplit; print(urlsplit('http://example.com/'))"`, map[string]string{policy.ModeSupervised: "ask", policy.ModeTrusted: "allow"}},
			{"dd if=dist/app.tar.gz of=/dev/null bs=1M", map[string]string{policy.ModeSupervised: "ask", policy.ModeTrusted: "allow"}},
			{"dd if=/dev/zero of=/dev/sda", map[string]string{policy.ModeSupervised: "deny", policy.ModeTrusted: "deny"}},
			{"cat /proc/partitions", map[string]string{policy.ModeSupervised: "allow", policy.ModeTrusted: "allow"}},
			{"cat /proc/1/environ", map[string]string{policy.ModeSupervised: "deny", policy.ModeTrusted: "deny"}},
			// a fresh temporary directory is that, not an unknown path
			{`d=$(mktemp -d) && cd "$d" && touch x && rm -rf "$d"`, map[string]string{policy.ModeSupervised: "ask", policy.ModeTrusted: "allow"}},
			{`rm -rf "$BUILD_DIR"`, map[string]string{policy.ModeSupervised: "ask", policy.ModeTrusted: "ask"}},
			// a socket directory is not a host, and SQL that only reads is a read
			{"psql -h /var/run/postgresql -U postgres -c 'select 1'", map[string]string{policy.ModeSupervised: "allow", policy.ModeTrusted: "allow"}},
			{"psql -h /var/run/postgresql -U postgres -c 'delete from orders where id = 1'", map[string]string{policy.ModeSupervised: "ask", policy.ModeTrusted: "allow"}},
			// a client of a UNIX socket that prints is no reverse shell
			{`python3 -c "import socket; s=socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect('/tmp/app.sock'); s.sendall(b'ping'); print(s.recv(1024))"`, map[string]string{policy.ModeSupervised: "ask", policy.ModeTrusted: "allow"}},
			{`python3 -c "import socket,subprocess; s=socket.socket(socket.AF_UNIX); s.connect('/tmp/a.sock'); subprocess.call(['/bin/sh','-i'], stdin=s.fileno())"`, map[string]string{policy.ModeSupervised: "deny", policy.ModeTrusted: "deny"}},
		} {
			d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: c.cmd, Cwd: ws, Workspace: ws})
			if d.Verdict.String() != c.want[mode] {
				t.Errorf("%s in %s: %s (%s: %s), want %s", c.cmd, mode, d.Verdict, d.Rule, d.Reason, c.want[mode])
			}
		}
	}
}

// testCertificate is a self-signed ed25519 certificate, PEM-encoded.
func testCertificate(t *testing.T) string {
	t.Helper()
	pk, sk, err := ed25519.GenerateKey(nil)
	must(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "server"},
		NotBefore: time.Unix(0, 0), NotAfter: time.Unix(1<<31, 0)}
	der, err := x509.CreateCertificate(nil, tmpl, tmpl, pk, sk)
	must(t, err)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// TestProjectDeletesByAbsolutePath: a file of the project deleted by its
// absolute path (under the home directory, as on macOS /Users/…) is judged
// as the same delete by its relative path; a path that leaves the project
// is not.
func TestProjectDeletesByAbsolutePath(t *testing.T) {
	home := t.TempDir()
	ws := filepath.Join(home, "app")
	must(t, os.MkdirAll(filepath.Join(ws, "__pycache__"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "out.css"), []byte("x"), 0o644))
	p := compileAt(t, policy.ModeTrusted, home)
	for _, c := range []struct{ cmd, want, rule string }{
		{"rm -f out.css", "allow", "mode.trusted"},
		{"rm -f " + filepath.Join(ws, "out.css"), "allow", "mode.trusted"},
		{"rm -rf " + filepath.Join(ws, "__pycache__"), "allow", "mode.trusted"},
		{"rm -f " + filepath.Join(ws, "out.css") + " /etc/hosts", "deny", "paths.delete-system"},
	} {
		d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: c.cmd, Cwd: ws, Workspace: ws})
		if d.Verdict.String() != c.want || d.Rule != c.rule {
			t.Errorf("%s: %s (%s: %s), want %s by %s", c.cmd, d.Verdict, d.Rule, d.Reason, c.want, c.rule)
		}
	}
}
