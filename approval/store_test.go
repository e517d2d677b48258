package approval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/state"
)

var now = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

func TestSessionGrantsSharedAcrossStores(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	first := NewGrantStore(dir, "")
	g := Grant{Tool: "Bash", CommandPrefix: "npm test", Scope: Session, Session: "sess/1", Created: now}
	if err := first.AddSession(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := first.AddSession(ctx, g); err != nil { // duplicate: kept once
		t.Fatal(err)
	}
	second := NewGrantStore(dir, "") // another hook process of the same session
	got, err := second.Session(ctx, "sess/1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Grant{g}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	other, _ := second.Session(ctx, "sess-2")
	if len(other) != 0 {
		t.Errorf("another session sees %v", other)
	}
	if _, err := os.Stat(filepath.Join(dir, "grants", "sess%2F1.json")); err != nil {
		t.Errorf("session file not under grants/: %v", err)
	}
}

func TestSessionGrantsConcurrent(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			g := Grant{Tool: "Bash", CommandPrefix: "make t" + string(rune('a'+i)), Scope: Session, Session: "s"}
			if err := NewGrantStore(dir, "").AddSession(context.Background(), g); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := NewGrantStore(dir, "").Session(context.Background(), "s")
	if err != nil || len(got) != 20 {
		t.Errorf("%d grants, %v; want 20", len(got), err)
	}
}

func TestAddSessionRejects(t *testing.T) {
	s := NewGrantStore(t.TempDir(), "")
	for _, g := range []Grant{
		{Tool: "Bash", Scope: Always, Session: "s"},
		{Tool: "Bash", Scope: Session},
		{Tool: "Bash", CommandPrefix: "a | b", Scope: Session, Session: "s"},
	} {
		if err := s.AddSession(context.Background(), g); err == nil {
			t.Errorf("AddSession(%+v) succeeded", g)
		}
	}
}

func TestCorruptSessionFileFailsClosed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "grants", "s1.json")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(`{"grants":[{"tool":"Bash"`), 0o600)
	s := NewGrantStore(dir, "")
	grants, err := s.Grants(context.Background(), "s1")
	if _, ok := errors.AsType[*state.CorruptError](err); !ok {
		t.Fatalf("Grants on a corrupt file = %v, want *state.CorruptError", err)
	}
	if grants != nil {
		t.Errorf("grants %v returned with the error", grants)
	}
	matches, _ := filepath.Glob(path + ".corrupt-*")
	if len(matches) != 1 {
		t.Errorf("corrupt file not set aside: %v", matches)
	}
}

const userPolicy = `# my policy
mode = "supervised" # inline comment

[budget]
max_actions_per_hour = 100
` // note: no trailing blank line

func TestAlwaysGrantSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	pf := filepath.Join(dir, "config", "policy.toml")
	os.MkdirAll(filepath.Dir(pf), 0o700)
	os.WriteFile(pf, []byte(userPolicy), 0o640)
	ctx := context.Background()
	r := Request{Call: bash("npm test", "s1")}
	g, ok, err := NewGrantStore(dir, pf).Record(ctx, r, Answer{Approved: true, Scope: Always, By: "terminal"}, now)
	if err != nil || !ok {
		t.Fatalf("Record = %v, %v", ok, err)
	}
	if _, _, err := NewGrantStore(dir, pf).Record(ctx, r, Answer{Approved: true, Scope: Always}, now.Add(time.Hour)); err != nil {
		t.Fatal(err) // the same grant again: no second table
	}

	data, _ := os.ReadFile(pf)
	want := userPolicy + `
# Added by toolguard when you answered "always".
[[grants]]
tool = "Bash"
command = "npm test"
added = 2026-11-21T09:30:00Z
`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("policy file (-want +got):\n%s", diff)
	}
	bak, _ := os.ReadFile(pf + ".bak")
	if string(bak) != userPolicy {
		t.Errorf("backup = %q, want the original", bak)
	}
	if fi, _ := os.Stat(pf); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the original 0640", fi.Mode().Perm())
	}

	fresh := NewGrantStore(t.TempDir(), pf) // a new process, another state dir
	got, err := fresh.Grants(ctx, "another-session")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Grant{{Tool: "Bash", Command: "npm test", Scope: Always, Created: now}}, got); diff != "" {
		t.Errorf("grants read back (-want +got):\n%s", diff)
	}
	if g.Pattern() != "Bash(npm test)" || !got[0].Matches(bash("npm test", "x")) || got[0].Matches(bash("npm test --ci", "x")) {
		t.Errorf("read-back grant %v does not cover exactly npm test", got[0])
	}
}

