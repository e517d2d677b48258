package call_test

import (
	"fmt"

	"github.com/toolguard/toolguard/call"
)

func ExampleDecodeLiteral() {
	for _, lit := range []string{"bWFrZSB0ZXN0", "676f2076657420", "make test"} {
		text, ok := call.DecodeLiteral(lit)
		fmt.Printf("%q %q %v\n", lit, text, ok)
	}
	// Output:
	// "bWFrZSB0ZXN0" "make test" true
	// "676f2076657420" "go vet " true
	// "make test" "" false
}

// An unknown MCP tool that takes its program and arguments apart: the call's
// command is what they run.
func ExampleTable_Normalize_code() {
	c, err := call.Default().Normalize(call.Request{Tool: "mcp__ci__job", Cwd: "/w",
		Input: map[string]any{"cmd": "bash", "args": []any{"-c", "go vet ./..."}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Kind, c.Command)
	// Output:
	// mcp bash -c 'go vet ./...'
}

// With the programs toolguard knows, a string of an unknown tool that reads
// as a command of one of them is the call's command.
func ExampleTable_WithPrograms() {
	known := func(name string) bool { return name == "rm" }
	t := call.Default().WithPrograms(known)
	c, err := t.Normalize(call.Request{Tool: "mcp__notes__add", Cwd: "/w",
		Input: map[string]any{"title": "fix the rm bug", "body": "rm -rf ./build"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q %v\n", c.Command, t.Programs() != nil)
	// Output:
	// "rm -rf ./build" true
}
