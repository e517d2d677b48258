package shell

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestBudget(t *testing.T) {
	b := NewBudget(10)
	if !b.Spend(4) || !b.Spend(6) || b.Used() != 10 || b.Exhausted() {
		t.Fatalf("spending the whole budget: used %d, exhausted %v", b.Used(), b.Exhausted())
	}
	if b.Spend(1) || !b.Exhausted() || b.Used() != 10 {
		t.Fatalf("a charge over the limit: used %d, exhausted %v", b.Used(), b.Exhausted())
	}
	if b.Spend(0) {
		t.Error("an exhausted budget accepted more work")
	}
	if got := NewBudget(0).Limit(); got != DefaultWorkLimit {
		t.Errorf("NewBudget(0).Limit() = %d, want %d", got, DefaultWorkLimit)
	}
	var none *Budget
	if !none.Spend(1<<40) || none.Exhausted() || none.Used() != 0 {
		t.Error("a nil budget limits work")
	}
	if b := NewBudget(5); !b.Spend(-3) || b.Used() != 0 {
		t.Error("a negative charge changed the budget")
	}
}

// TestBudgetHold checks that a held part of the budget is refused to the
// work before the release, and available after it.
func TestBudgetHold(t *testing.T) {
	b := NewBudget(100)
	release := b.Hold(40)
	if !b.Spend(60) || b.Spend(1) {
		t.Fatalf("with 40 of 100 held: used %d, want 60 and the next charge refused", b.Used())
	}
	release()
	if !b.Spend(40) || b.Used() != 100 {
		t.Fatalf("after the release: used %d, want 100", b.Used())
	}
	if !b.Exhausted() || b.Spend(1) {
		t.Error("the budget forgot that the held phase ran out, or passed its limit")
	}
	b = NewBudget(10)
	b.Spend(8)
	release = b.Hold(50) // more than is left: holds only what is left
	if b.Spend(1) {
		t.Error("held units were spent")
	}
	release()
	if !b.Spend(2) {
		t.Error("released units were refused")
	}
}

// hostileCommands are inputs within the size limits whose analysis used to
// multiply: every one of them must end with the work budget exhausted.
var hostileCommands = map[string]string{
	"12000 nested evals":       strings.Repeat("eval ", 12000) + "rm -rf /tmp/x",
	"20000 nested parentheses": "echo $((" + strings.Repeat("(", 20000) + "1" + strings.Repeat(")", 20000) + "))",
	"20000 nested $(":          "echo " + strings.Repeat("$(", 20000) + "id" + strings.Repeat(")", 20000),
	"7600-command pipeline":    strings.Repeat("cat a | ", 7600) + "cat",
	"30000 && links":           strings.Repeat("a&&", 20000) + "a",
	"1024-word brace groups":   "rm -rf" + strings.Repeat(" {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}{s,t}", 1200),
	"nested loops":             strings.Repeat("while a; do ", 2000) + "rm x" + strings.Repeat("; done", 2000),
	"exported variables":       exportMany(3000) + strings.Repeat("ls; ", 3000),
	"find -exec chain":         strings.Repeat("find . -exec ", 4700) + "rm -rf /tmp/x",
}

func exportMany(n int) string {
	var b strings.Builder
	b.WriteString("export")
	for i := range n {
		fmt.Fprintf(&b, " V%d=1", i)
	}
	return b.String() + "; "
}

// TestParseWorkLimit parses hostile commands on a default budget: each
// stops at a limit (the work budget, or for the exported variables the
// limit on commands, now that their commands share one environment),
// within the budget and within the memory the design allows a whole
// decision (8 MB).
func TestParseWorkLimit(t *testing.T) {
	for name, src := range hostileCommands {
		t.Run(name, func(t *testing.T) {
			if len(src) > DefaultMaxBytes {
				t.Fatalf("the input is %d bytes, over the size limit", len(src))
			}
			b := NewBudget(0)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			s, _ := Parse(src, Options{Home: "/home/u", Budget: b})
			runtime.ReadMemStats(&after)
			if !hasWorkLimit(s) && !slices.ContainsFunc(s.Problems, func(p Problem) bool { return strings.HasPrefix(p.Reason, "budget exceeded: ") }) {
				t.Errorf("no limit reached (exhausted %v); problems: %q", b.Exhausted(), reasons(s))
			}
			if hasWorkLimit(s) != b.Exhausted() {
				t.Errorf("work-limit problem %v, but the budget says exhausted %v", hasWorkLimit(s), b.Exhausted())
			}
			if b.Used() > b.Limit() {
				t.Errorf("used %d units of %d", b.Used(), b.Limit())
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
				t.Errorf("allocated %.1f MB, want at most 8", float64(alloc)/(1<<20))
			}
		})
	}
}

