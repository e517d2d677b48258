//go:build linux

package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// agentTree is a home directory, a workspace and a sibling project laid
// out outside /tmp (which the Agent profile makes writable), as a
// developer's machine has them.
type agentTree struct {
	base, home, ws, sibling, hidden string
}

// newAgentTree makes the tree below the package directory: every
// directory the tests could use under /tmp is writable in the profile.
func newAgentTree(t *testing.T) agentTree {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.MkdirTemp(wd, ".agent-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	a := agentTree{base: base, home: filepath.Join(base, "home"), ws: filepath.Join(base, "src", "proj"),
		sibling: filepath.Join(base, "src", "other")}
	a.hidden = filepath.Join(a.home, ".config", "toolguard")
	for path, content := range map[string]string{
		"home/notes.txt":                     "notes\n",
		"home/victim/keep.txt":               "precious\n",
		"home/.bashrc":                       "# rc\n",
		"home/.ssh/id_rsa":                   "FAKE-PRIVATE-KEY\n",
		"home/.ssh/config":                   "Host *\n",
		"home/.ssh/known_hosts":              "host key\n",
		"home/.aws/credentials":              "[default]\nkey=SECRET\n",
		"home/.config/toolguard/policy.toml": "mode = \"trusted\"\n",
		"home/.config/other/settings.ini":    "x=1\n",
		"home/.cache/go-build/README":        "cache\n",
		"src/proj/main.go":                   "package main\n",
		"src/proj/.env":                      "WS_SECRET=1\n",
		"src/other/README.md":                "other\n",
		"src/other/.env":                     "SIBLING_SECRET=1\n",
		"src/other/deep/er/still/.env":       "TOO_DEEP=1\n",
	} {
		mustWrite(t, filepath.Join(base, path), content)
	}
	if err := os.Symlink(filepath.Join(a.home, ".ssh", "id_rsa"), filepath.Join(a.home, "innocent")); err != nil {
		t.Fatal(err)
	}
	return a
}

// testSecret is the tests' Secret: what toolguard's default denied list
// says about these names.
func testSecret(path string) bool {
	base := filepath.Base(path)
	switch {
	case base == ".env", base == "credentials", base == "id_rsa":
		return true
	case strings.Contains(path, "/.aws/") && base != "config":
		return true
	}
	return false
}

func (a agentTree) spec(script string) Spec {
	return Spec{Argv: []string{"sh", "-c", script}, Workspace: a.ws, Profile: Agent, Secret: testSecret,
		Hidden: []string{a.hidden}, AllowNetwork: true,
		Env: []string{"PATH=/usr/bin:/bin", "HOME=" + a.home, "GITHUB_TOKEN=ghp_x", "PLAIN=kept", "TMPDIR=/tmp"}}
}

