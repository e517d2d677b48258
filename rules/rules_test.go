package rules

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// packCase is one classification case of packCases.
type packCase struct {
	cmd   string
	tier  risk.Tier
	blast risk.Blast
	ids   []string
}

// judged is the combined classification of every command in a test text.
type judged struct {
	IDs   []string
	Tier  risk.Tier
	Blast risk.Blast
}

var (
	builtinOnce sync.Once
	builtinSet  *Set
	builtinErr  error
)

func builtin(t testing.TB) *Set {
	t.Helper()
	builtinOnce.Do(func() { builtinSet, builtinErr = Builtin() })
	if builtinErr != nil {
		t.Fatal(builtinErr)
	}
	return builtinSet
}

func judgeCommands(s *Set, cmds []*shell.Command) judged {
	var j judged
	seen := map[string]bool{}
	for _, c := range cmds {
		r := s.Classify(c)
		j.Tier = j.Tier.Worse(r.Tier)
		for _, f := range r.Findings {
			j.Blast = j.Blast.Worse(f.Blast)
			if !seen[f.Rule] {
				seen[f.Rule] = true
				j.IDs = append(j.IDs, f.Rule)
			}
		}
	}
	sort.Strings(j.IDs)
	return j
}

func judge(t testing.TB, s *Set, text string) judged {
	t.Helper()
	return judgeCommands(s, splitCommand(text))
}

func TestPackCases(t *testing.T) {
	s := builtin(t)
	var rewrites []caseRewrite
	for pack, cases := range packCases {
		t.Run(pack, func(t *testing.T) {
			for _, c := range cases {
				want := judged{IDs: c.ids, Tier: c.tier, Blast: c.blast}
				got := judge(t, s, c.cmd)
				if diff := cmp.Diff(want, got); diff != "" {
					if *update {
						rewrites = append(rewrites, caseRewrite{c.cmd, got})
						continue
					}
					t.Errorf("%s (-want +got):\n%s", c.cmd, diff)
				}
			}
		})
	}
	if len(rewrites) > 0 {
		rewriteCases(t, "cases_test.go", rewrites)
	}
}

// caseRewrite is a pack case whose expected judgement -update rewrites.
type caseRewrite struct {
	cmd string
	got judged
}

// rewriteCases replaces, under -update, the expected values of the named
// cases in file (one {"cmd", tier, blast, ids} literal per line).
func rewriteCases(t *testing.T, file string, rs []caseRewrite) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	for _, r := range rs {
		prefix := "{" + strconv.Quote(r.cmd) + ", "
		found := false
		for i, l := range lines {
			trimmed := strings.TrimLeft(l, "\t")
			if !strings.HasPrefix(trimmed, prefix) {
				continue
			}
			indent := l[:len(l)-len(trimmed)]
			lines[i] = indent + prefix + caseLiteral(r.got) + "},"
			found = true
		}
		if !found {
			t.Errorf("-update: no line in %s starts with %s", file, prefix)
		}
	}
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

func caseLiteral(j judged) string {
	ids := "nil"
	if len(j.IDs) > 0 {
		q := make([]string, len(j.IDs))
		for i, id := range j.IDs {
			q[i] = strconv.Quote(id)
		}
		ids = "[]string{" + strings.Join(q, ", ") + "}"
	}
	return fmt.Sprintf("risk.%s, risk.Blast%s, %s", tierName(j.Tier), blastName(j.Blast), ids)
}

