package paths

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

// brief is the part of a finding the big table compares; reasons are
// checked separately so the table stays readable.
type brief struct {
	Rule         string
	Verdict      risk.Verdict
	Category     risk.Category
	Tier         risk.Tier
	Blast        risk.Blast
	Subject      string
	Unverifiable bool
}

func briefs(fs []risk.Finding) []brief {
	var out []brief
	for _, f := range fs {
		out = append(out, brief{f.Rule, f.Verdict, f.Category, f.Tier, f.Blast, f.Subject, f.Unverifiable})
	}
	return out
}

// checkers builds the configurations the table uses over one fixture.
func checkers(t testing.TB, f fixture) map[string]*Checker {
	t.Helper()
	base := DefaultConfig()
	base.Home = f.home
	base.Protected = append(base.Protected, "<workspace>/guard.local.toml")
	base.Denied = append(base.Denied, "<workspace>/private/**")
	base.Roots = []string{"../rwroot"}
	base.ReadOnlyRoots = []string{f.root + "/shared"}
	base.WriteOnlyRoots = []string{f.root + "/drop"}
	base.Rules = []Rule{
		{Pattern: "/etc/safe_config", Read: risk.Allow, Write: risk.Deny},
		{Pattern: "<workspace>/vendor/**", Write: risk.Ask},
		{Pattern: "/etc/shadow"}, // allows everything, but Denied wins
	}
	trusted := base
	trusted.WorkspaceOnly, trusted.WriteOutside, trusted.ReadOutside = false, risk.Ask, risk.Deny
	allowed := Config{Home: "/h", Allowed: []string{"/safe/**", "/also/safe/*"}, WorkspaceOnly: true}
	out := map[string]*Checker{}
	for name, cfg := range map[string]Config{"default": base, "trusted": trusted, "allowed": allowed} {
		c, err := Compile(cfg)
		if err != nil {
			t.Fatalf("Compile(%s): %v", name, err)
		}
		out[name] = c
	}
	return out
}

