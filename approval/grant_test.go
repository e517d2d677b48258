package approval

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func TestParseGrantPattern(t *testing.T) {
	tests := []struct {
		in      string
		want    Grant
		wantErr string
	}{
		{"Bash", Grant{Tool: "Bash"}, ""},
		{" Write ", Grant{Tool: "Write"}, ""},
		{"Bash(npm test:*)", Grant{Tool: "Bash", CommandPrefix: "npm test"}, ""},
		{"Bash( go test ./... :*)", Grant{Tool: "Bash", CommandPrefix: "go test ./..."}, ""},
		{"Bash(npm test)", Grant{}, `grant pattern "Bash(npm test)": write Tool or Tool(command prefix:*), e.g. Bash(npm test:*)`},
		{"Bash(:*)", Grant{}, `grant pattern "Bash(:*)": the command prefix is empty; write just "Bash" to grant the whole tool`},
		{"", Grant{}, `grant pattern "": the tool name must be a non-empty word, e.g. Bash or Write`},
		{"(x:*)", Grant{}, `grant pattern "(x:*)": the tool name must be a non-empty word, e.g. Bash or Write`},
		{"Bash(make; rm:*)", Grant{}, `grant pattern "Bash(make; rm:*)": the command prefix may not contain ';' (shell control characters)`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseGrantPattern(tt.in)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || gotErr != tt.wantErr {
				t.Errorf("grant (-want +got):\n%s\nerror %q, want %q", diff, gotErr, tt.wantErr)
			}
			if err == nil {
				if back, _ := ParseGrantPattern(got.Pattern()); back != got {
					t.Errorf("Pattern() %q does not parse back to the grant", got.Pattern())
				}
			}
		})
	}
}

func bash(cmd, session string) call.Call {
	return call.Call{Kind: call.Shell, Tool: "Bash", Command: cmd, Who: call.Who{Session: session}}
}

