package call_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/call"
)

// FuzzNormalize feeds arbitrary tool names and JSON arguments through the
// table: no panic; a NUL anywhere but in a shell tool's command is
// rejected as invalid (the shell analysis judges a NUL in a command); a
// shell call always carries its command; MCP-style names always get their
// server.
func FuzzNormalize(f *testing.F) {
	f.Add("Bash", `{"command":"ls -la"}`)
	f.Add("apply_patch", `{"input":"*** Begin Patch\n*** Add File: a.go\n*** End Patch"}`)
	f.Add("mcp__fs__read_file", `{"path":"/etc/passwd"}`)
	f.Add("web_fetch", `{"prompt":"see https://a.example and http://10.0.0.1/x"}`)
	f.Add("unknown_tool", `{"paths":["a",{"b":1}],"url":7}`)
	f.Add("Bash", `{"command":"echo ok\u0000rm -rf ~"}`)
	f.Add("Bash", `{"command":"ls","description":"a\u0000b"}`)
	f.Fuzz(func(t *testing.T, tool, args string) {
		var input map[string]any
		if json.Unmarshal([]byte(args), &input) != nil {
			return
		}
		c, err := call.Default().Normalize(call.Request{Tool: tool, Input: input, Cwd: "/w"})
		rest := input
		if m, ok := call.Default().Lookup(tool); ok && m.Kind == call.Shell {
			rest = map[string]any{}
			for k, v := range input {
				if _, isString := v.(string); !isString || !slices.Contains(m.CommandArgs, k) {
					rest[k] = v
				} else {
					rest[k+"\x01"] = "" // the key itself is still checked
				}
			}
			for k := range input {
				if hasNUL(k) {
					rest[k] = ""
				}
			}
		}
		if hasNUL(rest) || strings.ContainsRune(tool, 0) {
			if err == nil {
				t.Fatalf("NUL in %q accepted", args)
			}
			return
		}
		if err != nil {
			if !errors.Is(err, call.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if c.Kind == call.Shell && c.Command == "" {
			t.Fatalf("shell call without a command: %+v", c)
		}
		if server, name, isMCP := call.ParseMCPName(tool); isMCP && (c.MCPServer != server || c.MCPTool != name) {
			t.Fatalf("MCP name %q normalised to server %q tool %q", tool, c.MCPServer, c.MCPTool)
		}
	})
}

func hasNUL(v any) bool {
	switch x := v.(type) {
	case string:
		return strings.ContainsRune(x, 0)
	case map[string]any:
		for k, e := range x {
			if hasNUL(k) || hasNUL(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasNUL(e) {
				return true
			}
		}
	}
	return false
}
