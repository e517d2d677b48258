package shell

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

// spanView is a command's or word's span with the text it covers.
type spanView struct {
	Text       string
	Start, End int
}

func spanOf(src string, sp risk.Span) spanView {
	return spanView{Text: src[sp.Start:sp.End], Start: sp.Start, End: sp.End}
}

func TestSpans(t *testing.T) {
	tests := []struct {
		src      string
		commands []spanView   // one per command
		words    [][]spanView // per command, per argv word
	}{
		{
			src:      "cd /tmp && rm -rf x",
			commands: []spanView{{"cd /tmp", 0, 7}, {"rm -rf x", 11, 19}},
			words: [][]spanView{
				{{"cd", 0, 2}, {"/tmp", 3, 7}},
				{{"rm", 11, 13}, {"-rf", 14, 17}, {"x", 18, 19}},
			},
		},
		{
			// nested commands carry the span of the string they came from
			src:      `sudo bash -c 'rm -rf /'`,
			commands: []spanView{{`sudo bash -c 'rm -rf /'`, 0, 23}, {`'rm -rf /'`, 13, 23}},
			words: [][]spanView{
				{{"bash", 5, 9}, {"-c", 10, 12}, {`'rm -rf /'`, 13, 23}},
				{{`'rm -rf /'`, 13, 23}, {`'rm -rf /'`, 13, 23}, {`'rm -rf /'`, 13, 23}},
			},
		},
		{
			// a command substitution is real source text
			src:      "echo $(id -u) > f",
			commands: []spanView{{"id -u", 7, 12}, {"echo $(id -u) > f", 0, 17}},
			words:    [][]spanView{{{"id", 7, 9}, {"-u", 10, 12}}, {{"echo", 0, 4}, {"$(id -u)", 5, 13}}},
		},
	}
	for _, tc := range tests {
		s, err := Parse(tc.src, testOptions)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.src, err)
		}
		var cmds []spanView
		var words [][]spanView
		for _, c := range s.Commands {
			cmds = append(cmds, spanOf(tc.src, c.Span))
			var ws []spanView
			for _, w := range c.Argv {
				ws = append(ws, spanOf(tc.src, w.Span))
			}
			words = append(words, ws)
		}
		if diff := cmp.Diff(tc.commands, cmds); diff != "" {
			t.Errorf("Parse(%q) command spans (-want +got):\n%s", tc.src, diff)
		}
		if diff := cmp.Diff(tc.words, words); diff != "" {
			t.Errorf("Parse(%q) word spans (-want +got):\n%s", tc.src, diff)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src     string
		opts    Options
		problem Problem
		budget  bool
	}{
		{src: "echo 'unterminated", problem: Problem{Reason: "parse error: reached EOF without closing quote `'`", Span: risk.Span{Start: 5, End: 18}}},
		{src: "if then fi", problem: Problem{Reason: "parse error: `if` must be followed by a statement list", Span: risk.Span{Start: 0, End: 10}}},
		{src: "cat <<EOF", problem: Problem{Reason: "parse error: unclosed here-document `EOF`", Span: risk.Span{Start: 4, End: 9}}},
		{src: strings.Repeat("x", 20), opts: Options{MaxBytes: 10}, budget: true,
			problem: Problem{Reason: "budget exceeded: command is 20 bytes, limit is 10", Span: risk.Span{End: 20}}},
	}
	for _, tc := range tests {
		s, err := Parse(tc.src, tc.opts)
		if err == nil {
			t.Errorf("Parse(%q): no error", tc.src)
			continue
		}
		if got := errors.Is(err, ErrBudget); got != tc.budget {
			t.Errorf("Parse(%q): errors.Is(err, ErrBudget) = %v, want %v (err %v)", tc.src, got, tc.budget, err)
		}
		if diff := cmp.Diff([]Problem{tc.problem}, s.Problems); diff != "" {
			t.Errorf("Parse(%q) problems (-want +got):\n%s", tc.src, diff)
		}
		if len(s.Commands) != 0 || s.Source != tc.src {
			t.Errorf("Parse(%q): script %d commands, source %q; want none and the input", tc.src, len(s.Commands), s.Source)
		}
	}
}

func TestScriptMaps(t *testing.T) {
	s, err := Parse("alias ll='ls -l'; f() { :; }; g() { f; }", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"ll": "ls -l"}, s.Aliases); diff != "" {
		t.Errorf("Aliases (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]bool{"f": true, "g": true}, s.Functions); diff != "" {
		t.Errorf("Functions (-want +got):\n%s", diff)
	}
	if s.HasProblems() || s.Recursive != nil {
		t.Errorf("unexpected problems %v or recursion %v", s.Problems, s.Recursive)
	}
	bomb, _ := Parse(":(){ :|:& };:", Options{})
	if diff := cmp.Diff(map[string]bool{":": true}, bomb.Recursive); diff != "" {
		t.Errorf("Recursive (-want +got):\n%s", diff)
	}
}

