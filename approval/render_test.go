package approval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func TestRenderWarningColour(t *testing.T) {
	got := RenderWarning(rmReq, true)
	want := "\x1b[1mtoolguard: this call needs your approval\x1b[0m\r\n" +
		"  tool:     Bash (shell), agent claude-code, session s1\r\n" +
		"  risk:     destructive, blast radius \x1b[30;43m MEDIUM \x1b[0m, category fs-delete\r\n" +
		"  command:  \x1b[4mrm -rf\x1b[24m build\r\n" +
		"  why:      deletes a directory tree\r\n" +
		"  instead:  move it to the trash\r\n" +
		"  rule:     core.fs.rm-recursive\r\n" +
		"  remember: Bash(rm -rf build) (what [s]ession or [a]lways allows from now on)\r\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRenderWarningOtherTool(t *testing.T) {
	r := Request{
		Call:     call.Call{Kind: call.Write, Tool: "Write", Input: map[string]any{"file_path": "/w/.env", "content": "API_KEY=abc123"}},
		Decision: policy.Decision{Verdict: risk.Ask, Tier: risk.Write, Blast: risk.BlastUnknown, Rule: "paths.sensitive", Unverifiable: true},
	}
	want := "=== toolguard: this call needs your approval ===\r\n" +
		"  tool:     Write (write)\r\n" +
		"  risk:     write, blast radius UNKNOWN\r\n" +
		"  input:    file_path=/w/.env content=API_KEY=***\r\n" +
		"  note:     part of this call cannot be checked statically; it cannot be remembered\r\n" +
		"  rule:     paths.sensitive\r\n"
	if diff := cmp.Diff(want, RenderWarning(r, false)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestMarkSpans(t *testing.T) {
	tests := []struct {
		name  string
		cmd   string
		spans []risk.Span
		want  string
	}{
		{"none", "ls -la", nil, "ls -la"},
		{"two", "rm -rf a && rm b", []risk.Span{{Start: 12, End: 16}, {Start: 0, End: 8}}, "[[rm -rf a]] && [[rm b]]"},
		{"overlapping", "abcdef", []risk.Span{{Start: 1, End: 3}, {Start: 2, End: 5}}, "a[[bcde]]f"},
		{"out of range", "abc", []risk.Span{{Start: 2, End: 99}}, "ab[[c]]"},
		{"inside a rune widens", "é x", []risk.Span{{Start: 1, End: 2}}, "[[é]] x"},
		{"escape codes", "echo \x1b[2Jhi\nrm", []risk.Span{{Start: 0, End: 4}}, "[[echo]] \\u001b[2Jhi⏎rm"},
		{"invalid utf-8", "a\xffb", nil, "a\\xffb"},
		{"bidi override", "ls \u202egnp.exe", nil, "ls \\u202egnp.exe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fs []risk.Finding
			for _, s := range tt.spans {
				fs = append(fs, risk.Finding{Span: s})
			}
			if diff := cmp.Diff(tt.want, markSpans(tt.cmd, spans(fs), false)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestQuestion(t *testing.T) {
	tests := []struct {
		name string
		r    Request
		want string
	}{
		{"all scopes", rmReq, "Allow? [y]es / [n]o / [s]ession / [a]lways"},
		{"no session id", Request{Call: bash("make", "")}, "Allow? [y]es / [n]o / [a]lways"},
		{"chained command (granted exactly)", Request{Call: bash("make && make install", "s1")}, "Allow? [y]es / [n]o / [s]ession / [a]lways"},
		{"unverifiable", Request{Call: bash("$X", "s1"), Decision: policy.Decision{Unverifiable: true}}, "Allow? [y]es / [n]o"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Question(tt.r); got != tt.want {
				t.Errorf("Question = %q, want %q", got, tt.want)
			}
		})
	}
}