func TestCheck(t *testing.T) {
	f := newFixture(t)
	cs := checkers(t, f)
	ws := Env{Cwd: f.ws}
	const (
		deny, ask, allow              = risk.Deny, risk.Ask, risk.Allow
		secret, pth, self             = risk.CatSecretRead, risk.CatPath, risk.CatSelfProtection
		none, low, med, high, unknown = risk.BlastNone, risk.BlastLow, risk.BlastMedium, risk.BlastHigh, risk.BlastUnknown
		rd, wr, destr                 = risk.Read, risk.Write, risk.Destructive
	)
	sshKey := f.home + "/.ssh/id_rsa"
	tests := []struct {
		name    string
		checker string
		path    string
		access  Access
		env     Env
		want    []brief
	}{
		{"workspace read", "default", "src/main.go", Read, ws, nil},
		{"workspace write", "default", "src/main.go", Write, ws, nil},
		{"workspace delete", "default", "src/main.go", Delete, ws, nil},
		{"dot-dot inside the workspace", "default", "src/../README.md", Write, ws, nil},
		{"symlink to a key", "default", "key", Read, ws, []brief{{RuleDenied, deny, secret, rd, high, sshKey, false}}},
		{"relative symlink to a key", "default", "relkey", Read, ws, []brief{{RuleDenied, deny, secret, rd, high, sshKey, false}}},
		{"dangling symlink judged by target", "default", "dangling", Write, ws, []brief{{RuleDenied, deny, pth, wr, high, f.home + "/.ssh/new_key", false}}},
		{"symlink loop", "default", "loop1", Read, ws, []brief{{RuleInvalid, deny, pth, rd, unknown, "loop1", false}}},
		{"write through a link leaving the workspace", "default", "outdir/data.txt", Write, ws, []brief{{RuleOutside, deny, pth, wr, med, f.root + "/outside/data.txt", false}}},
		{"read through a link leaving the workspace", "default", "outdir/data.txt", Read, ws, nil},
		{"link staying inside", "default", "srclink/main.go", Write, ws, nil},
		{"workspace reached through a link", "default", "src/main.go", Write, Env{Cwd: f.root + "/wslink"}, nil},
		{"resolved path given for a linked workspace", "default", f.ws + "/src/x", Write, Env{Cwd: f.root + "/wslink"}, nil},
		{"tilde key", "default", "~/.ssh/id_rsa", Read, ws, []brief{{RuleDenied, deny, secret, rd, high, sshKey, false}}},
		{"dotenv", "default", ".env", Read, ws, []brief{{RuleDenied, deny, secret, rd, high, f.ws + "/.env", false}}},
		{"traversal to shadow", "default", "../../../../../../../../etc/shadow", Read, ws, []brief{{RuleDenied, deny, secret, rd, high, "/etc/shadow", false}}},
		{"denied wins over an allow rule", "default", "/etc/shadow", Read, ws, []brief{{RuleDenied, deny, secret, rd, high, "/etc/shadow", false}}},
		{"workspace-anchored deny", "default", "private/notes", Read, ws, []brief{{RuleDenied, deny, secret, rd, high, f.ws + "/private/notes", false}}},
		{"workspace-anchored deny elsewhere", "default", "/srv/private/notes", Read, ws, nil},
		{"rule allows a read", "default", "/etc/safe_config", Read, ws, []brief{{RuleRule, allow, pth, rd, none, "/etc/safe_config", false}}},
		{"rule denies a write", "default", "/etc/safe_config", Write, ws, []brief{{RuleRule, deny, pth, wr, med, "/etc/safe_config", false}}},
		{"rule asks for a write", "default", "vendor/lib.go", Write, ws, []brief{{RuleRule, ask, pth, wr, med, f.ws + "/vendor/lib.go", false}}},
		{"rule allows by zero value", "default", "vendor/lib.go", Read, ws, []brief{{RuleRule, allow, pth, rd, none, f.ws + "/vendor/lib.go", false}}},
		{"self-protection write", "default", ".toolguard.toml", Write, ws, []brief{{RuleSelf, deny, self, wr, high, f.ws + "/.toolguard.toml", false}}},
		{"self-protection read is fine", "default", ".toolguard.toml", Read, ws, nil},
		{"agent hook settings", "default", "~/.claude/settings.json", Delete, ws, []brief{{RuleSelf, deny, self, destr, high, f.home + "/.claude/settings.json", false}}},
		{"project hook settings", "default", ".claude/settings.local.json", Write, ws, []brief{{RuleSelf, deny, self, wr, high, f.ws + "/.claude/settings.local.json", false}}},
		{"proc environ", "default", "/proc/1/environ", Read, ws, []brief{{RuleSystem, deny, pth, rd, med, "/proc/1/environ", false}}},
		{"proc cpuinfo read", "default", "/proc/cpuinfo", Read, ws, nil},
		{"proc partitions read", "default", "/proc/partitions", Read, ws, nil},
		{"cgroup memory limit read", "default", "/sys/fs/cgroup/memory.max", Read, ws, nil},
		{"proc partitions write", "default", "/proc/partitions", Write, ws, []brief{{RuleSystem, deny, pth, wr, high, "/proc/partitions", false}}},
		{"proc cpuinfo write", "default", "/proc/cpuinfo", Write, ws, []brief{{RuleSystem, deny, pth, wr, high, "/proc/cpuinfo", false}}},
		{"sys", "default", "/sys/kernel/nothing-here", Read, ws, []brief{{RuleSystem, deny, pth, rd, med, "/sys/kernel/nothing-here", false}}},
		{"raw disk", "default", "/dev/sda", Write, ws, []brief{{RuleSystem, deny, pth, wr, high, "/dev/sda", false}}},
		{"dev null write", "default", "/dev/null", Write, ws, nil},
		{"dev stdout write", "default", "/dev/stdout", Write, ws, nil},
		{"dev fd write", "default", "/dev/fd/2", Write, ws, nil},
		{"dev null delete", "default", "/dev/null", Delete, ws, []brief{{RuleSystem, deny, pth, destr, high, "/dev/null", false}}},
		{"proc self root escape", "default", "/proc/self/root/etc/passwd", Read, ws, []brief{
			{RuleDenied, deny, secret, rd, high, "/etc/passwd", false},
			{RuleSystem, deny, pth, rd, med, "/proc/self/root/etc/passwd", false}}},
		{"write outside", "default", "/tmp/x", Write, ws, []brief{{RuleOutside, deny, pth, wr, med, "/tmp/x", false}}},
		{"delete outside", "default", "/srv/data", Delete, ws, []brief{{RuleOutside, deny, pth, destr, high, "/srv/data", false}}},
		{"write the root", "default", "/", Write, ws, []brief{{RuleOutside, deny, pth, wr, med, "/", false}}},
		{"read system headers", "default", "/usr/include/stdio.h", Read, ws, nil},
		{"relative root read", "default", "../rwroot/a", Read, ws, nil},
		{"relative root write", "default", "../rwroot/a", Write, ws, nil},
		{"read-only root read", "default", f.root + "/shared/notes.md", Read, ws, nil},
		{"read-only root write", "default", f.root + "/shared/notes.md", Write, ws, []brief{{RuleReadOnlyRoot, deny, pth, wr, med, f.root + "/shared/notes.md", false}}},
		{"write-only root write", "default", f.root + "/drop/x", Write, ws, nil},
		{"write-only root read", "default", f.root + "/drop/x", Read, ws, []brief{{RuleWriteOnlyRoot, deny, pth, rd, low, f.root + "/drop/x", false}}},
		{"sensitive read", "default", "~/.config/app/settings.ini", Read, ws, []brief{{RuleSensitive, ask, secret, rd, med, f.home + "/.config/app/settings.ini", false}}},
		{"git config write", "default", ".git/config", Write, ws, []brief{{RuleEscapeHatch, ask, risk.CatSelfProtection, wr, risk.BlastHigh, f.ws + "/.git/config", false}}},
		{"git hook write", "default", ".git/hooks/pre-commit", Write, ws, []brief{{RuleEscapeHatch, ask, risk.CatSelfProtection, wr, risk.BlastHigh, f.ws + "/.git/hooks/pre-commit", false}}},
		{"project MCP servers", "default", ".mcp.json", Write, ws, []brief{{RuleEscapeHatch, ask, risk.CatSelfProtection, wr, risk.BlastHigh, f.ws + "/.mcp.json", false}}},
		{"editor tasks", "default", ".vscode/tasks.json", Write, ws, []brief{{RuleEscapeHatch, ask, risk.CatSelfProtection, wr, risk.BlastHigh, f.ws + "/.vscode/tasks.json", false}}},
		{"git hook read", "default", ".git/hooks/pre-commit", Read, ws, nil},
		{"unverifiable", "default", "$FOO/x", Read, ws, []brief{{RuleUnverifiable, ask, pth, rd, unknown, "$FOO/x", true}}},
		{"unverifiable under a denied dir", "default", "~/.ssh/id_$KEY", Read, ws, []brief{
			{RuleUnverifiable, ask, pth, rd, unknown, "~/.ssh/id_$KEY", true},
			{RuleDenied, deny, secret, rd, high, f.home + "/.ssh", false}}},
		{"unverifiable under $HOME and a denied dir", "default", "$HOME/.aws/$(whoami)/x", Write, ws, []brief{
			{RuleUnverifiable, ask, pth, wr, unknown, "$HOME/.aws/$(whoami)/x", true},
			{RuleDenied, deny, pth, wr, high, f.home + "/.aws", false}}},
		{"unverifiable under a harmless dir", "default", "src/$X.go", Write, ws, []brief{{RuleUnverifiable, ask, pth, wr, unknown, "src/$X.go", true}}},
		{"nul byte", "default", "a\x00b", Read, ws, []brief{{RuleInvalid, deny, pth, rd, unknown, "a\x00b", false}}},
		{"other user's home", "default", "~root/x", Read, ws, []brief{{RuleInvalid, deny, pth, rd, unknown, "~root/x", false}}},
		{"encoded traversal", "default", "..%2f..%2fetc", Read, ws, []brief{{RuleInvalid, deny, pth, rd, unknown, "..%2f..%2fetc", false}}},
		{"relative workspace", "default", "src/main.go", Write, Env{Cwd: f.ws, Workspace: "proj"}, []brief{{RuleInvalid, deny, pth, wr, unknown, "src/main.go", false}}},
		{"unknown access", "default", "src/main.go", Access(9), ws, []brief{{RuleInvalid, deny, pth, destr, unknown, "src/main.go", false}}},
		{"trusted: write outside asks", "trusted", "/tmp/x", Write, ws, []brief{{RuleOutside, ask, pth, wr, med, "/tmp/x", false}}},
		{"trusted: rc file asks twice", "trusted", "~/.bashrc", Write, ws, []brief{
			{RuleOutside, ask, pth, wr, med, f.home + "/.bashrc", false},
			{RuleSensitive, ask, pth, wr, med, f.home + "/.bashrc", false}}},
		{"trusted: read outside denied", "trusted", "/srv/x", Read, ws, []brief{{RuleOutside, deny, pth, rd, low, "/srv/x", false}}},
		{"allowed: match", "allowed", "/safe/file.txt", Read, Env{Cwd: "/w"}, nil},
		{"allowed: match one level", "allowed", "/also/safe/file.txt", Write, Env{Cwd: "/w"}, nil},
		{"allowed: base dir of /**", "allowed", "/safe", Read, Env{Cwd: "/w"}, nil},
		{"allowed: miss", "allowed", "/unsafe/file.txt", Read, Env{Cwd: "/w"}, []brief{{RuleNotAllowed, deny, pth, rd, med, "/unsafe/file.txt", false}}},
		{"allowed: too deep", "allowed", "/also/safe/a/b", Read, Env{Cwd: "/w"}, []brief{{RuleNotAllowed, deny, pth, rd, med, "/also/safe/a/b", false}}},
		{"allowed: workspace", "allowed", "x", Write, Env{Cwd: "/w"}, nil},
		{"no workspace at all", "allowed", "/safe/x", Write, Env{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := briefs(cs[tt.checker].Check(tt.path, tt.access, tt.env))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Check(%q, %v) (-want +got):\n%s", tt.path, tt.access, diff)
			}
		})
	}
}

