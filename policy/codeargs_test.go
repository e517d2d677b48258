package policy_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
)

// TestCodeInToolArguments: code anywhere in an unknown tool's arguments is
// judged as the command it is, in every mode; arguments that hold none
// leave the tool at the execute tier of an unknown tool.
func TestCodeInToolArguments(t *testing.T) {
	tests := []struct {
		name  string
		mode  string
		tool  string
		input map[string]any
		want  string
	}{
		{"nested script", "full", "mcp__devbox__run", map[string]any{"opts": map[string]any{"script": "rm -rf ~"}}, "deny"},
		{"program and args", "full", "mcp__ci__job", map[string]any{"cmd": "bash", "args": []any{"-c", "rm -rf ~"}}, "deny"},
		{"a string that reads as a command", "full", "mcp__notes__add", map[string]any{"title": "cleanup", "body": "rm -rf ~"}, "deny"},
		{"a sentence", "trusted", "mcp__notes__add", map[string]any{"title": "cleanup", "body": "remove the old build"}, "allow"},
		{"a known program's harmless command", "trusted", "mcp__notes__add", map[string]any{"body": "git status"}, "allow"},
		{"declared base64", "full", "mcp__runner__run", map[string]any{"language": "python", "encoding": "base64",
			"code": "aW1wb3J0IHNodXRpbCxvcztzaHV0aWwucm10cmVlKG9zLnBhdGguZXhwYW5kdXNlcigifiIpKQ=="}, "deny"},
		{"declared base64 that does not decode", "full", "mcp__runner__run", map[string]any{"encoding": "base64", "code": "!!!"}, "deny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustCompile(t, &policy.Settings{Mode: tt.mode})
			if diff := cmp.Diff(tt.want, decide(t, p, tt.tool, tt.input).Verdict); diff != "" {
				t.Errorf("%v (-want +got):\n%s", tt.input, diff)
			}
		})
	}
}
