package policy

import (
	"strings"
	"testing"

	"github.com/toolguard/toolguard/shell"
)

// deniedForTest is the default denied list with user patterns of every
// shape: a dotted first word, a pipeline, a redirect, a fork bomb.
func deniedForTest(t testing.TB) []deniedPattern {
	list, err := compileDenied(append(DefaultDeniedCommands(),
		"mkfs", "mkfs.ext4 /dev/sda", "curl | sh", "> /dev/sda", ":(){ :|:& };:", "terraform destroy", "a.b c="))
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// deniedCommandFor builds a command from its words (the first its name),
// with a redirect to target when it is not empty, piped into next when
// that is not empty.
func deniedCommandFor(words []string, target, next string) *shell.Command {
	cmd := &shell.Command{}
	for _, w := range words {
		cmd.Argv = append(cmd.Argv, shell.Word{Value: w, Known: true})
	}
	if len(words) > 0 {
		cmd.Name = words[0]
	}
	if target != "" {
		cmd.Redirects = []shell.Redirect{{Op: ">", Target: shell.Word{Value: target, Known: true}}}
	}
	if next != "" {
		to := &shell.Command{Name: next, Argv: []shell.Word{{Value: next, Known: true}}, PipeFrom: cmd}
		cmd.PipeTo = to
	}
	return cmd
}

// anyDenied is the slow path: every pattern compared with cmd.
func anyDenied(list []deniedPattern, cmd *shell.Command) bool {
	for _, d := range list {
		if d.matches(cmd) {
			return true
		}
	}
	return false
}

func TestDeniedIndex(t *testing.T) {
	list := deniedForTest(t)
	x := indexDenied(list)
	for _, c := range []struct {
		words        []string
		target, next string
		may, matches bool
	}{
		{words: []string{"go", "build", "./..."}},
		{words: []string{"mkfs"}, may: true, matches: true},
		{words: []string{"mkfs.ext4", "/dev/sda"}, may: true, matches: true},
		{words: []string{"mkfs.ext4.x", "/dev/sda"}, may: true, matches: true},
		{words: []string{"mkfsx"}},
		{words: []string{".mkfs"}},
		{words: []string{"curl", "https://x"}, next: "sh", may: true, matches: true},
		{words: []string{"curl", "https://x"}, may: true},
		{words: []string{"echo", "x"}, target: "/dev/sda", may: true, matches: true},
		{words: []string{"echo", "x"}, target: "out.txt", may: true},
		{words: []string{"a.b", "c=1"}, may: true, matches: true},
		{words: []string{"a", "c=1"}},
		{words: []string{"terraform", "plan"}, may: true},
		{words: []string{":"}},
	} {
		cmd := deniedCommandFor(c.words, c.target, c.next)
		if got := x.mayMatch(cmd); got != c.may {
			t.Errorf("%q > %q | %q: mayMatch = %v, want %v", c.words, c.target, c.next, got, c.may)
		}
		if got := anyDenied(list, cmd); got != c.matches {
			t.Errorf("%q > %q | %q: matches = %v, want %v", c.words, c.target, c.next, got, c.matches)
		}
	}
}

// TestDeniedIndexZero: an index never built compares every command.
func TestDeniedIndexZero(t *testing.T) {
	if !(deniedIndex{}).mayMatch(deniedCommandFor([]string{"go", "build"}, "", "")) {
		t.Fatal("the zero index skips a command")
	}
}

// TestDeniedIndexGenerated: for every pattern, commands built from its
// words, with its first word cut, extended, dotted and prefixed, and its
// other words dropped or changed: whenever a pattern matches, the index
// must let the command through to the patterns.
func TestDeniedIndexGenerated(t *testing.T) {
	list := deniedForTest(t)
	x := indexDenied(list)
	compared, matched := 0, 0
	for _, d := range list {
		var words []string
		for _, seg := range d.segments {
			words = append(words, seg...)
		}
		if d.redirect != "" {
			words = []string{"echo", d.redirect}
		}
		if len(words) == 0 {
			continue
		}
		name := words[0]
		for _, n := range []string{name, name + ".x", name + ".", name[:len(name)-1], "x" + name, "." + name, name + "x", strings.ToUpper(name)} {
			for cut := 0; cut <= len(words)-1; cut++ {
				for _, target := range []string{"", d.redirect, "/dev/null"} {
					next := ""
					if len(d.segments) > 1 {
						next = d.segments[1][0]
					}
					args := append([]string{n}, words[1:len(words)-cut]...)
					for _, cmd := range []*shell.Command{deniedCommandFor(args, target, next), deniedCommandFor(args, target, "")} {
						compared++
						if anyDenied(list, cmd) {
							matched++
							if !x.mayMatch(cmd) {
								t.Fatalf("%q > %q | %q matches a denied pattern, but the index skips it", args, target, next)
							}
						}
					}
				}
			}
		}
	}
	if compared < 1000 || matched < 100 {
		t.Fatalf("only %d commands compared, %d matched", compared, matched)
	}
}

// FuzzDeniedIndex: a command the index skips matches no denied pattern.
func FuzzDeniedIndex(f *testing.F) {
	for _, s := range []string{"mkfs.ext4\x1f/dev/sda", "dd\x1fif=/dev/zero\x1fof=/dev/sda", "rm\x1f-rf\x1f/", "go\x1fbuild", "a.b\x1fc=1"} {
		f.Add(s, "", "")
		f.Add(s, "/dev/sda", "sh")
	}
	list := deniedForTest(f)
	x := indexDenied(list)
	f.Fuzz(func(t *testing.T, argv, target, next string) {
		cmd := deniedCommandFor(strings.Split(argv, "\x1f"), target, next)
		if !x.mayMatch(cmd) && anyDenied(list, cmd) {
			t.Fatalf("%q > %q | %q matches a denied pattern, but the index skips it", argv, target, next)
		}
	})
}
