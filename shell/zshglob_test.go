package shell

import "testing"

func TestZshQualifiers(t *testing.T) {
	cases := map[string]string{
		`rm -rf -- ~/*(D)`:             `rm -rf -- ~/*`,
		`print -l src/**/*.ts(.N) | x`: `print -l src/**/*.ts | x`,
		`ls *(/om[1,3])`:               `ls *`,
		`ls *(e:'rm -rf ~':)`:          `ls *(e:'rm -rf ~':)`, // runs code: kept
		`ls x/*(:h)`:                   `ls x/*(:h)`,          // rewrites names: kept
		`f() { ls; }`:                  `f() { ls; }`,
		`echo '*(D)'`:                  `echo '*(D)'`,
		`ls $(echo *)(D)`:              `ls $(echo *)(D)`,
	}
	for in, want := range cases {
		if got := zshQualifiers(in); got != want {
			t.Errorf("zshQualifiers(%q) = %q, want %q", in, got, want)
		}
	}
}
