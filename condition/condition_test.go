package condition

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// env is an Env over a map.
type env map[string]any

func (e env) Lookup(name string) any { return e[name] }

// testVars are the variables policy declares, plus an int and a bool.
func testVars() map[string]Type {
	return map[string]Type{
		"tool": String, "kind": String, "command": String, "cwd": String, "workspace": String,
		"agent": String, "session": String, "tier": String,
		"commands": StringList, "names": StringList, "paths": StringList, "urls": StringList, "hosts": StringList,
		"n": Int, "flag": Bool,
	}
}

func testEnv() env {
	return env{
		"tool": "Bash", "kind": "shell", "command": "git push --force origin main && rm -rf build",
		"cwd": "/srv/app", "workspace": "/srv/app", "agent": "claude-code", "session": "s1", "tier": "execute",
		"commands": []string{"git push --force origin main", "rm -rf build"},
		"names":    []string{"git", "rm"},
		"paths":    []string{"/srv/app/build", "/home/u/.ssh/id_rsa"},
		"urls":     []string{},
		"hosts":    []string(nil),
		"n":        3, "flag": true,
	}
}

// sexpr prints a parse tree with explicit grouping.
func sexpr(n *node) string {
	args := func(sep string) string {
		var s []string
		for _, a := range n.args {
			s = append(s, sexpr(a))
		}
		return strings.Join(s, sep)
	}
	switch n.kind {
	case nString:
		return strconv.Quote(n.str)
	case nInt:
		return strconv.Itoa(n.num)
	case nBool:
		return strconv.FormatBool(n.num != 0)
	case nList:
		return "[" + args(" ") + "]"
	case nVar:
		return n.name
	case nElem:
		return "#"
	case nNot:
		return "(" + n.name + " " + args(" ") + ")"
	case nBinary:
		return "(" + opName(n) + " " + args(" ") + ")"
	case nTernary:
		return "(? " + args(" ") + ")"
	case nCall:
		return n.name + "(" + args(", ") + ")"
	case nChain: // (< a b <= c …)
		s := "(" + n.ops[0] + " " + sexpr(n.args[0]) + " " + sexpr(n.args[1])
		for i, op := range n.ops[1:] {
			s += " " + op + " " + sexpr(n.args[i+2])
		}
		return s + ")"
	}
	return fmt.Sprintf("<kind %d>", n.kind)
}

