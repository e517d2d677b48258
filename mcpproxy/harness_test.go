package mcpproxy

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolguard/toolguard/mcpproxy/internal/testserver"
	"github.com/toolguard/toolguard/policy"
)

// serverEnv makes the test binary run as the test MCP server.
const serverEnv = "TOOLGUARD_MCPPROXY_TESTSERVER"

func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "1" {
		testserver.Main()
	}
	os.Exit(m.Run())
}

// Protocol versions the tests speak: legacy has initialize (and so
// elicitation/create); modern has neither.
const (
	legacy = "2025-11-25"
	modern = "" // the SDK's latest
)

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Reset()
}

// lines returns the lines that start with prefix, prefix removed.
func (s *syncBuffer) lines(prefix string) []string {
	var out []string
	for _, l := range strings.Split(s.String(), "\n") {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			out = append(out, rest)
		}
	}
	return out
}

// session is a client connected through a proxy running in the test.
type session struct {
	client *mcp.ClientSession
	stderr *syncBuffer
	done   chan error
	closed bool
}

// testServer is the command line of the in-repo test server.
func testServer() ([]string, []string) {
	return []string{os.Args[0]}, append(os.Environ(), serverEnv+"=1")
}

func compile(t testing.TB, s policy.Settings) *policy.Policy {
	t.Helper()
	p, err := policy.Compile(&policy.Config{Settings: s}, policy.Options{Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// connect starts the proxy with opts (the test server unless opts.Command
// is set) and connects an SDK client speaking version.
func connect(t *testing.T, opts Options, copts *mcp.ClientOptions, version string) *session {
	t.Helper()
	if opts.Command == nil {
		opts.Command, opts.Env = testServer()
		opts.Name = cmpOr(opts.Name, "test")
	}
	s := &session{stderr: &syncBuffer{}, done: make(chan error, 1)}
	clientIn, proxyOut := io.Pipe()
	proxyIn, clientOut := io.Pipe()
	opts.In, opts.Out, opts.Stderr = proxyIn, proxyOut, s.stderr
	opts.Grace = cmpDuration(opts.Grace, 2*time.Second)
	go func() {
		err := Run(context.Background(), opts)
		proxyOut.Close()
		proxyIn.Close()
		s.done <- err
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "toolguard-test", Version: "1"}, copts)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: clientIn, Writer: clientOut}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, s.stderr)
	}
	s.client = cs
	t.Cleanup(func() { s.close(t) })
	return s
}

func cmpDuration(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// close ends the session and returns Run's error.
func (s *session) close(t *testing.T) error {
	t.Helper()
	if s.closed {
		return nil
	}
	s.closed = true
	s.client.Close()
	select {
	case err := <-s.done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatalf("the proxy did not stop after the client closed\nstderr:\n%s", s.stderr)
		return nil
	}
}

// outcome is what a test compares of a tool call: for a call toolguard
// blocked the rule and the reason's first sentence, else the text.
type outcome struct {
	IsError bool
	Rule    string
	Why     string
	Text    string
}

func (s *session) call(t *testing.T, tool string, args map[string]any) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := s.client.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v\nstderr:\n%s", tool, err, s.stderr)
	}
	return outcomeOf(res)
}

func outcomeOf(res *mcp.CallToolResult) outcome {
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	o := outcome{IsError: res.IsError, Text: strings.Join(texts, "\n")}
	if rest, ok := strings.CutPrefix(o.Text, "Blocked by toolguard (rule "); ok {
		o.Rule, rest, _ = strings.Cut(rest, "): ")
		if strings.Contains(rest, "\n") {
			o.Text = "the denial spans lines: " + rest // DeniedText is one line
			return o
		}
		o.Why, _, _ = strings.Cut(rest, " Instead: ")
		o.Why, _, _ = strings.Cut(o.Why, ". ")
		o.Why = strings.TrimSuffix(o.Why, ".")
		o.Text = ""
	}
	return o
}
