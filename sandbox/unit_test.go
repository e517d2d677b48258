//go:build linux

package sandbox

import (
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLooksSecret(t *testing.T) {
	cases := map[string]bool{
		"GITHUB_TOKEN": true, "FOO_TOKEN": true, "OPENAI_API_KEY": true, "DB_PASSWORD": true,
		"SMTP_PASS": true, "AWS_PROFILE": true, "AZURE_CLIENT_ID": true, "GOOGLE_APPLICATION_CREDENTIALS": true,
		"SSH_AUTH_SOCK": true, "MY_SECRET": true, "client_secret": true, "DATABASE_URL": true,
		"PATH": false, "HOME": false, "LANG": false, "NODE_ENV": false, "KEYBOARD": false, "PASSAGE": false,
		"GOPATH": false, "LC_ALL": false,
	}
	for name, want := range cases {
		if got := LooksSecret(name); got != want {
			t.Errorf("LooksSecret(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestScrubEnv(t *testing.T) {
	env := []string{
		"PATH=/usr/bin", "HOME=/home/u", "LC_ALL=C", "FOO_TOKEN=x", "AWS_REGION=eu", "TMPDIR=/tmp",
		"EDITOR=vi", "NPM_CONFIG_CACHE=/c", "NPM_CONFIG_TOKEN=t", "GITHUB_TOKEN=g", "HOME=/home/v",
		"=bad", "noequals", "1BAD=x",
	}
	cases := []struct {
		name        string
		passthrough []string
		env         []string
		want        []string
	}{
		{"defaults", nil, env, []string{"PATH=/usr/bin", "HOME=/home/v", "LC_ALL=C", "TMPDIR=/run/t"}},
		{"exact and prefix", []string{"EDITOR", "NPM_CONFIG_*", "GITHUB_TOKEN"}, env,
			[]string{"PATH=/usr/bin", "HOME=/home/v", "LC_ALL=C", "EDITOR=vi", "NPM_CONFIG_CACHE=/c", "GITHUB_TOKEN=g", "TMPDIR=/run/t"}},
		{"no PATH", nil, []string{"USER=u"}, []string{"USER=u", "PATH=" + defaultPath, "TMPDIR=/run/t"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := compilePassthrough(c.passthrough)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, scrubEnv(c.env, p, "/run/t")); diff != "" {
				t.Errorf("scrubEnv (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCompilePassthroughRejects(t *testing.T) {
	for _, entry := range []string{"", "*x", "A-B", "1A", "A B", "**"} {
		if _, err := compilePassthrough([]string{entry}); err == nil {
			t.Errorf("compilePassthrough(%q) accepted", entry)
		}
	}
}

func TestLimitHit(t *testing.T) {
	l := Limits{Memory: 512 << 20, CPUTime: 2 * time.Second, FileSize: 1 << 20}
	cases := []struct {
		name string
		info exitInfo
		want string
	}{
		{"success", exitInfo{}, ""},
		{"plain failure", exitInfo{exitCode: 1, stderrTail: []byte("no such file")}, ""},
		{"SIGXCPU", exitInfo{exitCode: -1, signal: syscall.SIGXCPU}, "cpu time 2s"},
		{"SIGKILL after cpu limit", exitInfo{exitCode: -1, signal: syscall.SIGKILL, cpu: 3 * time.Second}, "cpu time 2s"},
		{"SIGXFSZ", exitInfo{exitCode: -1, signal: syscall.SIGXFSZ}, "file size 1 MiB"},
		{"shell reports SIGXFSZ", exitInfo{exitCode: 128 + 25}, "file size 1 MiB"},
		{"python MemoryError", exitInfo{exitCode: 1, stderrTail: []byte("Traceback…\nMemoryError\n")}, "memory 512 MiB"},
		{"go out of memory", exitInfo{exitCode: 2, stderrTail: []byte("fatal error: runtime: out of memory")}, "memory 512 MiB"},
		{"segfault near the cap", exitInfo{exitCode: -1, signal: syscall.SIGSEGV, maxRSS: 300 << 20}, "memory 512 MiB"},
		{"go runtime crash in the collector", exitInfo{exitCode: 2, stderrTail: []byte("SIGSEGV: segmentation violation\nPC=0x439c5d m=4\nruntime.(*spanQueue).tryDrain(...)\n\t/usr/local/go/src/runtime/mgcmark_greenteagc.go:520")}, "memory 512 MiB"},
		{"go crash in the program's own code", exitInfo{exitCode: 2, stderrTail: []byte("SIGSEGV: segmentation violation\nmain.parse(...)\n\t/src/main.go:12"), maxRSS: 8 << 20}, ""},
		{"segfault far below the cap", exitInfo{exitCode: -1, signal: syscall.SIGSEGV, maxRSS: 10 << 20}, ""},
		{"timed out", exitInfo{exitCode: -1, signal: syscall.SIGKILL, timedOut: true, cpu: 5 * time.Second}, ""},
		{"oom text but success", exitInfo{stderrTail: []byte("out of memory")}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := limitHit(l, c.info); got != c.want {
				t.Errorf("limitHit = %q, want %q", got, c.want)
			}
		})
	}
}

func TestResultString(t *testing.T) {
	cases := []struct {
		r    Result
		want string
	}{
		{Result{}, "exit status 0"},
		{Result{ExitCode: 3}, "exit status 3"},
		{Result{ExitCode: -1, Signal: syscall.SIGKILL, TimedOut: true}, "killed by signal SIGKILL: timed out"},
		{Result{ExitCode: 1, LimitHit: "memory 512 MiB"}, "exit status 1: memory 512 MiB limit reached"},
	}
	for _, c := range cases {
		if got := c.r.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.r, got, c.want)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	cases := map[int64]string{0: "0 bytes", 1000: "1000 bytes", 1024: "1 KiB", 512 << 20: "512 MiB", 3 << 30: "3 GiB", 1536: "1536 bytes"}
	for n, want := range cases {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestParseBackend(t *testing.T) {
	cases := []struct {
		in      string
		want    Backend
		wantErr string
	}{
		{"", Auto, ""},
		{"landlock", Landlock, ""},
		{"bwrap", Bubblewrap, ""},
		{"bubblewrap", "", `sandbox: unknown backend "bubblewrap" (valid: auto, landlock, bwrap, firejail, none)`},
	}
	for _, c := range cases {
		got, err := ParseBackend(c.in)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != c.want || gotErr != c.wantErr {
			t.Errorf("ParseBackend(%q) = %q, %q; want %q, %q", c.in, got, gotErr, c.want, c.wantErr)
		}
	}
}

func TestDecodeHelperSpec(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		wantErr string
	}{
		{"minimal", `{"path":"/bin/true","argv":["true"],"env":["A=b"],"limits":{}}`, ""},
		{"with landlock", `{"path":"/bin/true","argv":["true"],"env":[],"limits":{"data":1},"landlock":{"min_abi":1,"ro_dirs":["/usr"],"restrict_network":true}}`, ""},
		{"unknown field", `{"path":"/bin/true","argv":["true"],"bogus":1}`, `sandbox helper: decoding the spec: json: unknown field "bogus"`},
		{"relative path", `{"path":"true","argv":["true"]}`, `sandbox helper: invalid spec: path "true" is not an absolute path`},
		{"empty argv", `{"path":"/bin/true","argv":[]}`, "sandbox helper: invalid spec: argv is empty"},
		{"NUL", `{"path":"/bin/true","argv":["a\u0000"]}`, `sandbox helper: invalid spec: argv entry "a\x00" contains a NUL byte`},
		{"bad env", `{"path":"/bin/true","argv":["t"],"env":["=x"]}`, `sandbox helper: invalid spec: env entry "=x" is not NAME=VALUE`},
		{"bad abi", `{"path":"/bin/true","argv":["t"],"landlock":{"min_abi":0}}`, "sandbox helper: invalid spec: min_abi 0 out of range 1..64"},
		{"relative landlock path", `{"path":"/bin/true","argv":["t"],"landlock":{"min_abi":1,"rw_dirs":["ws"]}}`, `sandbox helper: invalid spec: landlock path "ws" is not an absolute path`},
		{"trailing data", `{"path":"/bin/true","argv":["t"]} {}`, "sandbox helper: trailing data after the spec"},
		{"not json", `path=/bin/true`, "sandbox helper: decoding the spec: invalid character 'p' looking for beginning of value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeHelperSpec([]byte(c.in))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != c.wantErr {
				t.Errorf("error %q, want %q", got, c.wantErr)
			}
		})
	}
}

func TestBwrapSystemDir(t *testing.T) {
	dir := t.TempDir()
	link := dir + "/bin"
	if err := syscall.Symlink("usr/bin", link); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path string
		want []string
	}{
		{link, []string{"--symlink", "usr/bin", link}},
		{dir, []string{"--ro-bind", dir, dir}},
		{dir + "/missing", nil},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, bwrapSystemDir(c.path)); diff != "" {
			t.Errorf("bwrapSystemDir(%s) (-want +got):\n%s", c.path, diff)
		}
	}
}

func TestSecretSystemFiles(t *testing.T) {
	cases := map[string]bool{
		"/etc/shadow": true, "/etc/ssh/ssh_host_ed25519_key": true, "/etc/ssh/ssh_host_ed25519_key.pub": false,
		"/etc/passwd": false, "/etc/sudoers.d": true, "/etc/ssh/ssh_config": false,
	}
	for path, want := range cases {
		if got := isSecretSystemFile(path); got != want {
			t.Errorf("isSecretSystemFile(%s) = %v, want %v", path, got, want)
		}
	}
	holders := map[string]bool{"/etc": true, "/etc/ssh": true, "/usr": false, "/etc/ssl": true, "/etc/apt": false}
	for dir, want := range holders {
		if got := holdsSecretSystemFile(dir); got != want {
			t.Errorf("holdsSecretSystemFile(%s) = %v, want %v", dir, got, want)
		}
	}
}