func TestAlwaysGrantNewFileAndQuoting(t *testing.T) {
	pf := filepath.Join(t.TempDir(), "toolguard", "policy.toml")
	s := NewGrantStore(t.TempDir(), pf)
	g := Grant{Tool: "Bash", CommandPrefix: `grep "a b" x`, Scope: Always, Created: now}
	if err := s.AddAlways(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(pf)
	want := "# Added by toolguard when you answered \"always\".\n[[grants]]\ntool = \"Bash\"\ncommand_prefix = \"grep \\\"a b\\\" x\"\nadded = 2026-11-21T09:30:00Z\n"
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := os.Stat(pf + ".bak"); !os.IsNotExist(err) {
		t.Errorf("a backup of a file that did not exist: %v", err)
	}
	got, _ := s.Always(context.Background())
	if len(got) != 1 || got[0].CommandPrefix != g.CommandPrefix {
		t.Errorf("read back %+v", got)
	}
}

func TestAlwaysGrantRefusesBrokenFile(t *testing.T) {
	for name, content := range map[string]string{
		"invalid toml":     "mode = \n",
		"grants as inline": "grants = []\n",
	} {
		t.Run(name, func(t *testing.T) {
			pf := filepath.Join(t.TempDir(), "policy.toml")
			os.WriteFile(pf, []byte(content), 0o600)
			err := NewGrantStore(t.TempDir(), pf).AddAlways(context.Background(), Grant{Tool: "Write", Scope: Always})
			if err == nil || !strings.Contains(err.Error(), "not adding the grant Write") {
				t.Errorf("AddAlways = %v, want a refusal", err)
			}
			data, _ := os.ReadFile(pf)
			if string(data) != content {
				t.Errorf("file changed to %q", data)
			}
		})
	}
}

func TestRecordScopes(t *testing.T) {
	dir := t.TempDir()
	pf := filepath.Join(dir, "policy.toml")
	s := NewGrantStore(dir, pf)
	ctx := context.Background()
	r := Request{Call: bash("go test ./...", "s1")}
	for _, a := range []Answer{{Approved: false, Scope: Always}, {Approved: true, Scope: Once}} {
		if _, ok, err := s.Record(ctx, r, a, now); ok || err != nil {
			t.Errorf("Record(%+v) = %v, %v; want nothing recorded", a, ok, err)
		}
	}
	if _, ok, err := s.Record(ctx, r, Answer{Approved: true, Scope: Session}, now); !ok || err != nil {
		t.Fatalf("session Record = %v, %v", ok, err)
	}
	got, _ := s.Grants(ctx, "s1")
	want := []Grant{{Tool: "Bash", Command: "go test ./...", Scope: Session, Session: "s1", Created: now}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := os.Stat(pf); !os.IsNotExist(err) {
		t.Error("a session grant touched the policy file")
	}
}

func TestAlwaysGrantYAMLPolicy(t *testing.T) {
	pf := filepath.Join(t.TempDir(), "policy.yaml")
	os.WriteFile(pf, []byte("mode: strict\n"), 0o600)
	s := NewGrantStore(t.TempDir(), pf)
	err := s.AddAlways(context.Background(), Grant{Tool: "Bash", CommandPrefix: "make", Scope: Always})
	if err == nil || !strings.Contains(err.Error(), "is not a TOML file") {
		t.Errorf("AddAlways to YAML = %v", err)
	}
	if data, _ := os.ReadFile(pf); string(data) != "mode: strict\n" {
		t.Errorf("YAML file changed: %q", data)
	}
	if g, err := s.Always(context.Background()); g != nil || err != nil {
		t.Errorf("Always from YAML = %v, %v", g, err)
	}
}

func TestAlwaysDisabled(t *testing.T) {
	s := NewGrantStore(t.TempDir(), "")
	if err := s.AddAlways(context.Background(), Grant{Tool: "Bash", Scope: Always}); err == nil {
		t.Error("AddAlways without a policy file succeeded")
	}
	if g, err := s.Always(context.Background()); g != nil || err != nil {
		t.Errorf("Always = %v, %v", g, err)
	}
}

func TestDefaultGrantStore(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/st")
	t.Setenv("XDG_CONFIG_HOME", "/cf")
	s, err := DefaultGrantStore()
	if err != nil || s.dir != "/st/toolguard/grants" || s.policyFile() != "/cf/toolguard/policy.toml" {
		t.Errorf("DefaultGrantStore = %+v, %v", s, err)
	}
}

func TestTOMLString(t *testing.T) {
	tests := map[string]string{
		"plain":       `"plain"`,
		`q"b\`:        `"q\"b\\"`,
		"tab\tnl\x7f": `"tab\u0009nl\u007F"`,
		"é":           `"é"`,
	}
	for in, want := range tests {
		if got := tomlString(in); got != want {
			t.Errorf("tomlString(%q) = %s, want %s", in, got, want)
		}
	}
}

// A lazy store looks for its policy file only when an always grant is read
// or added, once, and then behaves as NewGrantStore with that file.
func TestLazyGrantStoreResolvesOnce(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "policy.toml")
	calls := 0
	s := NewLazyGrantStore(dir, func() string { calls++; return file })
	if calls != 0 {
		t.Fatalf("policy file looked up %d times before use", calls)
	}
	ctx := context.Background()
	g := Grant{Tool: "Bash", CommandPrefix: "make test", Scope: Always}
	if err := s.AddAlways(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, err := s.Always(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := NewGrantStore(dir, file).Always(ctx)
	if err != nil || len(got) != 1 || len(want) != 1 || got[0].Pattern() != want[0].Pattern() {
		t.Fatalf("lazy store: %v, %v; eager store: %v", got, err, want)
	}
	if calls != 1 {
		t.Fatalf("policy file looked up %d times, want 1", calls)
	}
}
