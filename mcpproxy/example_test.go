package mcpproxy_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolguard/toolguard/mcpproxy"
	"github.com/toolguard/toolguard/policy"
)

// Run puts an MCP server behind the policy. Here the server is the test
// binary itself (it serves MCP when TOOLGUARD_MCPPROXY_TESTSERVER=1) and
// the client is the Go SDK's, connected through pipes; in toolguard mcp
// they are the child process and the proxy's stdin and stdout.
func ExampleRun() {
	p, _ := policy.Compile(&policy.Config{Settings: policy.Settings{
		Tools: policy.Tools{AutoApprove: []string{"mcp__demo__echo"}},
	}}, policy.Options{})
	clientIn, proxyOut := io.Pipe()
	proxyIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- mcpproxy.Run(context.Background(), mcpproxy.Options{
			Command: []string{os.Args[0]}, Env: append(os.Environ(), "TOOLGUARD_MCPPROXY_TESTSERVER=1"),
			Name: "demo", Policy: p, In: proxyIn, Out: proxyOut, Stderr: io.Discard,
		})
		proxyOut.Close()
	}()

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, args := range []map[string]any{{"text": "hello"}, {"url": "http://169.254.169.254/latest/meta-data/"}} {
		tool := "echo"
		if args["url"] != nil {
			tool = "fetch"
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			fmt.Println(err)
			continue
		}
		text, _, _ := strings.Cut(res.Content[0].(*mcp.TextContent).Text, ": ")
		fmt.Printf("%s: isError=%v %s\n", tool, res.IsError, text)
	}
	cs.Close()
	fmt.Println("proxy:", <-done)
	// Output:
	// echo: isError=false hello
	// fetch: isError=true Blocked by toolguard (rule netguard.metadata)
	// proxy: <nil>
}

// ServerName derives the name in mcp__NAME__tool from the command line.
func ExampleServerName() {
	fmt.Println(mcpproxy.ServerName([]string{"npx", "-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/srv"}))
	fmt.Println(mcpproxy.ServerName([]string{"uvx", "mcp-server-git", "--repository", "."}))
	fmt.Println(mcpproxy.ServerName([]string{"/usr/local/bin/my.server"}))
	// Output:
	// server-filesystem
	// mcp-server-git
	// my_server
}
