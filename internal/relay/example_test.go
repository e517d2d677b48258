package relay_test

import (
	"bytes"
	"fmt"

	"github.com/toolguard/toolguard/internal/relay"
)

// The launcher writes the hook command and its input; the daemon reads it,
// runs the command and writes back what it printed and its exit code.
func Example() {
	var wire bytes.Buffer
	_ = relay.WriteRequest(&wire, relay.Request{Args: []string{"hook", "claude-code"}, Stdin: []byte(`{"tool_name":"Bash"}`)})
	req, err := relay.ReadRequest(&wire)
	fmt.Printf("%q %s %v\n", req.Args, req.Stdin, err)

	_ = relay.WriteResponse(&wire, relay.Response{Code: 2, Stderr: []byte("toolguard: blocked")})
	resp, err := relay.ReadResponse(&wire)
	fmt.Printf("%d %q %s %v\n", resp.Code, resp.Stdout, resp.Stderr, err)
	// Output:
	// ["hook" "claude-code"] {"tool_name":"Bash"} <nil>
	// 2 "" toolguard: blocked <nil>
}
