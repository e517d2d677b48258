package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/toolguard/toolguard/policy"
)

// rmBuildPayload is a Claude Code Bash call of "rm -rf build" in dir. Its
// verdict depends on the mode only, so the reply names the policy that
// decided it (rmBuildReply).
func rmBuildPayload(t *testing.T, dir string) []byte {
	t.Helper()
	b, err := json.Marshal(map[string]any{"session_id": "s1", "cwd": dir, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf build"}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rmBuildReply is the Claude Code reply to rmBuildPayload under each mode.
var rmBuildReply = map[string]string{
	"readonly":   claudeReply("deny", "toolguard blocked this call: The readonly mode denies execute-tier calls (rule mode.readonly)."),
	"strict":     claudeReply("ask", "toolguard asks for approval: The strict mode asks a person before execute-tier calls (rule mode.strict)."),
	"supervised": claudeReply("ask", "toolguard asks for approval: The supervised mode asks a person before execute-tier calls (rule mode.supervised)."),
	"trusted":    claudeReply("allow", "toolguard allowed this call (rule mode.trusted)."),
	"full":       claudeReply("allow", "toolguard allowed this call (rule mode.full)."),
}

func claudeReply(decision, reason string) string {
	return `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"` + decision +
		`","permissionDecisionReason":"` + reason + `"}}` + "\n"
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func removeFile(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

// rewriteInPlace overwrites path (same inode) with content of the same
// size, and makes sure the file's identity changed: where the file system
// keeps coarse timestamps, a write in the same clock tick as the last one
// leaves device, inode, size, mtime and ctime as they were, so it writes
// again a millisecond later (never for seconds).
func rewriteInPlace(t *testing.T, path, content string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != int64(len(content)) {
		t.Fatalf("rewriteInPlace: %d bytes replace %d; the test needs the same size", len(content), fi.Size())
	}
	before := fileIdentity(path)
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(time.Millisecond) {
		writeFile(t, path, content)
		if fileIdentity(path) != before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("rewriting %s for 2s left its identity %s unchanged", path, before)
		}
	}
}

// replaceByRename writes content to a new file and renames it over path,
// as editors and configuration tools do.
func replaceByRename(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".new"
	writeFile(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// padTo pads a TOML or YAML policy with a comment to n bytes.
func padTo(t *testing.T, policyText string, n int) string {
	t.Helper()
	pad := n - len(policyText) - len("#\n")
	if pad < 0 {
		t.Fatalf("padTo: %q is longer than %d bytes", policyText, n)
	}
	return policyText + "#" + strings.Repeat("x", pad) + "\n"
}

// TestPolicyCacheSeesPolicyChanges edits, replaces, removes and creates
// the policy files a hook call reads, one step after another with the
// cache on, and checks that the very next relayed call decides with the
// policy on disk: its reply is the one that policy gives and the one a
// fresh engine process gives, and the first call of a step compiles (the
// cache gains an entry) unless the files are back as an earlier step left
// them, and the second call never does.
func TestPolicyCacheSeesPolicyChanges(t *testing.T) {
	d := hermeticEnv(t)
	cache := withCache(t)
	userTOML := filepath.Join(d.config, "toolguard", "policy.toml")
	userYAML := filepath.Join(d.config, "toolguard", "policy.yaml")
	project := filepath.Join(d.proj, ".toolguard.toml")
	nested := filepath.Join(d.proj, ".toolguard", "policy.toml")
	const size = 40
	// reused: the files are as an earlier step left them, so that step's
	// cache entry is right and is used.
	steps := []struct {
		name   string
		change func(t *testing.T)
		mode   string
		reused bool
	}{
		{"no policy file", func(*testing.T) {}, "supervised", false},
		{"user policy.toml created", func(t *testing.T) { writeFile(t, userTOML, padTo(t, `mode = "full"`+"\n", size)) }, "full", false},
		{"user policy.toml rewritten in place, same size", func(t *testing.T) {
			rewriteInPlace(t, userTOML, padTo(t, `mode = "trusted"`+"\n", size))
		}, "trusted", false},
		{"user policy.toml rewritten in place again, same size", func(t *testing.T) {
			rewriteInPlace(t, userTOML, padTo(t, `mode = "readonly"`+"\n", size))
		}, "readonly", false},
		{"user policy.toml replaced by rename", func(t *testing.T) { replaceByRename(t, userTOML, padTo(t, `mode = "strict"`+"\n", size)) }, "strict", false},
		{"user policy.toml removed", func(t *testing.T) { removeFile(t, userTOML) }, "supervised", false},
		{"user policy.yaml created, no .toml", func(t *testing.T) { writeFile(t, userYAML, "mode: full\n") }, "full", false},
		{"user policy.toml created beside the .yaml wins", func(t *testing.T) { writeFile(t, userTOML, `mode = "trusted"`+"\n") }, "trusted", false},
		{"both user policies removed", func(t *testing.T) { removeFile(t, userTOML); removeFile(t, userYAML) }, "supervised", true},
		{"project .toolguard.toml created", func(t *testing.T) { writeFile(t, project, `mode = "readonly"`+"\n") }, "readonly", false},
		{"project .toolguard.toml removed", func(t *testing.T) { removeFile(t, project) }, "supervised", true},
		{"project .toolguard/policy.toml created", func(t *testing.T) { writeFile(t, nested, `mode = "strict"`+"\n") }, "strict", false},
		{"project .toolguard/policy.toml replaced by rename", func(t *testing.T) { replaceByRename(t, nested, `mode = "readonly"`+"\n") }, "readonly", false},
		{"project .toolguard directory removed", func(t *testing.T) { removeFile(t, nested); removeFile(t, filepath.Dir(nested)) }, "supervised", true},
	}
	if len(steps) > maxCachedPolicies {
		t.Fatalf("%d steps overflow the cache (%d entries) and the entry counts below no longer hold", len(steps), maxCachedPolicies)
	}
	args := []string{"hook", "claude-code"}
	payload := rmBuildPayload(t, d.proj)
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.change(t)
			wantEntries := len(cache.m)
			if !st.reused {
				wantEntries++
			}
			for call := range 2 {
				got := relayed(args, payload)
				want := answer{Code: 0, Stdout: rmBuildReply[st.mode]}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("call %d (-want %s policy +got):\n%s", call+1, st.mode, diff)
				}
				if diff := cmp.Diff(fresh(args, payload), got); diff != "" {
					t.Errorf("call %d (-fresh engine +relay):\n%s", call+1, diff)
				}
				if diff := cmp.Diff(wantEntries, len(cache.m)); diff != "" {
					t.Errorf("cache entries after call %d (-want +got):\n%s", call+1, diff)
				}
			}
		})
	}
}

// TestPolicyCacheProjectOfAgentsWithoutProjectVariable checks that for an
// agent that names no project directory in its environment (Codex), the
// project policy is the one of the engine's working directory — the
// launcher's, which is part of the daemon's context — and not the one of
// the directory the payload names.
func TestPolicyCacheProjectOfAgentsWithoutProjectVariable(t *testing.T) {
	d := hermeticEnv(t)
	cache := withCache(t)
	elsewhere := filepath.Join(d.home, "elsewhere")
	writeFile(t, filepath.Join(elsewhere, ".toolguard.toml"), `mode = "readonly"`+"\n")
	payload := rmBuildPayload(t, elsewhere)
	args := []string{"hook", "codex"}
	deferred := answer{Code: 0, Stdout: "{}\n"} // Codex cannot ask from PreToolUse: --defer-ask
	readonly := answer{Code: 0, Stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"toolguard blocked this call: The readonly mode denies execute-tier calls (rule mode.readonly)."}}` + "\n"}
	steps := []struct {
		name   string
		change func(t *testing.T)
		want   answer
	}{
		{"policy only in the payload's cwd", func(*testing.T) {}, deferred},
		{"policy in the working directory", func(t *testing.T) { writeFile(t, filepath.Join(d.proj, ".toolguard.toml"), `mode = "readonly"`+"\n") }, readonly},
		{"working directory's policy removed", func(t *testing.T) { removeFile(t, filepath.Join(d.proj, ".toolguard.toml")) }, deferred},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			st.change(t)
			for call := range 2 {
				got := relayed(append(args, "--defer-ask"), payload)
				if diff := cmp.Diff(st.want, got); diff != "" {
					t.Errorf("call %d (-want +got):\n%s", call+1, diff)
				}
				if diff := cmp.Diff(fresh(append(args, "--defer-ask"), payload), got); diff != "" {
					t.Errorf("call %d (-fresh engine +relay):\n%s", call+1, diff)
				}
			}
		})
	}
	if diff := cmp.Diff(2, len(cache.m)); diff != "" {
		t.Errorf("cache entries (-want +got):\n%s", diff)
	}
}

// TestPolicyCacheKeysFlags checks that calls with different policy flags
// get different cache entries, each deciding with its own flags.
func TestPolicyCacheKeysFlags(t *testing.T) {
	d := hermeticEnv(t)
	cache := withCache(t)
	payload := rmBuildPayload(t, d.proj)
	tests := []struct {
		flags []string
		mode  string
	}{
		{nil, "supervised"},
		{[]string{"--mode", "full"}, "full"},
		{[]string{"--mode", "readonly"}, "readonly"},
		{[]string{"--mode=strict"}, "strict"},
		{[]string{"--mode", "trusted"}, "trusted"},
		{[]string{"--read-only"}, "readonly"},
	}
	for round := range 2 {
		for i, tt := range tests {
			got := relayed(append([]string{"hook", "claude-code"}, tt.flags...), payload)
			if diff := cmp.Diff(answer{Stdout: rmBuildReply[tt.mode]}, got); diff != "" {
				t.Errorf("round %d, flags %q (-want +got):\n%s", round+1, tt.flags, diff)
			}
			if round == 0 && len(cache.m) != i+1 {
				t.Errorf("after flags %q: %d cache entries, want %d", tt.flags, len(cache.m), i+1)
			}
		}
	}
	if diff := cmp.Diff(len(tests), len(cache.m)); diff != "" {
		t.Errorf("cache entries after the second round (-want +got):\n%s", diff)
	}
}

// TestPolicyCacheIsBounded makes more distinct loads than the cache holds
// and checks it never holds more than maxCachedPolicies, while every
// answer stays right.
func TestPolicyCacheIsBounded(t *testing.T) {
	d := hermeticEnv(t)
	cache := withCache(t)
	payload := rmBuildPayload(t, d.proj)
	for i := range 3*maxCachedPolicies + 1 {
		args := []string{"hook", "claude-code", "--denied-paths", fmt.Sprintf("/nowhere/%d/**", i)}
		if diff := cmp.Diff(answer{Stdout: rmBuildReply["supervised"]}, relayed(args, payload)); diff != "" {
			t.Fatalf("load %d (-want +got):\n%s", i, diff)
		}
		if n := len(cache.m); n > maxCachedPolicies || n == 0 {
			t.Fatalf("after load %d the cache holds %d policies, want 1 to %d", i, n, maxCachedPolicies)
		}
	}
}

// TestPolicyCacheDoesNotKeepFailures checks that a policy that does not
// load is reported on every call, never cached, and that fixing it is
// seen at once.
func TestPolicyCacheDoesNotKeepFailures(t *testing.T) {
	d := hermeticEnv(t)
	cache := withCache(t)
	payload := rmBuildPayload(t, d.proj)
	args := []string{"hook", "claude-code"}
	user := filepath.Join(d.config, "toolguard", "policy.toml")
	project := filepath.Join(d.proj, ".toolguard.toml")
	tests := []struct {
		name    string
		file    string
		content string
	}{
		{"user policy with a syntax error", user, "mode = \n"},
		{"user policy with an unknown mode", user, `mode = "yolo"` + "\n"},
		{"user policy with an unknown key", user, `mood = "full"` + "\n"},
		{"project policy with a syntax error", project, "[paths\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeFile(t, tt.file, tt.content)
			want := fresh(args, payload)
			if want.Code != ExitDeny || !strings.HasPrefix(want.Stderr, "toolguard: cannot load the policy (") || want.Stdout != "" {
				t.Fatalf("a fresh engine answers %+v; want exit 2 and the load error", want)
			}
			for call := range 3 {
				if diff := cmp.Diff(want, relayed(args, payload)); diff != "" {
					t.Errorf("call %d (-fresh engine +relay):\n%s", call+1, diff)
				}
			}
			if diff := cmp.Diff(0, len(cache.m)); diff != "" {
				t.Errorf("cache entries after failed loads (-want +got):\n%s", diff)
			}
			removeFile(t, tt.file)
			if diff := cmp.Diff(answer{Stdout: rmBuildReply["supervised"]}, relayed(args, payload)); diff != "" {
				t.Errorf("after removing the bad file (-want +got):\n%s", diff)
			}
			clear(cache.m)
		})
	}
}

// TestPolicyCacheLoad checks the cache itself: a key is built once, a
// failed build is not kept, and a full cache starts over.
func TestPolicyCacheLoad(t *testing.T) {
	c := newPolicyCache()
	builds := map[string]int{}
	build := func(key string, err error) func() (*policy.Policy, error) {
		return func() (*policy.Policy, error) {
			builds[key]++
			if err != nil {
				return nil, err
			}
			return &policy.Policy{}, nil
		}
	}
	first, err := c.load("a", build("a", nil))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.load("a", build("a", nil))
	if first != again {
		t.Error("the second load of key a built another policy")
	}
	broken := errors.New("broken")
	for range 2 {
		if p, err := c.load("bad", build("bad", broken)); p != nil || !errors.Is(err, broken) {
			t.Errorf("failing load: %v, %v; want nil, %v", p, err, broken)
		}
	}
	for i := range maxCachedPolicies - 1 {
		c.load(fmt.Sprint("k", i), build("k", nil))
	}
	if diff := cmp.Diff(maxCachedPolicies, len(c.m)); diff != "" {
		t.Errorf("entries when full (-want +got):\n%s", diff)
	}
	c.load("one more", build("one more", nil))
	if diff := cmp.Diff(1, len(c.m)); diff != "" {
		t.Errorf("entries after starting over (-want +got):\n%s", diff)
	}
	want := map[string]int{"a": 1, "bad": 2, "k": maxCachedPolicies - 1, "one more": 1}
	if diff := cmp.Diff(want, builds); diff != "" {
		t.Errorf("builds per key (-want +got):\n%s", diff)
	}
}

// TestPolicyCacheKeysListFlagsExactly checks that list flags are keyed by
// their elements, not by how they print: one glob with a space in it and
// two globs must not share a cache entry (when they did, the second call
// was allowed to read a path its own flags deny).
func TestPolicyCacheKeysListFlagsExactly(t *testing.T) {
	d := hermeticEnv(t)
	withCache(t)
	payload, err := json.Marshal(map[string]any{"session_id": "s1", "cwd": d.proj, "hook_event_name": "PreToolUse",
		"tool_name": "Read", "tool_input": map[string]any{"file_path": "/srv/a/notes.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	allowed := claudeReply("allow", "toolguard allowed this call (rule mode.supervised).")
	denied := claudeReply("deny", `toolguard blocked this call: Reading /srv/a/notes.txt is denied: it matches the denied path pattern \"/srv/a/**\" (rule paths.denied). Allowed instead: Leave this file alone; denied paths cannot be approved. Ask the user for what you need from it.`)
	notAllowed := claudeReply("deny", `toolguard blocked this call: Reading /srv/a/notes.txt is denied: it is outside the workspace and matches none of the allowed path patterns (rule paths.not-allowed). Allowed instead: Use a path in the workspace or one matching: /srv/** /tmp/**.`)
	tests := []struct {
		flags []string
		want  string
	}{
		{[]string{"--denied-paths", "/srv/a/** /srv/b/**"}, allowed},
		{[]string{"--denied-paths", "/srv/a/**,/srv/b/**"}, denied},
		{[]string{"--denied-paths", "/srv/a/**", "--denied-paths", "/srv/b/**"}, denied},
		{[]string{"--allowed-paths", "/srv/** /tmp/**"}, notAllowed},
		{[]string{"--allowed-paths", "/srv/**,/tmp/**"}, allowed},
	}
	for round := range 2 {
		for _, tt := range tests {
			args := append([]string{"hook", "claude-code"}, tt.flags...)
			got := relayed(args, payload)
			if diff := cmp.Diff(answer{Stdout: tt.want}, got); diff != "" {
				t.Errorf("round %d, flags %q (-want +got):\n%s", round+1, tt.flags, diff)
			}
			if diff := cmp.Diff(fresh(args, payload), got); diff != "" {
				t.Errorf("round %d, flags %q (-fresh engine +relay):\n%s", round+1, tt.flags, diff)
			}
		}
	}
}

// TestPolicyCacheKey checks what the key of a load names: the same flags
// and files give the same key, and every change to a flag, the project
// directory or a policy file the load reads or looks for gives another —
// except files the flags say to ignore.
func TestPolicyCacheKey(t *testing.T) {
	d := hermeticEnv(t)
	user := filepath.Join(d.config, "toolguard", "policy.toml")
	config := filepath.Join(d.home, "extra.toml")
	writeFile(t, user, `mode = "full"`+"\n")
	writeFile(t, config, `mode = "strict"`+"\n")
	flags := func(set ...func(*policyFlags)) policyFlags {
		f := policyFlags{config: config}
		for _, s := range set {
			if s != nil {
				s(&f)
			}
		}
		return f
	}
	// both applies to the flags of both keys, after to the second only.
	tests := []struct {
		name        string
		both, after func(f *policyFlags)
		project     string
		change      func(t *testing.T)
		same        bool
	}{
		{name: "nothing changed", same: true},
		{name: "--mode", after: func(f *policyFlags) { f.mode = "full" }},
		{name: "--unattended", after: func(f *policyFlags) { f.unattended = true }},
		{name: "one more denied path", after: func(f *policyFlags) { f.deniedPaths = append(f.deniedPaths, "/x") }},
		{name: "two denied paths or one with a space", both: func(f *policyFlags) { f.deniedPaths = []string{"/a /b"} },
			after: func(f *policyFlags) { f.deniedPaths = []string{"/a", "/b"} }},
		{name: "another project directory", project: d.home},
		{name: "user policy rewritten, same size", change: func(t *testing.T) { rewriteInPlace(t, user, `mode = "trus"`+"\n") }},
		{name: "--config file rewritten, same size", change: func(t *testing.T) { rewriteInPlace(t, config, `mode = "strixt"`+"\n") }},
		{name: "user policy.json created beside the .toml", change: func(t *testing.T) { writeFile(t, filepath.Join(d.config, "toolguard", "policy.json"), "{}") }},
		{name: "project policy created", change: func(t *testing.T) { writeFile(t, filepath.Join(d.proj, ".toolguard.json"), "{}") }},
		{name: "project .toolguard directory created", change: func(t *testing.T) { writeFile(t, filepath.Join(d.proj, ".toolguard", "notes"), "") }},
		{name: "user policy edited under --no-user-config", both: func(f *policyFlags) { f.noUser = true },
			change: func(t *testing.T) { rewriteInPlace(t, user, `mode = "tru2"`+"\n") }, same: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := flags(tt.both)
			before := f.cacheKey(d.proj)
			if tt.change != nil {
				tt.change(t)
			}
			project := d.proj
			if tt.project != "" {
				project = tt.project
			}
			g := flags(tt.both, tt.after)
			after := g.cacheKey(project)
			if got := before == after; got != tt.same {
				t.Errorf("same key = %v, want %v\nbefore: %q\nafter:  %q", got, tt.same, before, after)
			}
		})
	}
}