// TestAgentProfile checks what an agent's command may and may not do
// under the Agent profile.
func TestAgentProfile(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	a := newAgentTree(t)
	scratch := fmt.Sprintf("/tmp/toolguard-agent-test-%d", os.Getpid())
	t.Cleanup(func() { os.RemoveAll(scratch) })
	cases := []struct {
		name, script string
		ok           bool
	}{
		{"read the workspace", "cat main.go .env", true},
		{"write the workspace", "echo x > new.txt && mkdir -p d/e && mv new.txt d/e/ && rm -r d", true},
		{"read the home directory", "cat ~/notes.txt ~/.bashrc ~/victim/keep.txt && ls ~ ~/.ssh", true},
		{"read public ssh files", "cat ~/.ssh/config ~/.ssh/known_hosts", true},
		{"read another project", "cat ../other/README.md", true},
		{"read a deep file the search did not reach", "cat ../other/deep/er/still/.env", true},
		{"write /tmp", "mkdir -p " + scratch + " && echo x > " + scratch + "/f && cat " + scratch + "/f", true},
		{"write a toolchain cache", "echo x > ~/.cache/go-build/entry && mkdir ~/.cache/pip", true},
		{"read a key", "cat ~/.ssh/id_rsa", false},
		{"read a key through a link", "cat ~/innocent", false},
		{"read cloud credentials", "cat ~/.aws/credentials", false},
		{"read another project's .env", "cat ../other/.env", false},
		{"read toolguard's policy", "cat ~/.config/toolguard/policy.toml", false},
		{"append to the shell rc", "echo evil >> ~/.bashrc", false},
		{"delete in the home directory", "rm -rf ~/victim", false},
		{"create in the home directory", "touch ~/dropped", false},
		{"write another project", "echo x > ../other/README.md", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, o := run(t, a.spec(c.script))
			if r.Success() != c.ok {
				t.Errorf("%q: %s, stdout %q stderr %q; want success %v", c.script, r, o.stdout.String(), o.stderr.String(), c.ok)
			}
		})
	}
	for path, want := range map[string]string{
		"home/.bashrc": "# rc\n", "home/victim/keep.txt": "precious\n", "src/other/README.md": "other\n",
	} {
		if got, _ := os.ReadFile(filepath.Join(a.base, path)); string(got) != want {
			t.Errorf("%s = %q after the runs, want %q", path, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(a.home, "dropped")); err == nil {
		t.Error("a file was created in the home directory")
	}
}

// TestAgentEnvironment: the command keeps its environment but for the
// variables that look like secrets, and the real TMPDIR.
func TestAgentEnvironment(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	a := newAgentTree(t)
	spec := a.spec("env")
	spec.Env = append(spec.Env, "SSH_AUTH_SOCK=/nonexistent/agent.sock", "AWS_SECRET_ACCESS_KEY=x")
	_, o := run(t, spec)
	var got []string
	for _, kv := range strings.Split(strings.TrimSpace(o.stdout.String()), "\n") {
		if name, _, _ := strings.Cut(kv, "="); name != "PWD" && name != "SHLVL" && name != "_" && name != RunVar {
			got = append(got, kv)
		}
	}
	slices.Sort(got)
	want := []string{"HOME=" + a.home, "PATH=/usr/bin:/bin", "PLAIN=kept", "SSH_AUTH_SOCK=/nonexistent/agent.sock", "TMPDIR=/tmp"}
	if !slices.Equal(got, want) {
		t.Errorf("environment %q\nwant %q", got, want)
	}
}

// execSpec is what the test binary's __test-agentexec mode runs with Exec.
type execSpec struct {
	Argv            []string
	Workspace, Home string
	Hidden          []string
	Protected       []string
}

// agentExec runs Exec for the spec in $TOOLGUARD_TEST_EXEC; it returns
// only when Exec failed.
func agentExec([]string) int {
	var s execSpec
	if err := json.Unmarshal([]byte(os.Getenv("TOOLGUARD_TEST_EXEC")), &s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 120
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "TOOLGUARD_TEST_EXEC=") })
	err := Exec(Spec{Argv: s.Argv, Workspace: s.Workspace, Profile: Agent, Secret: testSecret, Hidden: s.Hidden,
		Protected: s.Protected, AllowNetwork: true, Env: append(env, "HOME="+s.Home)})
	fmt.Fprintln(os.Stderr, "Exec:", err)
	return 121
}

// TestExecReplacesTheProcess: under Exec the command is the process that
// started it — the same pid, stdin, exit status and signal — confined;
// its background job outlives it.
func TestExecReplacesTheProcess(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	a := newAgentTree(t)
	start := func(script string, stdin string) (*exec.Cmd, *strings.Builder, *strings.Builder) {
		b, _ := json.Marshal(execSpec{Argv: []string{"sh", "-c", script}, Workspace: a.ws, Home: a.home, Hidden: []string{a.hidden}})
		cmd := exec.Command(testBinary(t), "__test-agentexec")
		cmd.Dir = a.ws
		cmd.Env = append(os.Environ(), "TOOLGUARD_TEST_EXEC="+string(b))
		cmd.Stdin = strings.NewReader(stdin)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		return cmd, &stdout, &stderr
	}
	cmd, stdout, stderr := start(`echo pid $$; read line; echo "got $line"; cat ~/.ssh/id_rsa; exit 7`, "hello\n")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	cmd.Wait()
	if got := cmd.ProcessState.ExitCode(); got != 7 {
		t.Errorf("exit status %d, want 7 (stderr %q)", got, stderr.String())
	}
	if want := fmt.Sprintf("pid %d\ngot hello\n", pid); stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	if !strings.Contains(stderr.String(), "Permission denied") {
		t.Errorf("reading the key: stderr %q, want Permission denied", stderr.String())
	}

	cmd, _, _ = start("kill -TERM $$", "")
	cmd.Run()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGTERM {
		t.Errorf("a command that killed itself ended %s, want killed by SIGTERM", cmd.ProcessState)
	}

	marker := filepath.Join(a.ws, "background-done")
	cmd, _, stderr = start("(sleep 0.3; touch "+marker+") >/dev/null 2>&1 & exit 0", "")
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	waitForFile(t, marker)
}

