package mcpproxy

import (
	"io"
	"testing"

	"github.com/toolguard/toolguard/policy"
)

// BenchmarkRoute measures the proxy's own cost per client message: a
// passthrough request, an allowed tools/call (parse, normalise, decide,
// forward) and a denied one (answered by the proxy).
func BenchmarkRoute(b *testing.B) {
	p := compile(b, policy.Settings{Tools: policy.Tools{AutoApprove: []string{"mcp__test__echo"}}})
	cases := []struct{ name, line string }{
		{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}`},
		{"allowed call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello","path":"/work/notes.txt"}}}`},
		{"denied call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"http://169.254.169.254/latest/"}}}`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			r := newRouter(b, p, nil)
			r.toServer = &lineWriter{w: io.Discard}
			r.toClient = &lineWriter{w: io.Discard}
			line := []byte(c.line)
			b.ReportAllocs()
			for b.Loop() {
				r.fromClient(line)
				r.decides.Wait()
				r.mu.Lock()
				clear(r.pending) // the server never answers here
				r.mu.Unlock()
			}
		})
	}
}
