package shell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseCase is one row of the table tests in parse_data_test.go: the
// commands are compared in the compact form view renders, every field that
// is set shown, so a row states the exact expected Script.
type parseCase struct {
	name     string
	src      string
	opts     *Options // nil: testOptions
	commands []string
	problems []string
}

// testOptions is what most cases parse with: a known home directory and
// nothing else known.
var testOptions = Options{Home: "/home/u"}

// view renders a command on one line:
//
//	NAME argv… [@origin/depth] [wrap=a,b] [priv] [remote=h] [dir=d] [X=v]
//	[redir=OPtarget] [inline=lang:code] [stdin=via:text] [from=name] [bg]
//
// A word that is not Known ends in "?", one with spaces is quoted; a
// heredoc body is shown as body=….
func view(c *Command) string {
	var b strings.Builder
	b.WriteString(cmpOrDash(c.Name))
	if len(c.Argv) > 0 && !c.Argv[0].Known {
		b.WriteString("?")
	}
	for _, w := range c.Args() {
		b.WriteString(" " + viewWord(w))
	}
	if c.Origin != "" {
		fmt.Fprintf(&b, " @%s/%d", c.Origin, c.Depth)
	}
	viewContext(&b, c)
	for _, r := range c.Redirects {
		fmt.Fprintf(&b, " redir=%s%s%s", r.Fd, r.Op, viewWord(r.Target))
		if r.IsHereDoc() {
			fmt.Fprintf(&b, " body=%s", viewText(r.Body, r.BodyKnown))
		}
	}
	viewData(&b, c)
	return b.String()
}

func viewContext(b *strings.Builder, c *Command) {
	if len(c.Wrappers) > 0 {
		b.WriteString(" wrap=" + strings.Join(c.Wrappers, ","))
	}
	if c.Privileged {
		b.WriteString(" priv")
	}
	if c.Remote != "" {
		b.WriteString(" remote=" + c.Remote)
	}
	if c.Dir != (Word{}) {
		b.WriteString(" dir=" + viewWord(c.Dir))
	}
	for _, a := range c.Assigns {
		b.WriteString(" " + a.Name + "=" + viewWord(a.Value))
	}
}

func viewData(b *strings.Builder, c *Command) {
	if c.Inline != nil {
		fmt.Fprintf(b, " inline=%s/%s:%s", c.Inline.Lang, c.Inline.Via, viewText(c.Inline.Code, c.Inline.Known))
	}
	if c.Stdin != nil {
		fmt.Fprintf(b, " stdin=%s:%s", c.Stdin.Via, viewText(c.Stdin.Text, c.Stdin.Known))
	}
	if c.PipeFrom != nil {
		b.WriteString(" from=" + c.PipeFrom.Name)
	}
	if c.Background {
		b.WriteString(" bg")
	}
}

func cmpOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func viewWord(w Word) string {
	s := w.Value
	if s == "" || strings.ContainsAny(s, " \t\n\"") {
		s = fmt.Sprintf("%q", s)
	}
	if !w.Known {
		s += "?"
	}
	return s
}

func viewText(s string, known bool) string {
	q := fmt.Sprintf("%q", s)
	if !known {
		q += "?"
	}
	return q
}

func views(s *Script) []string {
	out := make([]string, len(s.Commands))
	for i, c := range s.Commands {
		out[i] = view(c)
	}
	return out
}

func reasons(s *Script) []string {
	out := make([]string, len(s.Problems))
	for i, p := range s.Problems {
		out[i] = p.Reason
	}
	return out
}

func runCases(t *testing.T, cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := testOptions
			if tc.opts != nil {
				opts = *tc.opts
			}
			s, _ := Parse(tc.src, opts)
			checkInvariants(t, tc.src, s)
			if tc.commands == nil {
				tc.commands = []string{}
			}
			if tc.problems == nil {
				tc.problems = []string{}
			}
			if diff := cmp.Diff(tc.commands, views(s)); diff != "" {
				t.Errorf("Parse(%q) commands (-want +got):\n%s", tc.src, diff)
			}
			if diff := cmp.Diff(tc.problems, reasons(s)); diff != "" {
				t.Errorf("Parse(%q) problems (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}

func TestParseConstructs(t *testing.T) { runCases(t, constructCases) }
func TestParseWords(t *testing.T)      { runCases(t, wordCases) }
func TestParseWrappers(t *testing.T)   { runCases(t, wrapperCases) }
func TestParseNested(t *testing.T)     { runCases(t, nestedCases) }
func TestParseInline(t *testing.T)     { runCases(t, inlineCases) }
func TestParseRedirects(t *testing.T)  { runCases(t, redirectCases) }
func TestParseDirs(t *testing.T)       { runCases(t, dirCases) }
func TestParseData(t *testing.T)       { runCases(t, dataCases) }
func TestParseBudgets(t *testing.T)    { runCases(t, budgetCases) }

// TestParseBypasses covers every bypass family of
// /work/shared/research/command-guards.md §6.
func TestParseBypasses(t *testing.T) { runCases(t, bypassCases) }
