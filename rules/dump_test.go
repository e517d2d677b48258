package rules

import (
	"bufio"
	"os"
	"testing"
)

func TestDumpCases(t *testing.T) {
	f := os.Getenv("RULES_DUMP")
	if f == "" {
		t.Skip("set RULES_DUMP to a file of commands")
	}
	s, _ := Builtin()
	in, _ := os.Open(f)
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		j := judge(t, s, sc.Text())
		if os.Getenv("RULES_DUMP_GO") != "" {
			t.Logf("GO {%q, risk.%s, risk.Blast%s, %#v},", sc.Text(), capital(j.Tier.String()), capital(j.Blast.String()), j.IDs)
			continue
		}
		t.Logf("%-50s %-12s %-9s %v", sc.Text(), j.Tier, j.Blast, j.IDs)
	}
}

func capital(s string) string { return string(s[0]-32) + s[1:] }
