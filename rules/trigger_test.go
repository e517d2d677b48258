package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/shell"
)

// TestTriggerNeedsFeature checks every embedded rule block that has a
// trigger: the rule's match really asks for the feature (a non-empty flag
// condition for "flags", assignments for "assigns", …), so a command
// without the feature can never match it and leaving the block out of the
// command's view changes nothing.
func TestTriggerNeedsFeature(t *testing.T) {
	needs := map[string]func(m Match) bool{
		"flags": func(m Match) bool {
			return len(m.FlagsAll) > 0 || len(m.FlagsAny) > 0 || len(m.FlagValues) > 0 || len(m.FlagsNoValue) > 0
		},
		"assigns":              func(m Match) bool { return len(m.Assigns) > 0 },
		"inline":               func(m Match) bool { return len(m.Inline) > 0 },
		"inline_any":           func(m Match) bool { return len(m.InlineAny) > 0 },
		"inline_unknown":       func(m Match) bool { return m.InlineUnknown },
		"redirects":            func(m Match) bool { return len(m.Redirects) > 0 },
		"redirects_any":        func(m Match) bool { return len(m.RedirectsAny) > 0 },
		"pipe_self_background": func(m Match) bool { return m.PipeSelfBackground },
		"unknown_exe":          func(m Match) bool { return m.UnknownExe },
		"name_unknown":         func(m Match) bool { return m.NameUnknown },
		"origins":              func(m Match) bool { return len(m.Origins) > 0 },
		"privileged":           func(m Match) bool { return m.Privileged },
		"remote":               func(m Match) bool { return m.Remote },
		"dir":                  func(m Match) bool { return len(m.Dir) > 0 },
		"stdin_from":           func(m Match) bool { return len(m.StdinFrom) > 0 },
	}
	flagRules, multi := 0, 0
	for _, gp := range generated {
		for _, gb := range gp.blocks {
			if gb.trigger == "" || gb.kind != "rule" {
				continue
			}
			p := gb.build()
			for _, trig := range strings.Fields(gb.trigger) {
				need, ok := needs[trig]
				if !ok {
					t.Errorf("%s:%d: trigger %q has no check here", gp.file, gb.line, trig)
					continue
				}
				if len(p.Rules) != 1 || !need(p.Rules[0].Match) {
					t.Errorf("%s:%d: trigger %q but the rule does not ask for it: %+v", gp.file, gb.line, trig, p.Rules)
				}
				if trig == "flags" {
					flagRules++
				}
			}
			if trigs := strings.Fields(gb.trigger); len(trigs) > 1 {
				multi++
			}
		}
	}
	if flagRules < 100 {
		t.Errorf("%d rule blocks wait for a flag, want at least 100 (is the trigger read?)", flagRules)
	}
	if multi < 15 {
		t.Errorf("%d rule blocks wait for more than one feature, want at least 15 (are all triggers read?)", multi)
	}
}

// TestTriggeredBlocksLeftOutNeverMatch compiles, for every command of the
// pack cases, near misses and benchmarks, the rule blocks its view leaves
// out for want of a trigger, and checks that none of their rules matches
// the command.
func TestTriggeredBlocksLeftOutNeverMatch(t *testing.T) {
	s := builtin(t)
	var texts []string
	for _, cases := range packCases {
		for _, c := range cases {
			texts = append(texts, c.cmd)
		}
	}
	for _, c := range extraPositives {
		texts = append(texts, c.cmd)
	}
	for _, c := range nearMisses {
		texts = append(texts, c)
	}
	texts = append(texts, benchCommands...)
	left, cmds := 0, 0
	for _, text := range texts {
		sc, err := shell.Parse(text, shell.Options{})
		if err != nil {
			continue
		}
		for _, cmd := range sc.Commands {
			cmds++
			name, ix := s.resolve(cmd.Name)
			ge := s.grammarFor(name, ix)
			a := parseArgs(cmd, ge.g)
			known := ix != nil
			ruleKnown := known && ix.ruleKnown
			keys := s.subKeys(ix, a)
			kept := s.blocksFor(ix, keys, features(cmd, ruleKnown))
			for _, b := range s.blocksFor(ix, keys, ^uint32(0)) {
				if slices.Contains(kept, b) || b.kind != "rule" {
					continue
				}
				left++
				s.compileBlocks([]*block{b})
				if b.err != nil {
					t.Fatalf("%s:%d: %v", b.file, b.line, b.err)
				}
				for _, r := range b.cp.rules {
					e := &env{cmd: cmd, g: ge.g, a: a, known: known, ruleKnown: ruleKnown}
					if r.match(e) {
						t.Errorf("%q: rule %s matches, but its block (trigger %q) is left out of the view", text, r.info.ID, b.trigger)
					}
				}
			}
		}
	}
	if left < 200 {
		t.Errorf("%d blocks left out over %d commands, want at least 200", left, cmds)
	}
}

func TestHasFlagWord(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"git status", false},
		{"git -c a=b status", true},
		{"git log -- -x", true}, // "--" itself is written as an option
		{"rm - x", false},       // "-" alone is stdin, not an option
		{"ls", false},
		{"X=-y env", false}, // an assignment is no argument
	} {
		sc, err := shell.Parse(c.text, shell.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := hasFlagWord(sc.Commands[0])
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("hasFlagWord(%q) (-want +got):\n%s", c.text, diff)
		}
	}
}

// TestGeneratedEntriesCheckClean compiles every block of packs_gen.go with
// every check on: a hook process compiles them with the checks that only
// report problems skipped (problems.checked), which is sound only while
// they report none.
func TestGeneratedEntriesCheckClean(t *testing.T) {
	blocks := 0
	for _, gp := range generated {
		for i := range gp.blocks {
			b := gp.block(i)
			p := b.build()
			p.Name, p.Executables = b.pack, b.exes
			if len(p.Executables) == 0 {
				p.Executables = []string{"*"}
			}
			var full, checked problems
			checked.checked = true
			a, c := compileWith(p, &full), compileWith(p, &checked)
			if err := full.err(); err != nil {
				t.Errorf("%s:%d: %v", gp.file, gb(gp, i), err)
			}
			if len(a.programs) != len(c.programs) || len(a.rules) != len(c.rules) {
				t.Errorf("%s:%d: checked compile gives %d programs, %d rules; want %d, %d", gp.file, gb(gp, i), len(c.programs), len(c.rules), len(a.programs), len(a.rules))
			}
			for j := range a.programs {
				if a.programs[j].ident != c.programs[j].ident || len(a.programs[j].effs) != len(c.programs[j].effs) {
					t.Errorf("%s:%d: program %d differs when compiled checked", gp.file, gb(gp, i), j)
				}
			}
			blocks++
		}
	}
	if blocks < 1000 {
		t.Errorf("%d generated blocks, want at least 1000", blocks)
	}
}

func gb(gp genPack, i int) int { return gp.blocks[i].line }

func TestListText(t *testing.T) {
	for _, xs := range [][]string{nil, {}, {"git"}, {"rm", "unlink"}, {"a b", ""}} {
		if diff := cmp.Diff(fmt.Sprintf("%v", xs), listText(xs)); diff != "" {
			t.Errorf("listText(%q) (-fmt +listText):\n%s", xs, diff)
		}
	}
}
