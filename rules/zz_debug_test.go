package rules

import (
	"os"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/shell"
)

func TestZZDebug(t *testing.T) {
	cmds := os.Getenv("RULES_DEBUG")
	if cmds == "" {
		t.Skip()
	}
	s := builtin(t)
	for _, c := range strings.Split(cmds, "|||") {
		sc, err := shell.Parse(c, shell.Options{Home: corpusHome})
		t.Logf("%q err=%v problems=%v", c, err, sc.Problems)
		for _, cmd := range sc.Commands {
			r := s.Classify(cmd)
			var ids []string
			for _, f := range r.Findings {
				ids = append(ids, f.Rule)
			}
			in := ""
			if cmd.Inline != nil {
				in = cmd.Inline.Lang + ":" + cmd.Inline.Code
			}
			t.Logf("   %s argv=%q origin=%s dir=%q inline=%q tier=%s ids=%v", cmd.Name, cmd.Values(), cmd.Origin, cmd.Dir.Value, in, r.Tier, ids)
		}
	}
}
