package rules

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/toolguard/toolguard/shell"
)

// The effect model's shortcuts (a sub-command entry shares the words the
// executable's grammar split when its own grammar adds nothing, a word's
// spellings are worked out once per command, a finding's subject is built
// at once) are checked here against the reference paths: a Set with
// reference set splits again for every entry and works out the spellings
// for every rule.

var (
	referenceOnce sync.Once
	referenceS    *Set
	referenceErr  error
)

// referenceBuiltin is a Set of its own that classifies by the reference
// paths.
func referenceBuiltin(t testing.TB) *Set {
	t.Helper()
	referenceOnce.Do(func() {
		referenceS, referenceErr = buildBuiltin(Options{})
		if referenceErr == nil {
			referenceS.reference = true
		}
	})
	if referenceErr != nil {
		t.Fatal(referenceErr)
	}
	return referenceS
}

// shortcutWords are words put into the commands of the generated test:
// options that take a value in some entries and not in others, the end of
// options, help words, and paths whose spellings differ (case, cleaning,
// $HOME, home directories).
var shortcutWords = []string{"-o", "out", "--", "-x", "--help", "-C", "/tmp", "./A/../b/", "$HOME/.SSH/id_rsa",
	"/home/u/.env", "-rf", "--output=x", "~/.aws/credentials", "-euo", "http://h/x", "@./f"}

// shortcutCommands are the generated test's commands: every entry's
// examples and counter-examples and every per-pack case, as written and
// with each of shortcutWords inserted after the program's name and
// appended.
func shortcutCommands(t *testing.T) []*shell.Command {
	t.Helper()
	packs, err := BuiltinPacks()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, p := range packs {
		for _, pr := range p.Programs {
			texts = append(texts, pr.Examples...)
			texts = append(texts, pr.Counter...)
		}
	}
	for _, cases := range packCases {
		for _, c := range cases {
			texts = append(texts, c.cmd)
		}
	}
	var out []*shell.Command
	for _, text := range texts {
		sc, err := shell.Parse(text, shell.Options{Home: "/home/u"})
		if err != nil {
			continue
		}
		for _, c := range sc.Commands {
			out = append(out, c)
			if len(c.Argv) == 0 {
				continue
			}
			for _, w := range shortcutWords {
				word := shell.Word{Value: w, Known: true}
				for _, at := range []int{1, len(c.Argv)} {
					v := *c
					v.Argv = append(append(append([]shell.Word{}, c.Argv[:at]...), word), c.Argv[at:]...)
					out = append(out, &v)
				}
			}
		}
	}
	return out
}

// TestEffectShortcutsGenerated compares every result with the reference
// paths' over the generated commands.
func TestEffectShortcutsGenerated(t *testing.T) {
	s, ref := builtin(t), referenceBuiltin(t)
	cmds := shortcutCommands(t)
	if len(cmds) < 10000 {
		t.Fatalf("only %d commands generated", len(cmds))
	}
	shared := 0
	for _, c := range cmds {
		got, want := s.Classify(c), ref.Classify(c)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", c.Values(), got, want)
		}
		if got.Program != "" && strings.Contains(got.Program, " ") {
			shared++
		}
	}
	if shared == 0 {
		t.Fatal("no sub-command entry judged any command")
	}
}

// TestEntryGrammarShares checks that a grammar entryGrammar shares splits
// every generated command as the entry's own grammar does.
func TestEntryGrammarShares(t *testing.T) {
	s := builtin(t)
	cmds := shortcutCommands(t)
	shares, owns := 0, 0
	for _, c := range cmds {
		name, ix := s.resolve(c.Name)
		if ix == nil {
			continue
		}
		g := s.grammarFor(name, ix).g
		a := parseArgs(c, g)
		v := s.viewFor(name, ix, s.subKeys(ix, a), features(c, ix.ruleKnown))
		for _, p := range v.programs {
			if entryGrammar(g, p, true) != g {
				owns++
				continue
			}
			shares++
			own := parseArgs(c, entryGrammar(g, p, false))
			if !sameSplit(a, own) {
				t.Fatalf("%q, entry %s: shared split %+v, own %+v", c.Values(), p.summary(), *a, *own)
			}
		}
	}
	if shares == 0 || owns == 0 {
		t.Fatalf("entries sharing the split: %d, with a grammar of their own: %d", shares, owns)
	}
}

