package shell

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAwkPrints: an awk program of BEGIN rules that print string literals
// has a known output (and known files it prints into); any other program
// has none.
func TestAwkPrints(t *testing.T) {
	type result struct {
		Stdout string
		Files  []AwkFile
		OK     bool
	}
	tests := []struct {
		code string
		want result
	}{
		{`BEGIN { print "#!/bin/sh"; print "find \"$HOME\" -mindepth 1 -delete" }`,
			result{"#!/bin/sh\nfind \"$HOME\" -mindepth 1 -delete\n", nil, true}},
		{"BEGIN{print \"a\" \"b\", \"c\"\nprint(\"d\")\nprint}", result{"ab c\nd\n\n", nil, true}},
		{`BEGIN { print "rm -rf ~" > "x.sh"; print "ls" > "x.sh"; print "y" >> "log"; print "out" }`,
			result{"out\n", []AwkFile{{Name: "x.sh", Text: "rm -rf ~\nls\n"}, {Name: "log", Text: "y\n", Append: true}}, true}},
		{`BEGIN { print "a\tb\\c\/d\101" } # comment`, result{"a\tb\\c/dA\n", nil, true}},
		{`BEGIN { print "a" } BEGIN { print "b" }`, result{"a\nb\n", nil, true}},
		// not known: input, variables, pipes, printf, other statements
		{`{ print "a" }`, result{}},
		{`BEGIN { print "a" } END { print "b" }`, result{}},
		{`BEGIN { print x }`, result{}},
		{`BEGIN { x = "rm -rf ~"; print x }`, result{}},
		{`BEGIN { print "rm -rf ~" | "sh" }`, result{}},
		{`BEGIN { printf "%s\n", "a" }`, result{}},
		{`BEGIN { print "a" > f }`, result{}},
		{`BEGIN { system("rm -rf ~") }`, result{}},
		{`BEGIN { print "a" `, result{}},
		{`BEGIN { print "a }`, result{}},
		{`BEGINx { print "a" }`, result{}},
	}
	for _, tt := range tests {
		var got result
		got.Stdout, got.Files, got.OK = AwkPrints(tt.code)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("AwkPrints(%q) (-want +got):\n%s", tt.code, diff)
		}
	}
}

// TestAwkPipesInLiterals: a | inside an awk string or regular expression
// pipes nothing (it made awk 'BEGIN { print "a | b" }' unverifiable); a
// pipe to a command that is not a literal still is.
func TestAwkPipesInLiterals(t *testing.T) {
	tests := []struct {
		src      string
		problems []string
	}{
		{`awk 'BEGIN { print "find src | xargs wc -l | tail -1" }'`, nil},
		{`awk '/foo|bar/ { print }' a.txt`, nil},
		{`awk '$1 ~ /a|b/ && /c|d/ { n++ } END { print n }' a.txt`, nil},
		{`awk '{ print $1 / 2 | cmd }' a.txt`, []string{"awk code pipes to or from a command that is not a literal"}},
		{`awk '{ print "x|y" | cmd }' a.txt`, []string{"awk code pipes to or from a command that is not a literal"}},
		{`awk '{ cmd | getline x }' a.txt`, []string{"awk code pipes to or from a command that is not a literal"}},
	}
	for _, tt := range tests {
		s, _ := Parse(tt.src, testOptions)
		got := reasons(s)
		if len(got) == 0 {
			got = nil
		}
		if diff := cmp.Diff(tt.problems, got); diff != "" {
			t.Errorf("Parse(%q) problems (-want +got):\n%s", tt.src, diff)
		}
	}
}

// TestOutputAwk: awk's known output is the text it writes, as echo's is.
func TestOutputAwk(t *testing.T) {
	tests := []struct {
		src  string
		want string
		ok   bool
	}{
		{`awk 'BEGIN { print "rm -rf ~" }'`, "rm -rf ~\n", true},
		{`gawk -v x=1 'BEGIN { print "a" }' data.txt`, "a\n", true},
		{`awk '{ print "a" }' data.txt`, "", false},
		{`awk -f prog.awk`, "", false},
	}
	for _, tt := range tests {
		s, _ := Parse(tt.src, testOptions)
		if len(s.Commands) == 0 {
			t.Fatalf("Parse(%q): no command", tt.src)
		}
		got, ok := Output(s.Commands[0])
		if got != tt.want || ok != tt.ok {
			t.Errorf("Output(%q) = %q, %v; want %q, %v", tt.src, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzAwkPrints: any program is read without a panic, and a known output
// ends with a newline (every print writes ORS) or is empty.
func FuzzAwkPrints(f *testing.F) {
	f.Add(`BEGIN { print "a" "b", "c" > "x"; print }`)
	f.Add(`BEGIN{print("\101\n")}`)
	f.Add(`/a|b/ { print "x" | "sh" }`)
	f.Fuzz(func(t *testing.T, code string) {
		out, _, ok := AwkPrints(code)
		if ok && out != "" && out[len(out)-1] != '\n' {
			t.Errorf("AwkPrints(%q) = %q: no newline at the end", code, out)
		}
		awkLiteralEnd(code+" ", 0)
	})
}
