package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

type decisionSummary struct {
	Verdict  risk.Verdict
	Tier     risk.Tier
	Category risk.Category
	Rule     string
	Mode     string
}

func summarize(d policy.Decision) decisionSummary {
	return decisionSummary{d.Verdict, d.Tier, d.Category, d.Rule, d.Mode}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		body string
		want decisionSummary
	}{
		{"read allowed", `{"tool":"Bash","input":{"command":"ls -la"},"cwd":"/tmp/ws"}`,
			decisionSummary{risk.Allow, risk.Read, "", "mode.supervised", "supervised"}},
		{"force push asks", `{"tool":"Bash","input":{"command":"` + askCommand + `"},"cwd":"/tmp/ws","agent":"claude-code","session":"s1"}`,
			decisionSummary{risk.Ask, risk.Destructive, risk.CatVCSHistory, "git.push-force", "supervised"}},
		{"root wipe denied", `{"tool":"shell","input":{"command":"rm -rf /"},"cwd":"/tmp/ws"}`,
			decisionSummary{risk.Deny, risk.Destructive, risk.CatFSDelete, "core.fs.rm-recursive-root", "supervised"}},
		{"tightening override applies", `{"tool":"Bash","input":{"command":"touch a"},"cwd":"/tmp/ws","policy":{"mode":"readonly"}}`,
			decisionSummary{risk.Deny, risk.Write, "", "mode.readonly", "readonly"}},
		{"null override is none", `{"tool":"Bash","input":{"command":"ls"},"cwd":"/tmp/ws","policy":null}`,
			decisionSummary{risk.Allow, risk.Read, "", "mode.supervised", "supervised"}},
	}
	s := newTestServer(t, Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := do(t, s.Handler(), "POST", "/v1/decide", tt.body, nil)
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			got := summarize(decodeBody[policy.Decision](t, rec))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBadRequests(t *testing.T) {
	big := `{"tool":"Bash","input":{"command":"` + strings.Repeat("a", 2048) + `"}}`
	tests := []struct {
		name, path, body string
		hdr              map[string]string
		status           int
		want             string
	}{
		{"unknown field", "/v1/decide", `{"tool":"Bash","bogus":1}`, nil, 400,
			`unknown field "bogus" (valid: tool, input, cwd, workspace, agent, session, sender, will_run, try, policy)`},
		{"wrong type", "/v1/decide", `{"tool":7}`, nil, 400, `field "tool" must be a string, not number`},
		{"not an object", "/v1/decide", `[1]`, nil, 400,
			"the body must be a JSON object with the fields tool, input, cwd, workspace, agent, session, sender, will_run, try, policy, not array"},
		{"malformed", "/v1/decide", `{"tool":`, nil, 400,
			"empty or truncated JSON body; send an object with the fields tool, input, cwd, workspace, agent, session, sender, will_run, try, policy"},
		{"trailing data", "/v1/decide", `{"tool":"Bash","input":{"command":"ls"}} {}`, nil, 400,
			"unexpected data after the JSON object; send exactly one object"},
		{"empty tool", "/v1/decide", `{"tool":" "}`, nil, 400, "invalid tool call: empty tool name"},
		{"shell without command", "/v1/authorize", `{"tool":"Bash","input":{}}`, nil, 400,
			"invalid tool call: Bash call without a command (looked for `command`, `cmd`)"},
		{"loosening override", "/v1/decide", `{"tool":"Bash","input":{"command":"ls"},"policy":{"mode":"full"}}`, nil, 400,
			`policy override refused (overrides may only tighten the server's policy): request policy:1:9: mode: an untrusted policy (project file, request override, sub-agent) may only tighten: mode "full" is looser than "supervised"; a project file can be trusted by listing its directory in trusted_projects of the user policy`},
		{"override not an object", "/v1/decide", `{"tool":"Bash","input":{"command":"ls"},"policy":"full"}`, nil, 400,
			`field "policy" must be an object of policy settings that only tighten`},
		{"content type", "/v1/decide", `{"tool":"Bash"}`, map[string]string{"Content-Type": "text/plain"}, 415,
			`content type "text/plain" refused: send Content-Type: application/json`},
		{"too large", "/v1/decide", big, nil, 413, "request body larger than 1024 bytes"},
		{"unknown route", "/v1/nothing", "", nil, 404, "no such endpoint: GET /v1/nothing (see docs/server.md for the API)"},
		{"unknown agent", "/v1/hooks/vim", `{}`, nil, 404,
			`unknown agent "vim" (valid: claude-code, codex, gemini-cli, cursor, docker-agent, copilot, opencode, kilo, qwen-code, cline, droid)`},
		{"approval id shape", "/v1/approvals/abc", `{"approved":true}`, pageHeaders, 400,
			"malformed approval id: ids are 22 URL-safe base64 characters, as listed by GET /v1/approvals"},
		{"approval unknown", "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA", `{"approved":true}`, pageHeaders, 404, "no such approval"},
		{"approval missing approved", "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA", `{"scope":"once"}`, pageHeaders, 400,
			`field "approved" is required: true to let the call run, false to deny it`},
		{"approval bad scope", "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA", `{"approved":true,"scope":"forever"}`, pageHeaders, 400,
			`field "scope": unknown approval scope "forever" (valid: once, session, always)`},
		{"approval from a script", "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA", `{"approved":true}`, map[string]string{"Sec-Fetch-Site": "same-origin"}, 401,
			`approvals and events are for a person: open the page at the address toolguard serve printed (it carries the key), or send "Authorization: Bearer KEY"`},
	}
	s := newTestServer(t, Options{MaxBody: 1024})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := "POST"
			if tt.body == "" {
				method = "GET"
			}
			rec := do(t, s.Handler(), method, tt.path, tt.body, tt.hdr)
			if rec.Code != tt.status {
				t.Errorf("status = %d, want %d (%s)", rec.Code, tt.status, rec.Body)
			}
			if diff := cmp.Diff(tt.want, errorOf(t, rec)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSimpleEndpoints(t *testing.T) {
	s := newTestServer(t, Options{ApprovalTimeout: 30e9})
	rec := do(t, s.Handler(), "GET", "/healthz", "", nil)
	if diff := cmp.Diff(`{"status":"ok"}`+"\n", rec.Body.String()); diff != "" || rec.Code != 200 {
		t.Errorf("healthz %d (-want +got):\n%s", rec.Code, diff)
	}
	info := decodeBody[policyInfo](t, do(t, s.Handler(), "GET", "/v1/policy", "", nil))
	if info.Mode != "supervised" || info.Hash != s.Policy().Hash() || info.ApprovalTimeout != 30 || info.TokenRequired || !strings.HasPrefix(info.Summary, "Tool calls are checked by toolguard") {
		t.Errorf("policy info = %+v", info)
	}
	list := decodeBody[approvalList](t, do(t, s.Handler(), "GET", "/v1/approvals", "", pageHeaders))
	if diff := cmp.Diff(approvalList{Approvals: []Pending{}}, list); diff != "" {
		t.Errorf("empty approvals (-want +got):\n%s", diff)
	}
	page := do(t, s.Handler(), "GET", "/", "", nil)
	if page.Code != 200 || !strings.Contains(page.Body.String(), `<script src="/static/app.js" defer></script>`) {
		t.Errorf("page %d: %.200s", page.Code, page.Body)
	}
	for _, asset := range []string{"/static/app.js", "/static/style.css"} {
		if rec := do(t, s.Handler(), "GET", asset, "", nil); rec.Code != 200 || rec.Body.Len() < 1000 {
			t.Errorf("%s: %d, %d bytes", asset, rec.Code, rec.Body.Len())
		}
	}
}

func TestMetrics(t *testing.T) {
	s := newTestServer(t, Options{})
	for _, cmd := range []string{"ls", "ls", "rm -rf /"} {
		do(t, s.Handler(), "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"`+cmd+`"},"cwd":"/tmp/ws"}`, nil)
	}
	body := do(t, s.Handler(), "GET", "/metrics", "", nil).Body.String()
	for _, want := range []string{
		`toolguard_decisions_total{category="none",tier="read",verdict="allow"} 2`,
		`toolguard_decisions_total{category="fs-delete",tier="destructive",verdict="deny"} 1`,
		`toolguard_decision_duration_seconds_count 3`,
		`toolguard_approvals_pending 0`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}
