package approval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

func TestScopeText(t *testing.T) {
	for _, s := range []Scope{Once, Session, Always} {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Scope
		if err := back.UnmarshalText(b); err != nil || back != s {
			t.Errorf("%v → %q → %v, %v", s, b, back, err)
		}
	}
	_, err := ParseScope("forever")
	if got, want := err.Error(), `unknown approval scope "forever" (valid: once, session, always)`; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	if _, err := Scope(7).MarshalText(); err == nil {
		t.Error("an invalid scope marshalled")
	}
}

func TestClampTimeout(t *testing.T) {
	tests := map[time.Duration]time.Duration{
		0: DefaultTimeout, time.Nanosecond: MinTimeout, -time.Hour: MinTimeout,
		30 * time.Second: 30 * time.Second, time.Hour: MaxTimeout,
	}
	for in, want := range tests {
		if got := ClampTimeout(in); got != want {
			t.Errorf("ClampTimeout(%v) = %v, want %v", in, got, want)
		}
	}
}

var askReq = Request{Call: bash("make deploy", "s1"), Decision: policy.Decision{Verdict: risk.Ask, Tier: risk.Execute, Rule: "mode.supervised"}}

func TestAskOutcomes(t *testing.T) {
	boom := errors.New("broker down")
	tests := []struct {
		name    string
		a       Approver
		want    Answer
		wantErr error
	}{
		{"approved", Callback(func(context.Context, Request) (Answer, error) { return Answer{Approved: true, Scope: Session}, nil }),
			Answer{Approved: true, Scope: Session, By: "callback"}, nil},
		{"denied", Callback(func(context.Context, Request) (Answer, error) { return Answer{Note: "no"}, nil }),
			Answer{By: "callback", Note: "no"}, nil},
		{"error is never an approval", Callback(func(context.Context, Request) (Answer, error) { return Answer{Approved: true}, boom }),
			Answer{By: "callback", Note: "broker down"}, boom},
		{"panic", Callback(func(context.Context, Request) (Answer, error) { panic("bug") }),
			Answer{Note: "approver failed: bug"}, nil},
		{"none", None{}, Answer{By: "none", Note: "no approver configured"}, ErrNoApprover},
		{"nil approver", nil, Answer{Note: "no approver configured"}, ErrNoApprover},
		{"nil callback", Callback(nil), Answer{Note: "no approver configured"}, ErrNoApprover},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Ask(context.Background(), tt.a, askReq, AskOptions{})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
			if got.Approved == (err != nil) && err != nil {
				t.Error("approved together with an error")
			}
		})
	}
}

// TestAskTimeout waits the full default timeout in a synctest bubble: an
// approver that never answers is a denial after exactly 120 s.
func TestAskTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		never := Callback(func(ctx context.Context, _ Request) (Answer, error) {
			<-ctx.Done()
			return Answer{Approved: true}, ctx.Err()
		})
		got, err := Ask(context.Background(), never, askReq, AskOptions{})
		if !errors.Is(err, ErrTimeout) || got.Approved {
			t.Fatalf("Ask = %+v, %v; want a denial with ErrTimeout", got, err)
		}
		if waited := time.Since(start); waited != DefaultTimeout {
			t.Errorf("waited %v, want %v", waited, DefaultTimeout)
		}
		if got.Note != "no answer before the approval timeout (2m0s)" {
			t.Errorf("note %q", got.Note)
		}
	})
}

func TestAskLateAnswerDenied(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		late := Callback(func(ctx context.Context, _ Request) (Answer, error) {
			time.Sleep(MinTimeout + time.Second) // ignores ctx, then approves
			return Answer{Approved: true}, nil
		})
		got, err := Ask(context.Background(), late, askReq, AskOptions{Timeout: time.Second})
		if !errors.Is(err, ErrTimeout) || got.Approved {
			t.Errorf("Ask = %+v, %v; want a late approval denied", got, err)
		}
	})
}

func TestFirst(t *testing.T) {
	noTTY := Callback(func(context.Context, Request) (Answer, error) { return Answer{}, ErrNoTerminal })
	yes := Callback(func(context.Context, Request) (Answer, error) { return Answer{Approved: true, By: "web"}, nil })
	got, err := First{noTTY, yes}.Approve(context.Background(), askReq)
	if err != nil || !got.Approved || got.By != "web" {
		t.Errorf("First{noTTY, yes} = %+v, %v", got, err)
	}
	_, err = First{noTTY, None{}}.Approve(context.Background(), askReq)
	if !errors.Is(err, ErrNoTerminal) || !errors.Is(err, ErrNoApprover) {
		t.Errorf("all failing: %v", err)
	}
	if _, err := (First{}).Approve(context.Background(), askReq); !errors.Is(err, ErrNoApprover) {
		t.Errorf("empty First: %v", err)
	}
	timeout := Callback(func(context.Context, Request) (Answer, error) { return Answer{}, ErrTimeout })
	if _, err := (First{timeout, yes}).Approve(context.Background(), askReq); !errors.Is(err, ErrTimeout) {
		t.Errorf("a timeout must not fall through to the next approver: %v", err)
	}
}

func TestEvents(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	yes := Callback(func(context.Context, Request) (Answer, error) {
		return Answer{Approved: true, Scope: Always, By: "web"}, nil
	})
	Ask(context.Background(), yes, askReq, AskOptions{Logger: logger})
	Ask(context.Background(), None{}, askReq, AskOptions{Logger: logger})
	LogBlocked(context.Background(), logger, askReq.Call, policy.Decision{Verdict: risk.Deny, Rule: "core.x", Reason: "no"})
	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		json.Unmarshal([]byte(line), &m)
		delete(m, "agent")
		delete(m, "blast_radius")
		delete(m, "kind")
		got = append(got, m)
	}
	base := func(level, msg string, extra ...string) map[string]any {
		m := map[string]any{"level": level, "msg": msg, "tool": "Bash", "rule": "mode.supervised", "tier": "execute", "session": "s1"}
		for i := 0; i < len(extra); i += 2 {
			m[extra[i]] = extra[i+1]
		}
		return m
	}
	want := []map[string]any{
		base("INFO", "approval_requested"),
		base("INFO", "approval_granted", "scope", "always", "by", "web"),
		base("INFO", "approval_requested"),
		base("WARN", "approval_denied", "by", "none", "note", "no approver configured"),
		base("WARN", "blocked", "rule", "core.x", "tier", "read", "reason", "no"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestLogBlockedRedactsReason: the "blocked" event's reason is the
// reason as audit.RedactString gives it, the first time (redacted) and
// the second (from the table of recent reasons), a secret masked.
func TestLogBlockedRedactsReason(t *testing.T) {
	reason := "The command sends AKIAIOSFODNN7EXAMPLE over the network (#hook-cost-13)"
	want := audit.RedactString(reason)
	if strings.Contains(want, "AKIAIOSFODNN7EXAMPLE") {
		t.Fatalf("RedactString kept the key: %q", want)
	}
	for i := range 2 {
		var buf bytes.Buffer
		LogBlocked(context.Background(), slog.New(slog.NewJSONHandler(&buf, nil)), askReq.Call, policy.Decision{Verdict: risk.Deny, Rule: "core.x", Reason: reason})
		var m map[string]any
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		if m["reason"] != want {
			t.Fatalf("event %d: reason %q, want %q", i, m["reason"], want)
		}
	}
}