func TestGrantMatches(t *testing.T) {
	prefix := Grant{Tool: "Bash", CommandPrefix: "npm test", Scope: Always}
	sess := Grant{Tool: "Write", Scope: Session, Session: "s1"}
	tests := []struct {
		name string
		g    Grant
		c    call.Call
		want bool
	}{
		{"exact", prefix, bash("npm test", ""), true},
		{"with args", prefix, bash("npm test -- --watch", ""), true},
		{"blanks around", prefix, bash("  npm test\t", ""), true},
		{"tool case", prefix, call.Call{Kind: call.Shell, Tool: "bash", Command: "npm test"}, true},
		{"kind as tool", Grant{Tool: "shell", CommandPrefix: "npm test"}, bash("npm test", ""), true},
		{"longer word", prefix, bash("npm testx", ""), false},
		{"other command", prefix, bash("npm publish", ""), false},
		{"chained", prefix, bash("npm test; rm -rf ~", ""), false},
		{"and", prefix, bash("npm test && curl x | sh", ""), false},
		{"background", prefix, bash("npm test & evil", ""), false},
		{"substitution", prefix, bash("npm test $(curl x)", ""), false},
		{"backticks", prefix, bash("npm test `id`", ""), false},
		{"variable", prefix, bash("npm test $HOME", ""), false},
		{"redirect", prefix, bash("npm test > ~/.bashrc", ""), false},
		{"input redirect", prefix, bash("npm test < /etc/shadow", ""), false},
		{"newline", prefix, bash("npm test\nrm -rf /", ""), false},
		{"subshell", prefix, bash("npm test (x)", ""), false},
		{"assignment first", prefix, bash("X=1 npm test", ""), false},
		{"other tool", prefix, call.Call{Kind: call.Shell, Tool: "run_shell", Command: "npm test"}, false},
		{"session grant, same session", sess, call.Call{Kind: call.Write, Tool: "Write", Who: call.Who{Session: "s1"}}, true},
		{"session grant, other session", sess, call.Call{Kind: call.Write, Tool: "Write", Who: call.Who{Session: "s2"}}, false},
		{"session grant, no session", sess, call.Call{Kind: call.Write, Tool: "Write"}, false},
		{"session grant without id", Grant{Tool: "Write", Scope: Session}, call.Call{Kind: call.Write, Tool: "Write"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.g.Matches(tt.c); got != tt.want {
				t.Errorf("Matches = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestApplyGrants(t *testing.T) {
	grants := []Grant{{Tool: "Bash", CommandPrefix: "make test", Scope: Always}}
	ask := policy.Decision{Verdict: risk.Ask, Tier: risk.Execute, Rule: "mode.supervised", Reason: "runs make"}
	tests := []struct {
		name string
		d    policy.Decision
		c    call.Call
		want policy.Decision
	}{
		{"ask becomes allow", ask, bash("make test", ""), policy.Decision{Verdict: risk.Allow, Tier: risk.Execute,
			Rule: "grant:Bash(make test:*)", Reason: "allowed by the always grant Bash(make test:*) (it would otherwise ask: runs make)"}},
		{"no match", ask, bash("make deploy", ""), ask},
		{"deny untouched", policy.Decision{Verdict: risk.Deny, Rule: "core.x"}, bash("make test", ""), policy.Decision{Verdict: risk.Deny, Rule: "core.x"}},
		{"allow untouched", policy.Decision{Verdict: risk.Allow, Rule: "r"}, bash("make test", ""), policy.Decision{Verdict: risk.Allow, Rule: "r"}},
		{"unverifiable ask untouched", policy.Decision{Verdict: risk.Ask, Unverifiable: true, Rule: "shell.unverifiable"}, bash("make test", ""),
			policy.Decision{Verdict: risk.Ask, Unverifiable: true, Rule: "shell.unverifiable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ApplyGrants(tt.d, tt.c, grants)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestGrantFor(t *testing.T) {
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	write := call.Call{Kind: call.Write, Tool: "Write", Input: map[string]any{"file_path": "/w/a"}, Who: call.Who{Session: "s1"}}
	tests := []struct {
		name   string
		r      Request
		s      Scope
		want   Grant
		wantOK bool
	}{
		{"once", Request{Call: bash("ls", "s1")}, Once, Grant{}, false},
		{"session shell", Request{Call: bash(" rm -rf build ", "s1")}, Session,
			Grant{Tool: "Bash", CommandPrefix: "rm -rf build", Scope: Session, Session: "s1", Created: now}, true},
		{"always shell", Request{Call: bash("npm test", "s1")}, Always,
			Grant{Tool: "Bash", CommandPrefix: "npm test", Scope: Always, Created: now}, true},
		{"always tool", Request{Call: write}, Always, Grant{Tool: "Write", Scope: Always, Created: now}, true},
		{"session without id", Request{Call: bash("ls", "")}, Session, Grant{}, false},
		{"chained command", Request{Call: bash("make && make install", "s1")}, Always, Grant{}, false},
		{"unverifiable", Request{Call: bash("ls", "s1"), Decision: policy.Decision{Unverifiable: true}}, Always, Grant{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := GrantFor(tt.r, tt.s, now)
			if diff := cmp.Diff(tt.want, got); diff != "" || ok != tt.wantOK {
				t.Errorf("(-want +got):\n%s\nok %v, want %v", diff, ok, tt.wantOK)
			}
		})
	}
}

func FuzzParseGrantPattern(f *testing.F) {
	for _, s := range []string{"Bash", "Bash(npm test:*)", "Bash(x)", "(:*)", "A(b(c:*)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGrantPattern(s)
		if err != nil {
			return
		}
		back, err := ParseGrantPattern(g.Pattern())
		if err != nil || back != g {
			t.Errorf("%q → %+v → %q → %+v, %v", s, g, g.Pattern(), back, err)
		}
	})
}
