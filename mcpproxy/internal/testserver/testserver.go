// Package testserver is a small MCP server built with the official Go SDK
// for the proxy's deterministic tests. Its tools never touch the network
// or the disk: fetch only echoes the URL it would fetch, crash exits the
// process in the middle of a call, slow waits until it is cancelled, and
// ask_user sends its own elicitation request to the client.
package testserver

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CrashExitCode is the exit status of the process after the crash tool.
const CrashExitCode = 3

// Tool names.
const (
	ToolEcho     = "echo"
	ToolFetch    = "fetch"
	ToolSlow     = "slow"
	ToolCrash    = "crash"
	ToolAskUser  = "ask_user"
	ToolReadOnly = "peek"
	ToolSecret   = "secret_admin"
)

// TextArgs is the argument of echo.
type TextArgs struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

// URLArgs is the argument of fetch.
type URLArgs struct {
	URL string `json:"url" jsonschema:"the URL to fetch"`
}

// NoArgs is the argument of the tools without any.
type NoArgs struct{}

// New returns the server. Every message it receives is logged to log as
// "testserver: METHOD [TOOL]", so tests can tell what reached it.
func New(log io.Writer) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "toolguard-testserver", Version: "1"}, nil)
	s.AddReceivingMiddleware(logMethods(log))
	mcp.AddTool(s, &mcp.Tool{Name: ToolEcho, Description: "echo the text"}, echo)
	mcp.AddTool(s, &mcp.Tool{Name: ToolFetch, Description: "pretend to fetch a URL"}, fetch)
	mcp.AddTool(s, &mcp.Tool{Name: ToolSlow, Description: "wait until cancelled (at most 30s)"}, slow)
	mcp.AddTool(s, &mcp.Tool{Name: ToolCrash, Description: "exit the server mid-call"}, crash)
	mcp.AddTool(s, &mcp.Tool{Name: ToolAskUser, Description: "ask the user a question through elicitation"}, askUser)
	mcp.AddTool(s, &mcp.Tool{Name: ToolReadOnly, Description: "claims to be read-only",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, echo)
	mcp.AddTool(s, &mcp.Tool{Name: ToolSecret, Description: "a tool the policy excludes"}, echo)
	for _, tmpl := range []string{"file:///{+path}", "note://{name}"} {
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: tmpl, Name: tmpl}, readResource)
	}
	s.AddPrompt(&mcp.Prompt{Name: PromptReview, Arguments: []*mcp.PromptArgument{{Name: "path"}}}, reviewPrompt)
	return s
}

// PromptReview is the test server's prompt; its path argument names the
// file the prompt would quote.
const PromptReview = "review"

// readResource answers any resource with its own URI (it never reads
// anything).
func readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "resource " + req.Params.URI}}}, nil
}

func reviewPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user",
		Content: &mcp.TextContent{Text: "review " + req.Params.Arguments["path"]}}}}, nil
}

// Serve runs the server on in/out until the client goes away.
func Serve(ctx context.Context, in io.ReadCloser, out io.WriteCloser, log io.Writer) error {
	return New(log).Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
}

func logMethods(log io.Writer) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			tool := ""
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
				tool = " " + p.Name
			}
			fmt.Fprintf(log, "testserver: %s%s\n", method, tool)
			return next(ctx, method, req)
		}
	}
}

// Main serves on stdin/stdout and exits; a test binary calls it from
// TestMain when it is started as the server.
func Main() {
	if err := Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "testserver:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func echo(_ context.Context, _ *mcp.CallToolRequest, a TextArgs) (*mcp.CallToolResult, any, error) {
	return text(a.Text), nil, nil
}

func fetch(_ context.Context, _ *mcp.CallToolRequest, a URLArgs) (*mcp.CallToolResult, any, error) {
	return text("would fetch " + a.URL), nil, nil
}

func slow(ctx context.Context, _ *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	select {
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	case <-time.After(30 * time.Second):
		return text("slept"), nil, nil
	}
}

func crash(context.Context, *mcp.CallToolRequest, NoArgs) (*mcp.CallToolResult, any, error) {
	os.Exit(CrashExitCode)
	return nil, nil, nil
}

func askUser(ctx context.Context, req *mcp.CallToolRequest, _ NoArgs) (*mcp.CallToolResult, any, error) {
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "What is your name?",
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
	if err != nil {
		return nil, nil, err
	}
	return text(fmt.Sprintf("%s %v", res.Action, res.Content["name"])), nil, nil
}