func sameSplit(a, b *args) bool {
	return reflect.DeepEqual(a.flags, b.flags) && reflect.DeepEqual(a.pos, b.pos) &&
		reflect.DeepEqual(a.afterFlag, b.afterFlag) && a.dashdash == b.dashdash
}

// TestFormsMemo checks the spellings the memo returns, for more words
// than it keeps and for words seen again.
func TestFormsMemo(t *testing.T) {
	words := []string{"A", "./A/../b/", "$HOME/x", "${HOME}/Y", "/home/u/.env", "/root/x", "/Users/me/a", ".", "..",
		"", "~/.ssh", "x/./y", "A", "/home/u/.env", "/tmp//z"}
	var e env
	for round := range 2 {
		for _, w := range words {
			if got, want := e.formsOf(w), formsOf(w); got != want {
				t.Fatalf("round %d, %q: %+v, want %+v", round, w, got, want)
			}
		}
	}
	if e.nForms != formsMemoSize {
		t.Fatalf("memo holds %d words, want %d", e.nForms, formsMemoSize)
	}
}

// TestSubject compares subject with subjectSlow on exact cases around the
// length limit.
func TestSubject(t *testing.T) {
	long := strings.Repeat("x", maxSubject)
	for _, tc := range []struct {
		argv []string
		hit  string
		want string
	}{
		{nil, "", ""},
		{[]string{""}, "", ""},
		{[]string{"", ""}, "", " "},
		{[]string{"ls"}, "", "ls"},
		{[]string{"ls", "-l", "x"}, "", "ls -l x"},
		{[]string{long}, "", long},
		{[]string{long + "y"}, "", long + "…"},
		{[]string{"a", long}, "", "a " + long[:maxSubject-2] + "…"},
		{[]string{long[:maxSubject-1], "b"}, "", long[:maxSubject-1] + " …"},
		{[]string{long[:maxSubject-2], "b"}, "", long[:maxSubject-2] + " b"},
		{[]string{"rm", long}, "hit", "hit"},
		{[]string{"rm", long}, long + "z", long + "…"},
		{[]string{"rm", "x"}, "hit", "rm x"},
		{[]string{"é", strings.Repeat("é", maxSubject)}, "", "é " + strings.Repeat("é", maxSubject)[:maxSubject-3] + "…"},
	} {
		cmd := &shell.Command{}
		for _, v := range tc.argv {
			cmd.Argv = append(cmd.Argv, shell.Word{Value: v})
		}
		var hit *shell.Word
		if tc.hit != "" {
			hit = &shell.Word{Value: tc.hit}
		}
		got, slow := subject(cmd, hit), subjectSlow(cmd, hit)
		if got != tc.want || slow != tc.want {
			t.Errorf("%q hit %q: subject %q, subjectSlow %q, want %q", tc.argv, tc.hit, got, slow, tc.want)
		}
	}
}

// FuzzEffectShortcuts compares Classify with the reference paths' on
// random commands, and subject with subjectSlow.
func FuzzEffectShortcuts(f *testing.F) {
	for _, seed := range []string{
		"git\x1fstatus\x1f--short", "go\x1fbuild\x1f-o\x1fbin/x\x1f./cmd/x", "set\x1f-euo\x1fpipefail",
		"docker\x1frun\x1f-v\x1f/:/h\x1fimg\x1fsh", "ssh\x1fhost\x1fls\x1f-la", "git\x1f-C\x1f/tmp\x1flog\x1f-p",
		"cp\x1f./A/../b\x1f$HOME/.SSH/x", "kubectl\x1fdelete\x1fns\x1fx\x1f--dry-run=none",
		"grep\x1f-r\x1f--include=*.go\x1fx\x1f/home/u/.env", "timeout\x1f5\x1fbash\x1f-c\x1frm -rf ~",
	} {
		f.Add(seed, "", "", uint8(0))
		f.Add(seed, ">", "/home/u/.bashrc", uint8(3))
	}
	f.Fuzz(func(t *testing.T, argv, redirect, code string, bits uint8) {
		s, ref := builtin(t), referenceBuiltin(t)
		cmd := fuzzCommand(argv, redirect, code, bits)
		if got, want := s.Classify(cmd), ref.Classify(cmd); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", cmd.Values(), got, want)
		}
		var hit *shell.Word
		if bits&32 != 0 && len(cmd.Argv) > 0 {
			hit = &cmd.Argv[len(cmd.Argv)-1]
		}
		if got, want := subject(cmd, hit), subjectSlow(cmd, hit); got != want {
			t.Fatalf("subject %q, subjectSlow %q", got, want)
		}
	})
}