func TestCheckReasons(t *testing.T) {
	f := newFixture(t)
	cs := checkers(t, f)
	ws := Env{Cwd: f.ws}
	tests := []struct {
		path               string
		access             Access
		reason, suggestion string
	}{
		{"key", Read,
			"Reading " + f.ws + "/key (which resolves to " + f.home + "/.ssh/id_rsa) is denied: it matches the denied path pattern \"**/.ssh/**\".",
			"Leave this file alone; denied paths cannot be approved. Ask the user for what you need from it."},
		{"/tmp/x", Write,
			"Writing /tmp/x is denied: it lies outside the workspace " + f.ws + " and its roots.",
			"Work inside " + f.ws + ", or add the directory to the policy's roots."},
		{"~nobody", Read,
			`Reading "~nobody" is denied: the path uses the ~user form; only ~ (your own home) is accepted.`,
			"Pass a plain absolute path, or one relative to the working directory, without encodings or shell syntax."},
		{"${X}/y", Delete,
			`Deleting "${X}/y" needs approval: the path contains a shell variable or substitution other than $HOME.`,
			"Spell the path out literally so it can be checked."},
		{f.root + "/shared/n", Write,
			"Writing " + f.root + "/shared/n is denied: it lies in the read-only root " + f.root + "/shared.",
			f.root + "/shared may only be read; write inside the workspace instead."},
		{"/etc/safe_config", Write,
			`Writing /etc/safe_config: the path rule "/etc/safe_config" says deny.`,
			`The path rule "/etc/safe_config" forbids write here; choose another path.`},
		{"guard.local.toml", Delete,
			"Deleting " + f.ws + "/guard.local.toml is denied: it is toolguard's own configuration or an agent's hook settings (pattern \"<workspace>/guard.local.toml\").",
			"Only the user changes toolguard's configuration and the hook settings, outside the agent."},
		{".git/hooks/x", Write,
			"Writing " + f.ws + "/.git/hooks/x needs approval: an agent can use it to run code or widen its own permissions outside toolguard's hook (pattern \"**/.git/hooks/**\").",
			"Confirm with the user that this change is theirs; review what it runs or allows."},
		{".envrc", Write,
			"Writing " + f.ws + "/.envrc needs approval: it is a path that is sensitive to change (pattern \"**/.envrc\").",
			"Confirm with the user that the agent should touch this file."},
		{"/proc/1/mem", Read,
			"Reading /proc/1/mem is denied: /proc is a kernel or device area.",
			"Use /dev/null or a file in the workspace; only harmless device and system-information files are allowed."},
	}
	for _, tt := range tests {
		fs := cs["default"].Check(tt.path, tt.access, ws)
		if len(fs) != 1 {
			t.Errorf("Check(%q) = %d findings, want 1: %+v", tt.path, len(fs), fs)
			continue
		}
		got := [2]string{fs[0].Reason, fs[0].Suggestion}
		if diff := cmp.Diff([2]string{tt.reason, tt.suggestion}, got); diff != "" {
			t.Errorf("Check(%q) reason, suggestion (-want +got):\n%s", tt.path, diff)
		}
	}
	fs := cs["allowed"].Check("/nope", Read, Env{Cwd: "/w"})
	want := "Use a path in the workspace or one matching: /safe/**, /also/safe/*."
	if len(fs) != 1 || fs[0].Suggestion != want {
		t.Errorf("not-allowed suggestion = %+v, want %q", fs, want)
	}
}

