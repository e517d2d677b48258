package analysis

import "testing"

// TestApplySed: the sed programs modelled give the text GNU sed gives;
// the others are not modelled (ok false).
func TestApplySed(t *testing.T) {
	const text = "#!/bin/sh\nOUT=./build\nrm -rf \"$OUT\"\n"
	tests := []struct {
		prog string
		ere  bool
		want string
		ok   bool
	}{
		{`s|^OUT=.*|OUT=$HOME|`, false, "#!/bin/sh\nOUT=$HOME\nrm -rf \"$OUT\"\n", true},
		{`s/^OUT=\(.*\)/OUT=\1\/x/`, false, "#!/bin/sh\nOUT=./build/x\nrm -rf \"$OUT\"\n", true},
		{`s/^(OUT)=.*/\1=~/`, true, "#!/bin/sh\nOUT=~\nrm -rf \"$OUT\"\n", true},
		{`s/(OUT)/x/`, false, text, true}, // BRE: ( is itself, and there is none
		{`s/r/R/g`, false, "#!/bin/sh\nOUT=./build\nRm -Rf \"$OUT\"\n", true},
		{`s/r/R/2`, false, "#!/bin/sh\nOUT=./build\nrm -Rf \"$OUT\"\n", true},
		{`s/o/0/I`, false, "#!/bin/sh\n0UT=./build\nrm -rf \"$0UT\"\n", true},
		{`s/build/& &/;s/\./[&]/`, false, "#!/bin/sh\nOUT=[.]/build build\nrm -rf \"$OUT\"\n", true},
		{`s|a\|b|x|`, false, text, true}, // \| with | as the delimiter is a literal |
		{`s/[[:upper:]]\{3\}/V/`, false, "#!/bin/sh\nV=./build\nrm -rf \"$V\"\n", true},
		{"2c\\\nOUT=/", false, "#!/bin/sh\nOUT=/\nrm -rf \"$OUT\"\n", true},
		{"$a echo done", false, text + "echo done\n", true},
		{"/^OUT/i set -e", false, "#!/bin/sh\nset -e\nOUT=./build\nrm -rf \"$OUT\"\n", true},
		{"1d; 3 d", false, "OUT=./build\n", true},
		{"/^rm/s/-rf/-f/", false, "#!/bin/sh\nOUT=./build\nrm -f \"$OUT\"\n", true},
		// not modelled
		{"1!G;h;$!d", false, "", false},
		{"y/abc/xyz/", false, "", false},
		{"s/x/y/w out", false, "", false},
		{"s/x/y/e", false, "", false},
		{`s/\(a\)\1/b/`, false, "", false},
		{`s/a/\U&/`, false, "", false},
		{"s/a/b", false, "", false},
		{"", false, "", false},
	}
	for _, tt := range tests {
		cmds, ok := parseSed(tt.prog, tt.ere)
		got := ""
		if ok {
			got = applySed(cmds, text)
		}
		if got != tt.want || ok != tt.ok {
			t.Errorf("sed %q: got %q, %v; want %q, %v", tt.prog, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzApplySed: any program is parsed, and applied when modelled, without
// a panic.
func FuzzApplySed(f *testing.F) {
	f.Add(`s|^OUT=.*|OUT=$HOME|g`, false, "OUT=1\nrm -rf \"$OUT\"\n")
	f.Add("2c\\\nx\n$a y", true, "a\nb")
	f.Add(`/[[:alpha:]]\{2\}/s/\(a\)/\1&\n/2`, false, "aa\n")
	f.Fuzz(func(t *testing.T, prog string, ere bool, text string) {
		if cmds, ok := parseSed(prog, ere); ok {
			applySed(cmds, text)
		}
	})
}