func hasWorkLimit(s *Script) bool {
	for _, p := range s.Problems {
		if p.OverWorkLimit() {
			return true
		}
	}
	return false
}

// TestParseSharedBudget checks that one budget spans several parses: what
// the first spends, the second cannot.
func TestParseSharedBudget(t *testing.T) {
	b := NewBudget(500)
	s, err := Parse("ls; ls; ls", Options{Budget: b})
	if err != nil || hasWorkLimit(s) {
		t.Fatalf("a small command on a fresh budget: %v %q", err, reasons(s))
	}
	first := b.Used()
	if first == 0 {
		t.Fatal("parsing cost nothing")
	}
	s, err = Parse(strings.Repeat("cat a; ", 200), Options{Budget: b})
	if !errors.Is(err, ErrBudget) || !hasWorkLimit(s) || len(s.Commands) != 0 {
		t.Errorf("a command over what is left: err %v, problems %q, %d commands", err, reasons(s), len(s.Commands))
	}
	if b.Used() != first {
		t.Errorf("a refused parse spent %d units", b.Used()-first)
	}
}

// TestParseCostEstimate checks that the estimate made before parsing
// charges what makes parsing dear: nesting and operators.
func TestParseCostEstimate(t *testing.T) {
	plain := parseCost(strings.Repeat("a ", 1000))
	for name, src := range map[string]string{
		"parentheses": strings.Repeat("(", 1000) + strings.Repeat(")", 1000),
		"pipes":       strings.Repeat("a|", 1000),
		"statements":  strings.Repeat("a;", 1000),
	} {
		if got := parseCost(src); got < 2*plain {
			t.Errorf("%s: parseCost = %d, want at least 2 × %d (2000 bytes of words)", name, got, plain)
		}
	}
	if got := parseCost(strings.Repeat("(", 1000)); got < 1000*depthCost {
		t.Errorf("1000 levels of nesting cost %d, want at least %d", got, 1000*depthCost)
	}
}

// parseCostSwitch is parseCost as it was written first, a switch on every
// byte: the reference its class table must agree with.
func parseCostSwitch(src string) int {
	ops, links, words, depth, deepest := 0, 0, 0, 0, 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '{', '[':
			ops++
			depth++
			deepest = max(deepest, depth)
		case ')', '}', ']':
			ops++
			depth = max(depth-1, 0)
		case ';', '\n', '$', '`', '<', '>':
			ops++
		case '|', '&':
			links++
		case ' ', '\t':
			words++
		}
	}
	return setupCost + len(src)/3 + words + opCost*ops + linkCost*links + depthCost*deepest
}

// parseCostInputs are texts of every byte class, and every byte.
func parseCostInputs() []string {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	in := []string{"", " ", "a", "((a))", "))((", "a|b&&c;d\n$x`y`<z>w", "{ [ x ] }", "\t\t", string(all)}
	in = append(in, benchCommands...)
	return in
}

// TestParseCostTable checks the class table against the switch.
func TestParseCostTable(t *testing.T) {
	for _, src := range parseCostInputs() {
		if got, want := parseCost(src), parseCostSwitch(src); got != want {
			t.Errorf("parseCost(%q) = %d, the switch says %d", src, got, want)
		}
	}
	for c := 0; c < 256; c++ {
		src := string([]byte{'a', byte(c), 'b', byte(c)})
		if got, want := parseCost(src), parseCostSwitch(src); got != want {
			t.Errorf("byte %#x: parseCost = %d, the switch says %d", c, got, want)
		}
	}
}