func TestCheckPathMatchesCheck(t *testing.T) {
	f := newFixture(t)
	c := checkers(t, f)["default"]
	env := Env{Cwd: f.ws}
	for _, p := range []string{"key", "src/main.go", "/tmp/x", ".git/config"} {
		cp, err := Canonicalize(p, env, c.Home())
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range []Access{Read, Write, Delete} {
			if diff := cmp.Diff(c.Check(p, a, env), c.CheckPath(cp, a, env)); diff != "" {
				t.Errorf("CheckPath(%q, %v) differs from Check (-check +checkpath):\n%s", p, a, diff)
			}
		}
	}
}

func TestAccess(t *testing.T) {
	var got []string
	for _, s := range []string{"read", "WRITE", " delete "} {
		a, err := ParseAccess(s)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a.String())
	}
	if diff := cmp.Diff([]string{"read", "write", "delete"}, got); diff != "" {
		t.Errorf("ParseAccess (-want +got):\n%s", diff)
	}
	if _, err := ParseAccess("exec"); err == nil || err.Error() != `unknown access "exec" (valid: read, write, delete)` {
		t.Errorf("ParseAccess(exec) = %v", err)
	}
	if s := Access(7).String(); s != "invalid(7)" {
		t.Errorf("Access(7).String() = %q", s)
	}
}