func tierName(t risk.Tier) string {
	s := t.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

func blastName(b risk.Blast) string {
	s := b.String()
	return strings.ToUpper(s[:1]) + s[1:]
}

func TestBuiltinPacksCompile(t *testing.T) {
	if err := builtin(t).Check(); err != nil {
		t.Fatal(err)
	}
}

func TestRuleMetadataComplete(t *testing.T) {
	infos := builtin(t).Rules()
	if len(infos) < 150 {
		t.Fatalf("only %d rules", len(infos))
	}
	seen := map[string]bool{}
	for _, r := range infos {
		missing := []string{}
		for field, v := range map[string]string{"id": r.ID, "pack": r.Pack, "category": string(r.Category),
			"reason": r.Reason, "suggestion": r.Suggestion, "matches": r.Matches} {
			if strings.TrimSpace(v) == "" {
				missing = append(missing, field)
			}
		}
		if len(missing) > 0 || len(r.Executables) == 0 {
			t.Errorf("rule %s: missing %v (executables %v)", r.ID, missing, r.Executables)
		}
		if seen[r.ID] {
			t.Errorf("duplicate id %s", r.ID)
		}
		seen[r.ID] = true
		if !strings.HasSuffix(r.Reason, ".") || !strings.HasSuffix(r.Suggestion, ".") {
			t.Errorf("rule %s: reason and suggestion must be sentences ending in '.'", r.ID)
		}
		if r.Tier != risk.Destructive && r.Verdict == risk.Allow && r.Blast == risk.BlastCritical {
			t.Errorf("rule %s: critical blast below the destructive tier", r.ID)
		}
	}
}

// TestPackLint checks the packs' indexes: every executable a pack lists is
// used by one of its entries (else the index points at nothing), and every
// rule is exercised by at least one positive case, so none is unreachable.
func TestPackLint(t *testing.T) {
	packs, err := BuiltinPacks()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range packs {
		used := map[string]bool{}
		for name := range p.Exe {
			used[name] = true
		}
		mark := func(exe []string) {
			for _, e := range exe {
				used[e] = true
			}
		}
		for _, r := range p.Rules {
			mark(r.Exe)
		}
		for _, s := range p.Safe {
			mark(s.Exe)
		}
		for _, ps := range p.Paths {
			mark(ps.Exe)
		}
		for _, u := range p.URLs {
			mark(u.Exe)
		}
		for _, pg := range p.Programs {
			mark(pg.Exe)
		}
		for _, e := range p.Executables {
			if !used[e] {
				t.Errorf("pack %s lists executable %q that no entry uses", p.Name, e)
			}
		}
	}
	hit := map[string]bool{}
	for _, cases := range packCases {
		for _, c := range cases {
			for _, id := range c.ids {
				hit[id] = true
			}
		}
	}
	for _, c := range irCases() {
		for _, id := range c.ids {
			hit[id] = true
		}
	}
	for _, c := range extraPositives {
		hit[c.id] = true
	}
	for _, r := range builtin(t).Rules() {
		if !hit[r.ID] {
			t.Errorf("rule %s has no positive test case", r.ID)
		}
	}
}

func TestGlobMatch(t *testing.T) {
	cases := []struct {
		g, s string
		flat bool
		want bool
	}{
		{"/etc/*", "/etc/passwd", false, true},
		{"/etc/*", "/etc/ssh/sshd_config", false, false},
		{"/etc/**", "/etc/ssh/sshd_config", false, true},
		{"*.pem", "key.pem", false, true},
		{"**/*.pem", "a/b/key.pem", false, true},
		{"**/*.pem", "key.pem", false, false},
		{"~/.ssh/id_*", "~/.ssh/id_rsa", false, true},
		{"of=/dev/sd*", "of=/dev/sda", false, true},
		{"+**", "+refs/heads/main", false, true},
		{"alias.*=!*", "alias.x=!rm -rf /", true, true},
		{"alias.*=!*", "alias.x=status", true, false},
		{"core.hookspath*", "core.hookspath=/tmp/h", true, true},
		{"a?c", "abc", false, true},
		{"a?c", "a/c", false, true},
		{"", "", false, true},
		{"", "x", false, false},
		{"*", "", false, true},
	}
	for _, c := range cases {
		if got := globMatchMode(c.g, c.s, c.flat); got != c.want {
			t.Errorf("globMatchMode(%q, %q, %v) = %v, want %v", c.g, c.s, c.flat, got, c.want)
		}
	}
}

func BenchmarkGlobHostileWord(b *testing.B) {
	word := strings.Repeat("a/", 32<<10)
	for b.Loop() {
		globMatchMode("**{}**x**y", word, false)
	}
}

// TestConcurrentClassify classifies from many goroutines on a fresh set, so
// that lazy compilation runs concurrently (run with -race).
func TestConcurrentClassify(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]judged{}
	for _, c := range benchCommands {
		want[c] = judge(t, builtin(t), c)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := range benchCommands {
				c := benchCommands[(i+g)%len(benchCommands)]
				if diff := cmp.Diff(want[c], judgeCommands(s, splitCommand(c))); diff != "" {
					errs <- c + ": " + diff
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestBlocksMatchWholePack checks that cutting an embedded pack into
// entries (the lazy path) yields exactly the entries of decoding the whole
// file, each with a readable executable list.
func TestBlocksMatchWholePack(t *testing.T) {
	lps, err := tomlPacks()
	if err != nil {
		t.Fatal(err)
	}
	for _, lp := range lps {
		whole, err := ParsePack(lp.file, lp.data)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		counts := map[string]int{}
		for _, b := range lp.packBlocks() {
			if len(b.exes) == 0 {
				t.Errorf("%s:%d: %s entry without a one-line exe list", b.file, b.line, b.kind)
			}
			compileAlone(b)
			if b.err != nil {
				t.Errorf("%s:%d: %v", b.file, b.line, b.err)
				continue
			}
			counts[b.kind]++
			for _, r := range b.cp.rules {
				ids = append(ids, r.info.ID)
			}
		}
		var wholeIDs []string
		for _, r := range whole.Rules {
			wholeIDs = append(wholeIDs, r.ID)
		}
		want := map[string]int{"rule": len(whole.Rules), "safe": len(whole.Safe), "paths": len(whole.Paths),
			"urls": len(whole.URLs), "exe": len(whole.Exe), "program": len(whole.Programs)}
		for k, v := range want {
			if v == 0 {
				delete(want, k)
			}
		}
		if diff := cmp.Diff(want, counts); diff != "" {
			t.Errorf("%s: entry counts (-whole +blocks):\n%s", lp.file, diff)
		}
		if diff := cmp.Diff(wholeIDs, ids); diff != "" {
			t.Errorf("%s: rule ids (-whole +blocks):\n%s", lp.file, diff)
		}
	}
}
