package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Lines that name a command are built without cobra's completion command
// (it cost a fifth of a relayed hook call); completion itself still works.
func TestCompletionStillWorks(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), []string{"completion", shell}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		if code != 0 || !strings.Contains(out.String(), "toolguard") {
			t.Errorf("completion %s: exit %d, %d bytes out, stderr %q", shell, code, out.Len(), errb.String())
		}
	}
	a := &app{io: IO{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}}
	if !newRoot(a, commandsFor([]string{"hook", "claude-code"})).CompletionOptions.DisableDefaultCmd {
		t.Error("a hook line builds cobra's completion command")
	}
}
