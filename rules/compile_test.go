package rules

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

func TestCompileReportsEveryProblem(t *testing.T) {
	bad := Pack{Name: "bad", Executables: []string{"tool"}, file: "packs/bad.toml", Rules: []Rule{
		{ID: "bad.one", Exe: []string{"tool"}, Category: "fs-delete", Tier: "severe", Blast: "high", Reason: "r.", Suggestion: "s."},
		{ID: "bad.two", Exe: []string{"other"}, Category: "fs-delete", Tier: "write", Blast: "huge", Reason: "r.", Suggestion: "s."},
		{ID: "bad.three", Exe: []string{"tool"}, Category: "fs-delete", Tier: "write", Blast: "low", Suggestion: "s.",
			Match: Match{OperandsAny: []string{"@nowhere"}, SQL: []string{"drop-everything"}, StdinFrom: []string{"@printer"},
				LastOperandAny: []string{"*:**", "!@outputs"}}},
		{ID: "bad.one", Exe: []string{"tool"}, Category: "fs-delete", Tier: "write", Blast: "low", Reason: "r.", Suggestion: "s."},
	}}
	_, err := Compile([]Pack{bad}, Options{})
	if err == nil {
		t.Fatal("Compile accepted a broken pack")
	}
	msg := err.Error()
	for _, want := range []string{
		`packs/bad.toml: rule bad.one: field tier: unknown tier "severe" (valid: read, write, execute, destructive)`,
		`packs/bad.toml: rule bad.two: executable "other" is not listed in the pack's executables [tool]`,
		`packs/bad.toml: rule bad.two: field blast: unknown blast radius "huge" (valid: none, low, medium, high, critical, unknown)`,
		`packs/bad.toml: rule bad.three: field reason: required`,
		`unknown operand class "@nowhere" (valid: @root, @home, @cwd, @parent, @system, @temp, @outputs, @unknown, @glob, @abs, @any)`,
		`field sql: unknown statement kind "drop-everything"`,
		`field stdin_from: unknown class "@printer"`,
		`match.last_operand_any: mixes "!PATTERN" (destinations to miss) with patterns to match`,
		`rule bad.one: duplicate id (also in pack bad)`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not mention %q:\n%s", want, msg)
		}
	}
}

// TestCompileChecksExecutablesOfLongLists covers the header list checked
// through a set (more than 16 names) as well as by a scan.
func TestCompileChecksExecutablesOfLongLists(t *testing.T) {
	for _, n := range []int{1, 16, 17, 40} {
		exes := make([]string, n)
		for i := range exes {
			exes[i] = "tool" + strconv.Itoa(i)
		}
		p := Pack{Name: "long", Executables: exes, file: "packs/long.toml", Rules: []Rule{
			{ID: "long.ok", Exe: []string{exes[n-1]}, Category: "fs-delete", Tier: "write", Blast: "low", Reason: "r.", Suggestion: "s."},
			{ID: "long.bad", Exe: []string{"other"}, Category: "fs-delete", Tier: "write", Blast: "low", Reason: "r.", Suggestion: "s."},
		}}
		_, err := Compile([]Pack{p}, Options{})
		if err == nil || !strings.Contains(err.Error(), `rule long.bad: executable "other" is not listed`) {
			t.Errorf("%d executables: want the unlisted one reported, got %v", n, err)
		}
		if err != nil && strings.Contains(err.Error(), "long.ok") {
			t.Errorf("%d executables: a listed executable was reported: %v", n, err)
		}
	}
}

func TestParsePackRejectsUnknownKeys(t *testing.T) {
	_, err := ParsePack("packs/x.toml", []byte("name = \"x\"\nexecutables = [\"x\"]\n[[rule]]\nid = \"x.y\"\nexe = [\"x\"]\nseverity = \"high\"\n"))
	if err == nil || !strings.Contains(err.Error(), "packs/x.toml") || !strings.Contains(err.Error(), "severity") {
		t.Fatalf("want an error naming the file and the unknown key, got %v", err)
	}
}