func TestOptionsDefaults(t *testing.T) {
	got := Options{}.withDefaults()
	want := Options{MaxBytes: DefaultMaxBytes, MaxDepth: DefaultMaxDepth, MaxCommands: DefaultMaxCommands}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("withDefaults (-want +got):\n%s", diff)
	}
}

func TestCommandHelpers(t *testing.T) {
	s, _ := Parse("rm -rf /x; true", Options{})
	if diff := cmp.Diff([]string{"rm", "-rf", "/x"}, s.Commands[0].Values()); diff != "" {
		t.Errorf("Values (-want +got):\n%s", diff)
	}
	if got := len(s.Commands[0].Args()); got != 2 {
		t.Errorf("Args: %d words, want 2", got)
	}
	if got := s.Commands[1].Args(); got != nil {
		t.Errorf("Args of a command without arguments = %v, want nil", got)
	}
}

// TestParseConcurrent parses from many goroutines at once; run with -race
// it proves Parse shares no mutable state (expand.Config is per call).
func TestParseConcurrent(t *testing.T) {
	inputs := benchCommands
	want := make([]string, len(inputs))
	for i, src := range inputs {
		s, _ := Parse(src, testOptions)
		want[i] = fmt.Sprint(views(s), reasons(s))
	}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 40 {
				i := (g + k) % len(inputs)
				s, _ := Parse(inputs[i], testOptions)
				if got := fmt.Sprint(views(s), reasons(s)); got != want[i] {
					t.Errorf("Parse(%q) concurrently = %s, want %s", inputs[i], got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestWordFields(t *testing.T) {
	src := `rm -f *.log 'a b' \*.c "$HOME"/x $U {1,2}`
	s, err := Parse(src, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	want := []Word{
		{Value: "rm", Known: true, Span: risk.Span{Start: 0, End: 2}},
		{Value: "-f", Known: true, Span: risk.Span{Start: 3, End: 5}},
		{Value: "*.log", Known: true, Glob: true, Span: risk.Span{Start: 6, End: 11}},
		{Value: "a b", Known: true, Quoted: true, Span: risk.Span{Start: 12, End: 17}},
		{Value: "*.c", Known: true, Quoted: true, Span: risk.Span{Start: 18, End: 22}},
		{Value: "/home/u/x", Known: true, Quoted: true, Span: risk.Span{Start: 23, End: 32}},
		{Value: "$U", Span: risk.Span{Start: 33, End: 35}},
		{Value: "1", Known: true, Span: risk.Span{Start: 36, End: 41}},
		{Value: "2", Known: true, Span: risk.Span{Start: 36, End: 41}},
	}
	if diff := cmp.Diff(want, s.Commands[0].Argv); diff != "" {
		t.Errorf("Parse(%q) argv (-want +got):\n%s", src, diff)
	}
}

func TestPipeLinks(t *testing.T) {
	s, _ := Parse("curl -s x | base64 -d | bash", testOptions)
	curl, b64, bash := s.Commands[0], s.Commands[1], s.Commands[2]
	if curl.PipeTo != b64 || b64.PipeFrom != curl || b64.PipeTo != bash || bash.PipeFrom != b64 || curl.PipeFrom != nil || bash.PipeTo != nil {
		t.Errorf("pipe links wrong: %s→%v, %s→%v", curl.Name, curl.PipeTo, b64.Name, b64.PipeTo)
	}
	if bash.Stdin == nil || bash.Stdin.From != b64 || bash.Stdin.Known || bash.Stdin.Via != "pipe" {
		t.Errorf("bash stdin = %+v, want unknown pipe from base64", bash.Stdin)
	}
}

// TestParseRecovers checks that an internal failure becomes an error and a
// Problem, never a panic or a clean script.
func TestParseRecovers(t *testing.T) {
	testHook = func(string) { panic("boom") }
	defer func() { testHook = nil }()
	s, err := Parse("ls", Options{})
	if err == nil || err.Error() != "shell: internal error: boom" {
		t.Errorf("error = %v, want the internal error", err)
	}
	want := []Problem{{Reason: "internal error while analysing the command: boom", Span: risk.Span{End: 2}}}
	if s == nil {
		t.Fatal("nil script after a panic")
	}
	if diff := cmp.Diff(want, s.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestFindActs(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{".", "-name", "*.pyc", "-delete"}, true},
		{[]string{"-delete"}, true},
		{[]string{".", "-name", "-delete"}, false},                        // a file named -delete
		{[]string{".", "-exec", "echo", "-delete", ";", "-print"}, false}, // echo's word
		{[]string{".", "-exec", "echo", "-delete", "+", "-delete"}, true},
		{[]string{".", "-newermt", "-delete", "-print"}, false},
		{[]string{".", "-fprintf", "out", "-delete", "-print"}, false},
		{[]string{"-delete", "-print"}, true}, // find reads a leading "-…" word as the expression
	}
	for _, tt := range tests {
		var words []Word
		for _, a := range tt.args {
			words = append(words, Word{Value: a, Known: true})
		}
		if got := FindActs(words, "-delete"); got != tt.want {
			t.Errorf("FindActs(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}
