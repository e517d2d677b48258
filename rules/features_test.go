package rules

import (
	"testing"

	"github.com/toolguard/toolguard/shell"
)

// featuresByTrigger is features as it was written before: hasTrigger of
// each trigger in turn.
func featuresByTrigger(cmd *shell.Command, known bool) uint32 {
	var f uint32
	for i, t := range triggers {
		if hasTrigger(t, cmd, known) {
			f |= 1 << i
		}
	}
	return f
}

// TestFeaturesAsHasTrigger: features gives, for every command of a set of
// command lines (inline code, redirects, assignments, pipes, flags, sudo,
// ssh, cd, an unknown program name) and for each of them with every field
// a trigger reads set and cleared alone, known and not, the bits hasTrigger
// gives; and every trigger's bit is set for some command and clear for
// another, so a trigger features would treat as always there fails.
func TestFeaturesAsHasTrigger(t *testing.T) {
	var cmds []*shell.Command
	for _, line := range []string{
		`ls`, `ls -la /tmp`, `python3 -c 'print(1)'`, `echo hi > out.txt`, `FOO=1 make`, `cat a | grep -v b`,
		`sudo rm -rf /x`, `ssh host rm -rf /x`, `cd /tmp && git status`, `$CMD --help`, `"$x" a`, `go build -o bin/t ./cmd/t`,
		`sort < in.txt`, `find . -name '*.go' -exec rm {} +`, `bash -c 'echo a' & wait`,
	} {
		s, err := shell.Parse(line, shell.Options{})
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		cmds = append(cmds, s.Commands...)
	}
	var variants []*shell.Command
	other := &shell.Command{Name: "x"}
	for _, c := range cmds {
		for _, change := range []func(c *shell.Command){
			func(c *shell.Command) {},
			func(c *shell.Command) { c.Inline = nil },
			func(c *shell.Command) { c.Inline = &shell.Inline{Lang: "python", Code: "1"} },
			func(c *shell.Command) { c.Redirects = nil },
			func(c *shell.Command) { c.Assigns = nil },
			func(c *shell.Command) { c.PipeTo, c.PipeFrom = nil, nil },
			func(c *shell.Command) { c.PipeTo, c.PipeFrom = other, other },
			func(c *shell.Command) { c.Origin = "" },
			func(c *shell.Command) { c.Origin = "bash -c" },
			func(c *shell.Command) { c.Privileged = !c.Privileged },
			func(c *shell.Command) { c.Remote = "" },
			func(c *shell.Command) { c.Remote = "host" },
			func(c *shell.Command) { c.Dir = shell.Word{} },
			func(c *shell.Command) { c.Dir = shell.Word{Value: "/d", Known: true} },
			func(c *shell.Command) { c.Argv = nil },
		} {
			v := *c
			change(&v)
			variants = append(variants, &v)
		}
	}
	var seenSet, seenClear uint32
	for _, c := range variants {
		for _, known := range []bool{true, false} {
			want := featuresByTrigger(c, known)
			if got := features(c, known); got != want {
				t.Errorf("features(%s %v, known %v) = %b, hasTrigger gives %b", c.Name, c.Args(), known, got, want)
			}
			seenSet |= want
			seenClear |= ^want
		}
	}
	all := uint32(1)<<len(triggers) - 1
	if seenSet&all != all || seenClear&all != all {
		t.Errorf("bits set for some command %b, clear for some %b: want every trigger both ways", seenSet, seenClear)
	}
}