// FuzzParseCost: the class table and the switch agree on any text.
func FuzzParseCost(f *testing.F) {
	for _, src := range parseCostInputs() {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if got, want := parseCost(src), parseCostSwitch(src); got != want {
			t.Fatalf("parseCost(%q) = %d, the switch says %d", src, got, want)
		}
	})
}

// TestArgsFromInput checks which commands get words read at run time.
func TestArgsFromInput(t *testing.T) {
	tests := []struct {
		src, name string
		want      bool
	}{
		{"xargs curl < urls.txt", "curl", true},
		{"cat urls.txt | xargs -n1 curl -s", "curl", true},
		{"xargs -a urls.txt wget -q", "wget", true},
		{"xargs -I{} curl {} < urls.txt", "curl", true},
		{"echo https://example.com | xargs curl", "curl", false},
		{"find . -name '*.log' | xargs rm", "rm", false},
		{"parallel curl < urls.txt", "curl", true},
		{"parallel curl :::: urls.txt", "curl", true},
		{"parallel curl ::: https://example.com", "curl", false},
		{"parallel ::: 'curl https://example.com'", "curl", false},
		{"curl https://example.com", "curl", false},
	}
	for _, tc := range tests {
		s, _ := Parse(tc.src, testOptions)
		found := false
		for _, c := range s.Commands {
			if c.Name == tc.name {
				found = true
				if c.ArgsFromInput != tc.want {
					t.Errorf("Parse(%q): %s ArgsFromInput = %v, want %v", tc.src, c.Name, c.ArgsFromInput, tc.want)
				}
			}
		}
		if !found {
			t.Errorf("Parse(%q): no %s command in %q", tc.src, tc.name, views(s))
		}
	}
}

// TestXargsNumberLines: xargs -I over a ps listing of numeric columns puts
// a number (one word) where the replace string was, so the shell code it
// runs is known; any other producer, option or column keeps the input
// unknown.
func TestXargsNumberLines(t *testing.T) {
	tests := []struct {
		src  string
		want string // the sh command's code; "" when its words come from input
	}{
		{`ps -p $$ -o ppid= | xargs -I {} sh -c 'ps -p {} -o pid,cmd'`, "ps -p 1 -o pid,cmd"},
		{`ps -o pid,ppid= | xargs -I PID sh -c 'echo PID'`, "echo 1"},
		{`ps -e -o pid= | xargs -i sh -c 'echo {}'`, "echo 1"},
		{`ps -p $$ -o comm= | xargs -I {} sh -c 'echo {}'`, ""},         // a name, not a number
		{`ps -p $$ -o pid=X,ppid | xargs -I {} sh -c 'echo {}'`, ""},    // a header of any text
		{`ps -p $$ -o ppid= 2>&1 | xargs -I {} sh -c 'echo {}'`, ""},    // its error text too
		{`ps -f -o ppid= | xargs -I {} sh -c 'echo {}'`, ""},            // -f adds columns
		{`ps -p $$ -o ppid= | xargs -0 -I {} sh -c 'echo {}'`, ""},      // a whole output, newlines and all
		{`ps -p $$ -o ppid= | xargs -a list -I {} sh -c 'echo {}'`, ""}, // input from a file
		{`cat pids | xargs -I {} sh -c 'echo {}'`, ""},
	}
	for _, tc := range tests {
		s, _ := Parse(tc.src, testOptions)
		var sh *Command
		for _, c := range s.Commands {
			if c.Name == "sh" {
				sh = c
			}
		}
		if sh == nil || len(sh.Argv) < 3 {
			t.Errorf("Parse(%q): no sh -c command in %q", tc.src, views(s))
			continue
		}
		got := sh.Argv[2].Value
		if !sh.ArgsFromInput && tc.want == "" || sh.ArgsFromInput && tc.want != "" || tc.want != "" && got != tc.want {
			t.Errorf("Parse(%q): sh code %q (words from input: %v), want %q", tc.src, got, sh.ArgsFromInput, tc.want)
		}
	}
}
