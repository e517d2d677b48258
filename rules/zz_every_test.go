package rules

import (
	"bufio"
	"os"
	"testing"

	"github.com/toolguard/toolguard/shell"
)

func TestZZEveryday(t *testing.T) {
	f := os.Getenv("RULES_EVERYDAY")
	if f == "" {
		t.Skip()
	}
	s := builtin(t)
	in, _ := os.Open(f)
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		text := sc.Text()
		script, _ := shell.Parse(text, shell.Options{Home: "/home/user"})
		flagged := corpusFlagged(s, text)
		j := judgeCommands(s, script.Commands)
		t.Logf("%v %s %v %s", flagged, j.Tier, j.IDs, text)
		if flagged {
			t.Logf("FLAG %-60s %v problems=%v", text, j.IDs, script.Problems)
		}
	}
}
