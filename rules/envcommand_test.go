package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/shell"
)

func TestWithoutEnvName(t *testing.T) {
	for _, tc := range []struct {
		word  string
		known bool
		want  string
	}{
		{"test:pytest", true, "pytest"},
		{"py3.12-dev:rm", true, "rm"},
		{"docs_build:mkdocs", true, "mkdocs"},
		{"pytest", true, "pytest"},
		{":rm", true, ":rm"},       // no environment named
		{"test:", true, "test:"},   // no command
		{"a/b:rm", true, "a/b:rm"}, // a path, not an environment
		{"$E:rm", false, "$E:rm"},  // not known when judged
		{"test:bash:x", true, "bash:x"},
	} {
		got := withoutEnvName(shell.Word{Value: tc.word, Known: tc.known})
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("withoutEnvName(%q) (-want +got):\n%s", tc.word, diff)
		}
	}
}

func TestSwitchedOff(t *testing.T) {
	for _, tc := range []struct {
		words []string
		known []bool // nil: all known
		want  bool
	}{
		{[]string{"npm", "publish", "--dry-run"}, nil, false},
		{[]string{"npm", "publish", "--dry-run=false"}, nil, true},
		{[]string{"npm", "publish", "--dry-run=FALSE"}, nil, true},
		{[]string{"npm", "publish", "--dry-run=0"}, nil, true},
		{[]string{"npm", "publish", "--dry-run=off"}, nil, true},
		{[]string{"npm", "publish", "--dry-run=true"}, nil, false},
		{[]string{"npm", "publish", "--dry-run=$D"}, []bool{true, true, false}, true},
		{[]string{"npm", "publish", "--dry-run", "false"}, nil, true},
		{[]string{"npm", "publish", "--dry-run", "true"}, nil, false},
		{[]string{"npm", "publish", "--dry-run", "$D"}, []bool{true, true, true, false}, false},
		{[]string{"rsync", "-n", "false", "host:"}, nil, false}, // a short option: the word is an operand
	} {
		argv := make([]shell.Word, len(tc.words))
		for i, w := range tc.words {
			argv[i] = shell.Word{Value: w, Known: tc.known == nil || tc.known[i]}
		}
		a := parseArgs(&shell.Command{Name: tc.words[0], Argv: argv}, &grammar{})
		if len(a.flags) != 1 {
			t.Fatalf("%v: flags %v", tc.words, a.flags)
		}
		if got := switchedOff(a.flags[0], argv); got != tc.want {
			t.Errorf("switchedOff(%v) = %v, want %v", tc.words, got, tc.want)
		}
	}
}
