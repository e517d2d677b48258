package shell_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/shell"
)

func ExampleToolguardOptions() {
	script, err := shell.Parse(`toolguard exec --mode=full --read-only -- make test`, shell.Options{Home: "/home/me"})
	if err != nil {
		fmt.Println("cannot parse:", err)
		return
	}
	for _, c := range script.Commands {
		verb, opts := shell.ToolguardOptions(c.Argv)
		fmt.Printf("%q verb=%q", c.Values(), verb)
		for _, o := range opts {
			fmt.Printf(" %s=%q(%v)", o.Name, o.Value.Value, o.Valued)
		}
		fmt.Println()
	}
	// Output:
	// ["toolguard" "exec" "--mode=full" "--read-only"] verb="exec" mode="full"(true) read-only=""(false)
	// ["make" "test"] verb=""
}

// TestToolguardOptions: the options of toolguard's part of exec and mcp
// command lines, as recorded by the shell analysis.
func TestToolguardOptions(t *testing.T) {
	type opt struct {
		Name, Value string
		Valued      bool
	}
	tests := []struct {
		src      string
		wantVerb string
		want     []opt
	}{
		{"toolguard exec --config /tmp/p.toml --no-user-config -- ls", "exec",
			[]opt{{"config", "/tmp/p.toml", true}, {"no-user-config", "", false}}},
		{"/opt/bin/toolguard mcp --name fs --ask=serve node s.js", "mcp", []opt{{"name", "fs", true}, {"ask", "serve", true}}},
		{"toolguard exec --wrapped --workspace /w -- bash -c 'make'", "exec", []opt{{"wrapped", "", false}, {"workspace", "/w", true}}},
		{"toolguard exec --restrict-to-cwd=false -- ls", "exec", []opt{{"restrict-to-cwd", "false", true}}},
		{"toolguard check -- ls", "", nil},
		{"toolguard version", "", nil},
	}
	for _, tt := range tests {
		s, err := shell.Parse(tt.src, shell.Options{Home: "/home/me"})
		if err != nil {
			t.Fatal(err)
		}
		verb, opts := shell.ToolguardOptions(s.Commands[0].Argv)
		var got []opt
		for _, o := range opts {
			got = append(got, opt{o.Name, o.Value.Value, o.Valued})
		}
		if verb != tt.wantVerb {
			t.Errorf("%s: verb %q, want %q", tt.src, verb, tt.wantVerb)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.src, diff)
		}
	}
}

// FuzzToolguardOptions: whatever the command line, no panic; the verb is
// exec, mcp or none, and options are found only with a verb.
func FuzzToolguardOptions(f *testing.F) {
	f.Add("toolguard exec --mode=full -- ls")
	f.Add("toolguard mcp --name fs --ask serve node s.js")
	f.Add("TOOLGUARD_CONFIG=x toolguard exec --config")
	f.Add("toolguard exec --restrict-to-cwd=false --cwd")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := shell.Parse(src, shell.Options{Home: "/home/me"})
		if err != nil {
			return
		}
		for _, c := range s.Commands {
			verb, opts := shell.ToolguardOptions(c.Argv)
			if verb != "" && verb != "exec" && verb != "mcp" || verb == "" && len(opts) > 0 {
				t.Fatalf("%q: verb %q with %d options", src, verb, len(opts))
			}
		}
	})
}
