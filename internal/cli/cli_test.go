package cli

import (
	"bytes"
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// runRoot runs args through a root built with the named commands.
func runRoot(names, args []string) (stdout, stderr string, code int) {
	var out, errOut bytes.Buffer
	a := &app{ctx: context.Background(), io: IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}}
	root := newRoot(a, names)
	root.SetArgs(args)
	code = exitCode(root.ExecuteContext(a.ctx), a.io.Stderr)
	return out.String(), errOut.String(), code
}

func allCommands() []string {
	var names []string
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func TestCommandsFor(t *testing.T) {
	all := allCommands()
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"a registered command alone", []string{"hook", "claude-code", "--defer-allow"}, []string{"hook"}},
		{"no arguments", nil, all},
		{"help command", []string{"help", "hook"}, all},
		{"root flag first", []string{"--help"}, all},
		{"misspelt command", []string{"hok", "claude-code"}, all},
		{"cobra completion", []string{"__complete", "ho"}, all},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, commandsFor(tt.args)); diff != "" {
				t.Errorf("commandsFor(%q) (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

// TestFastPathHelpIsUnchanged checks that building only the named command
// changes nothing a person sees: every command's help, and its answer to a
// bad flag, are the same as with the whole command tree.
func TestFastPathHelpIsUnchanged(t *testing.T) {
	for _, name := range allCommands() {
		for _, args := range [][]string{{name, "--help"}, {name, "--no-such-flag"}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				wantOut, wantErr, wantCode := runRoot(allCommands(), args)
				gotOut, gotErr, gotCode := runRoot(commandsFor(args), args)
				if diff := cmp.Diff(wantOut, gotOut); diff != "" {
					t.Errorf("stdout (-whole tree +fast path):\n%s", diff)
				}
				if diff := cmp.Diff(wantErr, gotErr); diff != "" {
					t.Errorf("stderr (-whole tree +fast path):\n%s", diff)
				}
				if gotCode != wantCode {
					t.Errorf("exit code %d, whole tree %d", gotCode, wantCode)
				}
			})
		}
	}
}

func TestMisspeltCommandIsStillSuggested(t *testing.T) {
	_, stderr, code := runRoot(commandsFor([]string{"hok"}), []string{"hok"})
	want := "toolguard: unknown command \"hok\" for \"toolguard\"\n\nDid you mean this?\n\thook\n\n"
	if diff := cmp.Diff(want, stderr); diff != "" || code != ExitError {
		t.Errorf("exit code %d (want %d), stderr (-want +got):\n%s", code, ExitError, diff)
	}
}

// BenchmarkNewRoot measures building the command tree, which every process
// pays before it runs a command.
func BenchmarkNewRoot(b *testing.B) {
	a := &app{ctx: context.Background(), io: Stdio()}
	for _, bc := range []struct {
		name  string
		names []string
	}{{"every command", allCommands()}, {"hook only", []string{"hook"}}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				newRoot(a, bc.names)
			}
		})
	}
}