func TestParse(t *testing.T) {
	tests := []struct{ src, want string }{
		{`a || b && c`, `(|| a (&& b c))`},
		{`a && b || c`, `(|| (&& a b) c)`},
		{`a or b and c`, `(|| a (&& b c))`},
		{`(a || b) && c`, `(&& (|| a b) c)`},
		{`a || b || c`, `(|| (|| a b) c)`},
		{`!a == b`, `(== (! a) b)`},
		{`not a in b`, `(in (not a) b)`},
		{`!!a`, `(! (! a))`},
		{`!(a in b)`, `(! (in a b))`},
		{`a && !b`, `(&& a (! b))`},
		{`a == b != c`, `(!= (== a b) c)`},
		{`a in b == c`, `(== (in a b) c)`},
		{`a == b && c != d`, `(&& (== a b) (!= c d))`},
		{`a contains b && c startsWith d || e endsWith f`, `(|| (&& (contains a b) (startsWith c d)) (endsWith e f))`},
		{`a matches "x" == b`, `(== (matches a "x") b)`},
		{`a < b`, `(< a b)`},
		{`a < b < c`, `(< a b < c)`},
		{`a < b <= c > d`, `(< a b <= c > d)`},
		{`a < (b < c < d) < e`, `(< a (< b c < d) < e)`},
		{`a >= b == c`, `(== (>= a b) c)`},
		{`a not in b`, `(not in a b)`},
		{`a not in b || c`, `(|| (not in a b) c)`},
		{`a not contains b && a not startsWith c`, `(&& (not contains a b) (not startsWith a c))`},
		{`a not endsWith b`, `(not endsWith a b)`},
		{`a not matches "x"`, `(not matches a "x")`},
		{`a ? b : c`, `(? a b c)`},
		{`a ? b : c ? d : e`, `(? a b (? c d e))`},
		{`a ? b ? c : d : e`, `(? a (? b c d) e)`},
		{`a || b ? c : d`, `(? (|| a b) c d)`},
		{`(a ? b : c) == d`, `(== (? a b c) d)`},
		{`[]`, `[]`},
		{`["a", 'b', c, 1,]`, `["a" "b" c 1]`},
		{`len(x)`, `len(x)`},
		{`f()`, `f()`},
		{`any(l, # == x)`, `any(l, (== # x))`},
		{`all(l, {# startsWith "/"})`, `all(l, (startsWith # "/"))`},
		{`any(l, any(split(#, " "), # == "f"))`, `any(l, any(split(#, " "), (== # "f")))`},
		{`join(a, ",",)`, `join(a, ",")`},
		{"a\n&&\tb", `(&& a b)`},
		{`"a\"b\'c\\d\ne\tf"`, `"a\"b'c\\d\ne\tf"`},
		{`'say "hi"'`, `"say \"hi\""`},
		{`007`, `7`},
		{`true && false`, `(&& true false)`},
		{`$x_1 == é`, `(== $x_1 é)`},
		{`a < b not in c`, `(not in (< a b) c)`},
		{`a || b not in c`, `(|| a (not in b c))`},
	}
	for _, tt := range tests {
		n, err := parse(tt.src)
		if err != nil {
			t.Errorf("parse(%q): %v", tt.src, err)
			continue
		}
		if diff := cmp.Diff(tt.want, sexpr(n)); diff != "" {
			t.Errorf("parse(%q) (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestEval(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		// literals
		{`true`, true},
		{`false`, false},
		{`"a" == 'a'`, true},
		{`"a\"b" == 'a"b'`, true},
		{`'it\'s' == "it's"`, true},
		{`len("a\\b") == 3`, true},
		{`len("\t\n") == 2`, true},
		{`"\n" == "n"`, false},
		{`10 == 10`, true},
		{`007 == 7`, true},
		{`len([]) == 0`, true},
		{`["a", tool] == ["a", "Bash"]`, true},
		{`["a",] == ["a"]`, true},
		{`["a", "b"] == ["b", "a"]`, false},
		// variables
		{`tool == "Bash"`, true},
		{`kind == "shell" && tier == "execute" && agent == "claude-code" && session == "s1"`, true},
		{`join([tool, kind, command, cwd, workspace, agent, session, tier], "|") == "Bash|shell|git push --force origin main && rm -rf build|/srv/app|/srv/app|claude-code|s1|execute"`, true},

		{`cwd == workspace`, true},
		{`flag`, true},
		{`n == 3`, true},
		{`hosts == []`, true},
		{`urls == hosts`, true},
		{`names == ["git", "rm"]`, true},
		{`names != ["git"]`, true},
		// precedence and associativity
		{`true || false && false`, true},
		{`false && false || true`, true},
		{`!false && false`, false},
		{`not true or true`, true},
		{`true or false and false`, true},
		{`"a" == "a" == true`, true},
		{`1 < 2 == true`, true},
		{`true || false ? false : true`, false},
		{`(false ? "x" : true ? "y" : "z") == "y"`, true},
		{`(true ? false ? "a" : "b" : "c") == "b"`, true},
		{`!(n > 3)`, true},
		{`!!flag`, true},
		// comparisons
		{`n < 4`, true},
		{`n < 3`, false},
		{`n <= 3`, true},
		{`n <= 2`, false},
		{`n > 2`, true},
		{`n > 3`, false},
		{`n >= 3`, true},
		{`n >= 4`, false},
		{`n != 3`, false},
		{`flag == true`, true},
		{`flag != false`, true},
		{`"a" < "b"`, true},
		{`"b" <= "b"`, true},
		{`"c" > "b"`, true},
		{`"a" >= "b"`, false},
		{`tool < "C"`, true},
		{`1 < n < 4`, true},
		{`1 < n < 3`, false},
		{`1 < n <= 3 < 4`, true},
		// in
		{`"git" in names`, true},
		{`"curl" in names`, false},
		{`"curl" not in names`, true},
		{`"git" not in names`, false},
		{`tool in ["Bash", "Read"]`, true},
		{`"" in []`, false},
		{`"rm" in hosts`, false},
		{`lower(tool) in split("bash,sh", ",")`, true},
		// string operators
		{`command contains "--force"`, true},
		{`command contains "--dry-run"`, false},
		{`command not contains "--dry-run"`, true},
		{`cwd startsWith "/srv"`, true},
		{`cwd startsWith "/home"`, false},
		{`cwd not startsWith "/home"`, true},
		{`tool endsWith "sh"`, true},
		{`tool endsWith "Ba"`, false},
		{`tool not endsWith "sh"`, false},
		{`command matches "push\\s+--force"`, true},
		{`tool matches "^bash$"`, false},
		{`tool matches "(?i)^bash$"`, true},
		{`tool not matches "^R"`, true},
		{`"Bash" matches tool`, true},
		{`any(["B", "x"], tool matches #)`, true},
		{`any(["^x", "^y", "^x"], tool matches #)`, false},
		{`"" matches ""`, true},
		// len
		{`len(tool) == 4`, true},
		{`len("héllo") == 5`, true},
		{`len(names) == 2`, true},
		{`len(hosts) == 0`, true},
		// predicates
		{`any(paths, # startsWith cwd)`, true},
		{`any(paths, # startsWith "/etc")`, false},
		{`any(hosts, true)`, false},
		{`all(paths, # startsWith "/")`, true},
		{`all(paths, # startsWith cwd)`, false},
		{`all(hosts, false)`, true},
		{`none(names, # == "curl")`, true},
		{`none(names, # == "rm")`, false},
		{`none(hosts, true)`, true},
		{`one(names, len(#) == 2)`, true},
		{`one(names, true)`, false},
		{`one(names, false)`, false},
		{`one([], true)`, false},
		{`count(names, true) == 2`, true},
		{`count(paths, # contains ".ssh") == 1`, true},
		{`count(hosts, true) == 0`, true},
		{`count(split(command, " "), # startsWith "-") == 2`, true},
		{`filter(names, # != "git") == ["rm"]`, true},
		{`len(filter(names, false)) == 0`, true},
		{`filter(commands, # contains "rm") == ["rm -rf build"]`, true},
		{`any(names, {# == "rm"})`, true},
		{`any(commands, any(split(#, " "), # == "--force"))`, true},
		{`any(commands, all(split(#, " "), # != "--force"))`, true},
		{`all(commands, any(split(#, " "), # == "--force"))`, false},
		{`any(names, any(["git"], # == "git") && # == "rm")`, true},
		{`any(names, # == "rm" && any(["git"], # == "git"))`, true},
		{`any(filter(names, # == "rm"), # == "rm")`, true},
		{`any(names, any(names, any(names, any(names, any(names, any(names, # == "rm"))))))`, true},
		{`all(names, all(names, all(names, all(names, all(names, all(names, # == "rm"))))))`, false},
		{`any(names, len(filter(paths, # contains "ssh")) == 1 && # == "rm")`, true},
		// functions
		{`hasPrefix(cwd, workspace)`, true},
		{`hasPrefix(tool, "b")`, false},
		{`hasSuffix(tool, "sh")`, true},
		{`hasSuffix(tool, "S")`, false},
		{`lower(tool) == "bash"`, true},
		{`upper(kind) == "SHELL"`, true},
		{`trim("  a b \n") == "a b"`, true},
		{`trim("--x--", "-") == "x"`, true},
		{`split("a,b,,c", ",") == ["a", "b", "", "c"]`, true},
		{`split("", ",") == [""]`, true},
		{`len(split("héllo", "")) == 5`, true},
		{`join(names, " ") == "git rm"`, true},
		{`join(names) == "gitrm"`, true},
		{`join([], ",") == ""`, true},
		{`(flag ? names : []) == names`, true},
		{`(flag ? 1 : 2) == 1`, true},
		{`(false ? "a" : kind) == "shell"`, true},
		{`flag ? n > 2 : n < 2`, true},
		// short-circuit: the invalid run-time pattern is never compiled
		{`false && tool matches lower("(")`, false},
		{`true || tool matches lower("(")`, true},
		{`flag ? true : tool matches lower("(")`, true},
		{`any(["a", "("], "a" matches #)`, true},
		// layout
		{"tool == \"Bash\"\n&& flag", true},
		{"\t( flag )\r\n", true},
	}
	vars, e := testVars(), testEnv()
	for _, tt := range tests {
		p, err := Compile(tt.src, vars)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.src, err)
			continue
		}
		got, err := p.Eval(e)
		if err != nil {
			t.Errorf("Eval(%q): %v", tt.src, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Eval(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	vars := "agent, command, commands, cwd, flag, hosts, kind, n, names, paths, session, tier, tool, urls, workspace"
	long := func(n int) string { return strings.Repeat("flag || ", n-1) + "flag" }
	tests := []struct{ src, want string }{
		// syntax
		{``, `column 1: expected a value, found end of input`},
		{`   `, `column 4: expected a value, found end of input`},
		{`tool ==`, `column 8: expected a value, found end of input`},
		{`tool = "x"`, `column 6: expected "==" to compare, found "="`},
		{`flag & flag`, `column 6: expected "&&", found "&"`},
		{`flag | flag`, `column 6: expected "||", found "|"`},
		{`(tool == "x"`, `column 13: expected ")" to close the "(" at column 1, found end of input`},
		{`tool == "x")`, `column 12: expected an operator or the end of the expression, found ")"`},
		{`tool == "a" "b"`, `column 13: expected an operator or the end of the expression, found the string "b"`},
		{`flag flag`, `column 6: expected an operator or the end of the expression, found "flag"`},
		{`tool == "abc`, `column 9: expected a closing " to end the string, found end of input`},
		{`tool == 'abc\'`, `column 9: expected a closing ' to end the string, found end of input`},
		{`tool == 'a\d'`, `column 11: expected one of the escapes \" \' \\ \n \t, found \d (write \\ for a backslash)`},
		{`n > 1.5`, `column 5: expected an integer, found "1.5" (only decimal integers are supported)`},
		{`n > 0x10`, `column 5: expected an integer, found "0x10" (only decimal integers are supported)`},
		{`n > 99999999999999999999`, `column 5: expected an integer that fits in 64 bits, found 99999999999999999999`},
		{`tool @ flag`, `column 6: expected a value or an operator, found '@'`},
		{"tool == \xff", `column 9: expected UTF-8 text, found the byte 0xff`},
		{`n > -1`, `column 5: expected a value or an operator, found '-'`},
		{`tool == "a" + "b"`, `column 13: expected a value or an operator, found '+'`},
		{`# == "x"`, `column 1: expected a value, found "#" outside a predicate (# is the current element inside any, all, none, one, count or filter)`},
		{`len(#) > 0`, `column 5: expected a value, found "#" outside a predicate (# is the current element inside any, all, none, one, count or filter)`},
		{`"x" not names`, `column 9: expected in, contains, startsWith, endsWith or matches after "not", found "names"`},
		{`[tool, "a"`, `column 11: expected "," or "]" in the list at column 1, found end of input`},
		{`["a" "b"] == names`, `column 6: expected "," or "]" in the list at column 1, found the string "b"`},
		{`any(names, # == "x"`, `column 20: expected "," or ")" after argument 2 of any, found end of input`},
		{`any(names, {# == "x")`, `column 21: expected "}" to close the "{" at column 12, found ")"`},
		{`flag ? tool`, `column 12: expected ":" of the ternary at column 6, found end of input`},
		{`flag ?: true`, `column 7: expected a value, found ":"`},
		{`in names`, `column 1: expected a value, found the operator "in"`},
		{`tool == and`, `column 9: expected a value, found the operator "and"`},
		{`{flag}`, `column 1: expected a value, found "{"`},
		// names
		{`nmes == []`, `column 1: unknown variable "nmes": expected one of ` + vars + ` (did you mean names?)`},
		{`Tool == "x"`, `column 1: unknown variable "Tool": expected one of ` + vars + ` (did you mean tool?)`},
		{`nil`, `column 1: unknown variable "nil": expected one of ` + vars},
		{`foo(tool)`, `column 1: unknown function "foo": expected one of all, any, count, filter, hasPrefix, hasSuffix, join, len, lower, none, one, split, trim, upper`},
		{`names.size() > 0`, `column 6: expected a value or an operator, found '.'`},
		// arity and argument types
		{`len(tool, tool) > 0`, `column 1: expected len(string or list), found 2 arguments`},
		{`len() > 0`, `column 1: expected len(string or list), found 0 arguments`},
		{`any(names)`, `column 1: expected any(list, predicate), found 1 argument`},
		{`trim(tool, " ", " ") == ""`, `column 1: expected trim(string) or trim(string, cutset), found 3 arguments`},
		{`len(flag) > 0`, `column 5: expected string or []string as the argument of len, found bool`},
		{`any(tool, true)`, `column 5: expected []string as argument 1 of any(list, predicate), found string`},
		{`any(names, #)`, `column 12: expected a bool predicate in any(list, predicate), found string`},
		{`count(names, len(#)) > 0`, `column 14: expected a bool predicate in count(list, predicate), found int`},
		{`lower(names) == ""`, `column 7: expected string as argument 1 of lower(string), found []string`},
		{`hasPrefix(tool, n)`, `column 17: expected string as argument 2 of hasPrefix(string, string), found int`},
		{`join(names, names) == ""`, `column 13: expected string as argument 2 of join(list) or join(list, separator), found []string`},
		// operator types
		{`tool`, `column 1: expected a bool result, found string`},
		{`len(names)`, `column 1: expected a bool result, found int`},
		{`(names)`, `column 1: expected a bool result, found []string`},
		{`tool && flag`, `column 1: expected bool on the left of &&, found string`},
		{`flag || n`, `column 9: expected bool on the right of ||, found int`},
		{`flag and (tool)`, `column 10: expected bool on the right of &&, found string`},
		{`tool == n`, `column 9: expected string on the right of == to match the left, found int`},
		{`names != tool`, `column 10: expected []string on the right of != to match the left, found string`},
		{`"é" == n`, `column 8: expected string on the right of == to match the left, found int`},
		{`flag < true`, `column 1: expected int or string on the left of <, found bool`},
		{`n >= tool`, `column 6: expected int on the right of >= to match the left, found string`},
		{`names in names`, `column 1: expected string on the left of in, found []string`},
		{`"a" in tool`, `column 8: expected []string on the right of in, found string (use contains for a substring)`},
		{`"a" not in n`, `column 12: expected []string on the right of not in, found int`},
		{`names contains "a"`, `column 1: expected string on the left of contains, found []string (use in for an element of a list)`},
		{`tool startsWith n`, `column 17: expected string on the right of startsWith, found int`},
		{`tool not startsWith n`, `column 21: expected string on the right of not startsWith, found int`},
		{`n endsWith "3"`, `column 1: expected string on the left of endsWith, found int`},
		{`tool matches "("`, "column 14: expected an RE2 regular expression, found \"(\": missing closing ): `(`"},
		{`tool matches "a**"`, "column 14: expected an RE2 regular expression, found \"a**\": invalid nested repetition operator: `**`"},
		{`tool matches names`, `column 14: expected string on the right of matches, found []string`},
		{`!tool`, `column 1: expected bool after "!", found string`},
		{`!tool == "x"`, `column 1: expected bool after "!", found string (! applies before ==: write !(a == b))`},
		{`not "rm" in names`, `column 1: expected bool after "not", found string (not applies before in: write not (a in b))`},
		{`!n < 2`, `column 1: expected bool after "!", found int (! applies before <: write !(a < b))`},
		{`(!tool) == "x"`, `column 2: expected bool after "!", found string`},
		{`n ? true : false`, `column 1: expected bool before ?, found int`},
		{`flag ? tool : n`, `column 15: expected string after : to match the branch before it, found int`},
		{`[tool, n] == names`, `column 8: expected string in the list, found int`},
		{`[[tool]] == names`, `column 2: expected string in the list, found []string`},
		// lines
		{"flag &&\n  nmes", `line 2, column 3: unknown variable "nmes": expected one of ` + vars + ` (did you mean names?)`},
		{"flag\n&& tool ==", `line 2, column 11: expected a value, found end of input`},
		// bounds
		{strings.Repeat("(", MaxDepth+1) + "flag" + strings.Repeat(")", MaxDepth+1), `column 65: expression nested too deeply: expected at most 64 levels`},
		{strings.Repeat("!", MaxDepth+1) + "flag", `column 65: expression nested too deeply: expected at most 64 levels`},
		{strings.Repeat("len([", 33) + strings.Repeat("])", 33), `column 164: expression nested too deeply: expected at most 64 levels`},
		{long(1001), `column 7998: expression too large: expected at most 2000 nodes`},
	}
	v := testVars()
	for _, tt := range tests {
		p, err := Compile(tt.src, v)
		if err == nil {
			t.Errorf("Compile(%q) = %v, want an error", tt.src, p)
			continue
		}
		var cerr *Error
		if !errors.As(err, &cerr) {
			t.Errorf("Compile(%q) error %T is not an *Error", tt.src, err)
		}
		if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
			t.Errorf("Compile(%q) error (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestErrorPosition(t *testing.T) {
	_, err := Compile("flag &&\n\tnmes", testVars())
	var got *Error
	if !errors.As(err, &got) {
		t.Fatalf("error %v is not an *Error", err)
	}
	want := &Error{Line: 2, Column: 2, Msg: `unknown variable "nmes": expected one of agent, command, commands, cwd, flag, hosts, kind, n, names, paths, session, tier, tool, urls, workspace (did you mean names?)`, multi: true}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(Error{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestBounds(t *testing.T) {
	v := testVars()
	long := strings.Repeat("flag || ", 999) + "flag" // 1999 nodes
	deep := strings.Repeat("(", MaxDepth) + "flag" + strings.Repeat(")", MaxDepth)
	nots := strings.Repeat("!", MaxDepth) + "flag"
	exact := strings.Repeat("flag || ", 999) + "!flag" // 2000 nodes
	for _, src := range []string{long, deep, nots, exact} {
		p, err := Compile(src, v)
		if err != nil {
			t.Errorf("Compile(%.20q…): %v", src, err)
			continue
		}
		got, err := p.Eval(testEnv())
		if diff := cmp.Diff(true, got); diff != "" || err != nil {
			t.Errorf("Eval(%.20q…) = %v, %v", src, got, err)
		}
	}
}

// TestChainLinear guards against comparison chains sharing an operand:
// nested chains must compile and evaluate in linear time, not 2^depth.
func TestChainLinear(t *testing.T) {
	level := "n"
	for range MaxDepth/2 - 1 {
		level = "(n < " + level + " < n ? 1 : 2)"
	}
	p, err := Compile("1 < "+level+" < n", testVars())
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Eval(testEnv())
	if !got || err != nil {
		t.Errorf("Eval = %v, %v; want true", got, err)
	}
}

func TestEvalErrors(t *testing.T) {
	v := testVars()
	quadratic := `any(split(command, ""), any(split(command, ""), false))`
	stringWork := `any(split(command, ""), lower(command) == #)`
	containsWork := `any(split(command, ""), command contains "y")`
	regexpWork := `any(split(command, ""), command matches "y$")`
	tests := []struct {
		src  string
		env  Env
		want string
	}{
		{`tool == "x"`, env{"tool": 3}, `condition: variable "tool" is declared string but its value is int`},
		{`tool == "x"`, env{}, `condition: variable "tool" is declared string but its value is <nil>`},
		{`"a" in names`, env{"names": []any{"a"}}, `condition: variable "names" is declared []string but its value is []interface {}`},
		{`n > 1`, env{"n": int64(2)}, `condition: variable "n" is declared int but its value is int64`},
		{`flag`, env{"flag": "true"}, `condition: variable "flag" is declared bool but its value is string`},
		{`tool matches lower("(")`, testEnv(), "condition: invalid regular expression \"(\": error parsing regexp: missing closing ): `(`"},
		{quadratic, env{"command": strings.Repeat("x", 2000)}, `condition: ` + strconv.Quote(quadratic) + `: evaluation stopped after 1048576 steps`},
		{containsWork, env{"command": strings.Repeat("x", 100_000)}, `condition: ` + strconv.Quote(containsWork) + `: evaluation stopped after 1048576 steps`},
		{stringWork, env{"command": strings.Repeat("x", 100_000)}, `condition: ` + strconv.Quote(stringWork) + `: evaluation stopped after 1048576 steps`},
		{regexpWork, env{"command": strings.Repeat("x", 100_000)}, `condition: ` + strconv.Quote(regexpWork) + `: evaluation stopped after 1048576 steps`},
		{`tool == "x"`, nil, `condition: "tool == \"x\"" reads variables but Eval was given no Env`},
		{`tool == "x"`, panicEnv{}, `condition: "tool == \"x\"": evaluation failed: boom`},
	}
	for _, tt := range tests {
		p, err := Compile(tt.src, v)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.src, err)
			continue
		}
		got, err := p.Eval(tt.env)
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		if got {
			t.Errorf("Eval(%q) = true with error %q; want false", tt.src, msg)
		}
		if diff := cmp.Diff(tt.want, msg); diff != "" {
			t.Errorf("Eval(%q) error (-want +got):\n%s", tt.src, diff)
		}
	}
	var nilProg *Program
	if _, err := nilProg.Eval(env{}); err == nil || err.Error() != "condition: Eval of a nil Program" {
		t.Errorf("nil Program: %v", err)
	}
}

type panicEnv struct{}

func (panicEnv) Lookup(string) any { panic("boom") }

func TestCompileDeclarations(t *testing.T) {
	tests := []struct {
		vars map[string]Type
		want string
	}{
		{map[string]Type{"in": String}, `condition: invalid variable name "in"`},
		{map[string]Type{"true": Bool}, `condition: invalid variable name "true"`},
		{map[string]Type{"a-b": String}, `condition: invalid variable name "a-b"`},
		{map[string]Type{"1a": String}, `condition: invalid variable name "1a"`},
		{map[string]Type{"": String}, `condition: invalid variable name ""`},
		{map[string]Type{"x": 0}, `condition: variable "x" has an invalid type 0`},
		{map[string]Type{"x": StringList + 1}, `condition: variable "x" has an invalid type 5`},
	}
	for _, tt := range tests {
		_, err := Compile("true", tt.vars)
		if diff := cmp.Diff(tt.want, fmt.Sprint(err)); diff != "" {
			t.Errorf("Compile with %v (-want +got):\n%s", tt.vars, diff)
		}
	}
	if _, err := Compile("x", nil); fmt.Sprint(err) != `column 1: unknown variable "x": no variables are declared` {
		t.Errorf("no variables: %v", err)
	}
	p, err := Compile("a1 && $b && _c", map[string]Type{"a1": Bool, "$b": Bool, "_c": Bool})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := p.Eval(env{"a1": true, "$b": true, "_c": true}); !got || err != nil {
		t.Errorf("Eval = %v, %v", got, err)
	}
}

func TestTypeString(t *testing.T) {
	got := []string{Bool.String(), Int.String(), String.String(), StringList.String(), Type(9).String()}
	want := []string{"bool", "int", "string", "[]string", "Type(9)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// countingEnv records the lookups Eval makes.
type countingEnv struct {
	env
	calls []string
}

func (c *countingEnv) Lookup(name string) any {
	c.calls = append(c.calls, name)
	return c.env[name]
}

func TestLookupOnce(t *testing.T) {
	p, err := Compile(`any(paths, # startsWith cwd) && any(paths, hasPrefix(#, cwd)) && tool != "" && (false && agent == "")`, testVars())
	if err != nil {
		t.Fatal(err)
	}
	e := &countingEnv{env: testEnv()}
	got, err := p.Eval(e)
	if err != nil || got {
		t.Fatalf("Eval = %v, %v", got, err)
	}
	if diff := cmp.Diff([]string{"paths", "cwd", "tool"}, e.calls); diff != "" {
		t.Errorf("lookups (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("any(paths, # startsWith cwd) && any(paths, hasPrefix(#, cwd)) && tool != \"\" && (false && agent == \"\")", p.String()); diff != "" {
		t.Errorf("String (-want +got):\n%s", diff)
	}
}

func TestConcurrentEval(t *testing.T) {
	p, err := Compile(`any(commands, any(split(#, " "), # == "--force")) && tool matches lower("^B")`, testVars())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	for range 8 {
		go func() {
			ok := true
			for range 200 {
				got, err := p.Eval(testEnv())
				ok = ok && !got && err == nil // "^b" does not match "Bash"
			}
			done <- ok
		}()
	}
	for range 8 {
		if !<-done {
			t.Error("concurrent Eval gave a wrong result")
		}
	}
}

func TestAllocs(t *testing.T) {
	p, err := Compile(`"terraform" in names || any(paths, # startsWith cwd) && tool matches "^B"`, testVars())
	if err != nil {
		t.Fatal(err)
	}
	e := testEnv() // values are boxed once, here
	allocs := testing.AllocsPerRun(100, func() {
		if ok, err := p.Eval(e); !ok || err != nil {
			t.Fatal(ok, err)
		}
	})
	if allocs > 1 {
		t.Errorf("Eval allocates %v times, want at most 1 (the evaluation state)", allocs)
	}
}

func BenchmarkEval(b *testing.B) {
	p, err := Compile(`"terraform" in names || any(commands, # contains "--context=prod") || any(paths, hasPrefix(#, "/etc"))`, testVars())
	if err != nil {
		b.Fatal(err)
	}
	e := testEnv()
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := p.Eval(e); ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	v := testVars()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(`"rm" in names && any(paths, hasPrefix(#, "/srv")) && command matches "--force\\b"`, v); err != nil {
			b.Fatal(err)
		}
	}
}