func TestParseHeaderNeedsNameAndExecutables(t *testing.T) {
	_, err := parseHeader("packs/y.toml", []byte("description = \"no name\"\n[[rule]]\n"))
	if err == nil || !strings.Contains(err.Error(), "packs/y.toml") {
		t.Fatalf("want an error naming the file, got %v", err)
	}
}

func TestOptionsDisableAndExtra(t *testing.T) {
	extra := []Rule{{ID: "user:no-prod", Exe: []string{"kubectl"}, Category: "cluster-delete", Tier: "destructive",
		Blast: "critical", Reason: "Production is off limits.", Suggestion: "Use the staging context.",
		Match: Match{FlagValues: map[string][]string{"--context": {"*prod*"}}}}}
	s, err := BuiltinWith(Options{Disable: []string{"git.push-force", "containers"}, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cmd string
		ids []string
	}{
		{"git push --force", []string{"effects.unproven"}},
		{"git push origin +main", []string{"git.push-force-refspec"}},
		{"docker volume rm data", []string{"effects.unproven"}},
		{"kubectl --context prod-eu get pods", []string{"user:no-prod"}},
		{"kubectl --context staging get pods", nil},
		{"kubectl --context prod-eu delete pod web --dry-run=server", []string{"user:no-prod"}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.ids, judge(t, s, c.cmd).IDs); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.cmd, diff)
		}
	}
	if slices.ContainsFunc(s.Rules(), func(r RuleInfo) bool { return r.ID == "git.push-force" || r.Pack == "containers" }) {
		t.Error("Rules() lists disabled rules")
	}
}

func TestOptionsRejectUnknownNames(t *testing.T) {
	_, err := BuiltinWith(Options{Disable: []string{"git.push-forse"}})
	if err == nil || !strings.Contains(err.Error(), `no rule or pack named "git.push-forse"`) {
		t.Fatalf("want an error naming the unknown rule, got %v", err)
	}
	_, err = BuiltinWith(Options{Extra: []Rule{{ID: "git.push-force", Exe: []string{"git"}, Category: "x", Tier: "read",
		Blast: "low", Reason: "r.", Suggestion: "s."}}})
	if err == nil || !strings.Contains(err.Error(), "duplicate id") {
		t.Fatalf("want a duplicate id error, got %v", err)
	}
}

func TestClassifyNilAndEmpty(t *testing.T) {
	s := builtin(t)
	if got := s.Classify(nil); got.Tier != risk.Execute || got.Known || len(got.Findings) > 0 {
		t.Errorf("nil command: %+v", got)
	}
}

// TestLazyPackErrorFailsClosed: an embedded pack entry that does not decode
// turns into a deny finding for the commands it concerns, never a silent
// allow.
func TestLazyPackErrorFailsClosed(t *testing.T) {
	data := []byte("name = \"broken\"\nexecutables = [\"tool\"]\n\n[[rule]]\nid = \"broken.x\"\nexe = [\"tool\"]\ntier = \"severe\"\n")
	h, err := parseHeader("packs/broken.toml", data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSet([]*lazyPack{{header: h, file: "packs/broken.toml", data: data}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := s.Classify(splitCommand("tool run")[0])
	if len(r.Findings) != 1 || r.Findings[0].Rule != "rules.pack-error" || r.Findings[0].Verdict != risk.Deny {
		t.Fatalf("want one rules.pack-error deny finding, got %+v", r.Findings)
	}
	if !strings.Contains(r.Findings[0].Reason, `unknown tier "severe"`) {
		t.Errorf("reason does not say what is wrong: %s", r.Findings[0].Reason)
	}
	if r := s.Classify(splitCommand("other")[0]); len(r.Findings) != 0 {
		t.Errorf("unrelated command got findings: %+v", r.Findings)
	}
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "packs/broken.toml") {
		t.Errorf("Check: want an error naming the file, got %v", err)
	}
}