// TestFileIdentity checks the identity of a file: "-" when missing, the
// stat fields and the SHA-256 of the content for a regular file, and the
// stat fields alone, without reading, for a FIFO or a directory.
func TestFileIdentity(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "policy.toml")
	writeFile(t, file, `mode = "full"`+"\n")
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	const fullHash = "6f3d54d33daa35fefc8925a051cd392a30ba49d71f4d86e94115ea389ab80e25" // sha256 of `mode = "full"\n`
	tests := []struct {
		name, path string
		fields     int // colon-separated fields: dev, ino, size, mtime, ctime [, hash]
		suffix     string
	}{
		{"missing", filepath.Join(dir, "missing"), 1, "-"},
		{"regular file", file, 6, ":" + fullHash},
		{"FIFO", fifo, 5, ""},
		{"directory", dir, 5, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan string, 1)
			go func() { done <- fileIdentity(tt.path) }()
			var id string
			select {
			case id = <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("fileIdentity(%s) blocked", tt.path) // it read the FIFO
			}
			got := []any{len(strings.Split(id, ":")), strings.HasSuffix(id, tt.suffix)}
			if diff := cmp.Diff([]any{tt.fields, true}, got); diff != "" {
				t.Errorf("fileIdentity = %q; (-want +got) fields, suffix %q:\n%s", id, tt.suffix, diff)
			}
		})
	}
}