// waitForFile waits up to 5 s for path to exist.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for range 500 {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%s never appeared: the background job did not outlive the command", path)
}

// TestSearchCache: the search's result is kept in the cache file and used
// while the directories it read are unchanged; a new secret in one of them
// is found at the next run; the file is out of the command's reach.
func TestSearchCache(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	a := newAgentTree(t)
	cache := filepath.Join(a.hidden, "search.cache")
	spec := func(script string) Spec {
		s := a.spec(script)
		s.SearchCache, s.SearchKey = cache, "policy-1"
		return s
	}
	if r, _ := run(t, spec("cat ../other/.env")); r.Success() {
		t.Fatal("another project's .env was readable")
	}
	files, _ := filepath.Glob(cache + ".*")
	if len(files) != 1 {
		t.Fatalf("cache files %q, want one", files)
	}
	file := files[0]
	data, err := os.ReadFile(file)
	if err != nil || !strings.Contains(string(data), strconv.Quote(filepath.Join(a.sibling, ".env"))) {
		t.Fatalf("cache %q (%v) does not hold the hole", data, err)
	}
	if r, o := run(t, spec("cat "+file)); r.Success() {
		t.Errorf("the cache file was readable: %q", o.stdout.String())
	}

	// A cache whose holes were removed is used as it is: the file decides
	// what is readable, which is why it lives where the command cannot
	// write.
	stripped := strings.ReplaceAll(string(data), "hole "+strconv.Quote(filepath.Join(a.sibling, ".env"))+"\n", "")
	mustWrite(t, file, stripped)
	if r, _ := run(t, spec("cat ../other/.env")); !r.Success() {
		t.Error("the cached result was not used")
	}
	// Another key, or a changed directory, makes a new search.
	s := spec("cat ../other/.env")
	s.SearchKey = "policy-2"
	if r, _ := run(t, s); r.Success() {
		t.Error("a cache made for another policy was used")
	}
	mustWrite(t, filepath.Join(a.sibling, "new", ".env"), "NEW=1\n")
	if r, _ := run(t, spec("cat ../other/new/.env")); r.Success() {
		t.Error("a secret added since the cached search was readable")
	}
}

// TestSearchCacheWorkspaces: commands in two projects, one after the
// other, each use the search cached for their own workspace (a search
// depends on which directory is writable), so neither searches again;
// beyond maxSearchCaches the oldest cache files are removed.
func TestSearchCacheWorkspaces(t *testing.T) {
	if LandlockABI() < abiFilesystem {
		t.Skip("kernel lacks Landlock (ABI 0)")
	}
	a := newAgentTree(t)
	base := filepath.Join(a.hidden, "search.cache")
	runIn := func(ws string) {
		s := a.spec("true")
		s.Workspace, s.SearchCache, s.SearchKey = ws, base, "policy-1"
		if r, o := run(t, s); !r.Success() {
			t.Fatalf("%s: %s", r, o.stderr.String())
		}
	}
	runIn(a.ws)
	runIn(a.sibling)
	files, _ := filepath.Glob(base + ".*")
	if len(files) != 2 {
		t.Fatalf("cache files %q, want one per workspace", files)
	}
	stamps := map[string]time.Time{}
	for _, f := range files {
		fi, _ := os.Stat(f)
		stamps[f] = fi.ModTime()
	}
	time.Sleep(20 * time.Millisecond)
	runIn(a.ws)
	runIn(a.sibling)
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || !fi.ModTime().Equal(stamps[f]) {
			t.Errorf("%s was written again (%v): the other workspace's run searched anew", f, err)
		}
	}
	for i := range maxSearchCaches + 3 {
		mustWrite(t, base+".old"+strconv.Itoa(i), "x\n")
	}
	mustWrite(t, filepath.Join(a.home, "changed"), "x\n") // the next run writes its cache
	runIn(a.sibling)
	if files, _ := filepath.Glob(base + ".*"); len(files) != maxSearchCaches {
		t.Errorf("%d cache files kept, want %d", len(files), maxSearchCaches)
	}
}
