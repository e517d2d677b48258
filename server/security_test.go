package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
)

func TestSecurityHeaders(t *testing.T) {
	s := newTestServer(t, Options{})
	for _, path := range []string{"/", "/v1/approvals", "/static/app.js", "/nowhere"} {
		h := do(t, s.Handler(), "GET", path, "", nil).Header()
		got := map[string]string{}
		for _, k := range []string{"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy"} {
			got[k] = h.Get(k)
		}
		want := map[string]string{
			"Content-Security-Policy": pageCSP, "X-Content-Type-Options": "nosniff",
			"X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s headers (-want +got):\n%s", path, diff)
		}
	}
	if !strings.Contains(pageCSP, "frame-ancestors 'none'") || strings.Contains(pageCSP, "unsafe-inline") {
		t.Errorf("CSP %q must forbid framing and inline script", pageCSP)
	}
}

func TestCrossOriginPostRefused(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		name   string
		hdr    map[string]string
		status int
	}{
		{"cross-site fetch metadata", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"foreign origin", map[string]string{"Origin": "https://evil.example"}, 403},
		{"same origin", map[string]string{"Sec-Fetch-Site": "same-origin"}, 200},
		{"non-browser client", nil, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := do(t, s.Handler(), "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"ls"}}`, tt.hdr)
			if rec.Code != tt.status {
				t.Errorf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
		})
	}
	// Answering an approval from another origin is refused before the id
	// is even looked at.
	rec := do(t, s.Handler(), "POST", "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA", `{"approved":true}`, map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"})
	want := "cross-origin request refused: state-changing requests must come from this server's own page or a non-browser client"
	if rec.Code != 403 || errorOf(t, rec) != want {
		t.Errorf("cross-origin answer: %d %s", rec.Code, rec.Body)
	}
}

func TestHostCheckWithoutToken(t *testing.T) {
	s := newTestServer(t, Options{})
	tests := []struct {
		host   string
		status int
	}{
		{"127.0.0.1:7878", 200}, {"localhost:7878", 200}, {"[::1]:7878", 200}, {"localhost", 200},
		{"rebind.attacker.example:7878", 421}, {"192.168.1.5:7878", 421},
	}
	for _, tt := range tests {
		if rec := do(t, s.Handler(), "GET", "/v1/approvals", "", map[string]string{"Host": tt.host, "Cookie": cookieName + "=" + testKey}); rec.Code != tt.status {
			t.Errorf("Host %s: status %d, want %d", tt.host, rec.Code, tt.status)
		}
	}
}

func TestTokenRequired(t *testing.T) {
	const token = "0123456789abcdefghijklmnopqrstuvwxyzABCD"
	s := newTestServer(t, Options{Token: token})
	auth := map[string]string{"Authorization": "Bearer " + token, "Host": "10.0.0.2:7878"}
	tests := []struct {
		name, method, path, body string
		hdr                      map[string]string
		status                   int
	}{
		{"api without token", "GET", "/v1/approvals", "", map[string]string{"Host": "10.0.0.2:7878"}, 401},
		{"api with wrong token", "GET", "/v1/approvals", "", map[string]string{"Authorization": "Bearer nope", "Host": "10.0.0.2:7878"}, 401},
		{"api with token", "GET", "/v1/approvals", "", auth, 200},
		{"decide without token", "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"ls"}}`, nil, 401},
		{"decide with token", "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"ls"}}`, auth, 200},
		{"metrics without token", "GET", "/metrics", "", nil, 401},
		{"events without token", "GET", "/v1/events", "", nil, 401},
		{"page is public", "GET", "/", "", map[string]string{"Host": "10.0.0.2:7878"}, 200},
		{"assets are public", "GET", "/static/app.js", "", nil, 200},
		{"healthz is public", "GET", "/healthz", "", nil, 200},
		{"cookie works", "GET", "/v1/approvals", "", map[string]string{"Cookie": cookieName + "=" + token}, 200},
		{"token answers from a script", "POST", "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA", `{"approved":false}`, auth, 404},
		{"the key's cookie answers", "POST", "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA", `{"approved":false}`, map[string]string{"Cookie": cookieName + "=" + token}, 404},
		{"a cross-site page with the cookie cannot", "POST", "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA", `{"approved":false}`, map[string]string{"Cookie": cookieName + "=" + token, "Sec-Fetch-Site": "cross-site"}, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if rec := do(t, s.Handler(), tt.method, tt.path, tt.body, tt.hdr); rec.Code != tt.status {
				t.Errorf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
		})
	}
	rec := do(t, s.Handler(), "POST", "/v1/login", `{}`, auth)
	c := rec.Result().Cookies()
	if rec.Code != 200 || len(c) != 1 || c[0].Value != token || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		t.Errorf("login: %d cookies %+v", rec.Code, c)
	}
}

func TestIsLoopbackAddr(t *testing.T) {
	got := map[string]bool{}
	for _, a := range []string{"127.0.0.1:7878", "[::1]:7878", "localhost:7878", ":7878", "0.0.0.0:7878", "10.1.2.3:80", "example.com:80", "bad"} {
		got[a] = IsLoopbackAddr(a)
	}
	want := map[string]bool{"127.0.0.1:7878": true, "[::1]:7878": true, "localhost:7878": true, ":7878": false,
		"0.0.0.0:7878": false, "10.1.2.3:80": false, "example.com:80": false, "bad": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("IsLoopbackAddr (-want +got):\n%s", diff)
	}
}

// TestAgentCannotApproveItself shows the default policy's answer to an
// agent that tries to answer its own approval over loopback: the policy
// denies any call that reaches toolguard's approval endpoints.
func TestAgentCannotApproveItself(t *testing.T) {
	p := testPolicy(t)
	cmds := []string{
		`curl -X POST -H 'Content-Type: application/json' -d '{"approved":true}' http://127.0.0.1:7878/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA`,
		`wget --post-data '{"approved":true}' http://localhost:7878/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA`,
		`curl -s http://[::1]:7878/v1/approvals`,
	}
	for _, cmd := range cmds {
		d := p.Decide(context.Background(), call.Call{Kind: call.Shell, Tool: "Bash", Command: cmd, Cwd: "/tmp/ws", Workspace: "/tmp/ws"})
		if d.Verdict != risk.Deny || d.Rule != "self.approve" {
			t.Errorf("%s: %s by %s (%s); want deny by self.approve", cmd, d.Verdict, d.Rule, d.Reason)
		}
	}
}

// TestApprovalsNeedTheKey: on the loopback default, as with a token,
// listing and answering approvals and the event feed need the page key;
// the headers a program can forge prove nothing (the attacks an agent
// tried: Sec-Fetch-Site, Origin, a forged Host).
func TestApprovalsNeedTheKey(t *testing.T) {
	s := newTestServer(t, Options{})
	forged := []map[string]string{
		nil,
		{"Sec-Fetch-Site": "same-origin"},
		{"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:7878"},
		{"Origin": "http://127.0.0.1:7878", "Host": "127.0.0.1:7878"},
		{"Host": "localhost.", "Sec-Fetch-Site": "same-origin"},
		{"Authorization": "Bearer wrong-key-wrong-key-wrong-key-wrong"},
		{"Cookie": cookieName + "=wrong"},
	}
	for _, hdr := range forged {
		for _, r := range []struct{ method, path, body string }{
			{"GET", "/v1/approvals", ""},
			{"POST", "/v1/approvals/AAAAAAAAAAAAAAAAAAAAAA", `{"approved":true}`},
			{"GET", "/v1/events", ""},
			{"POST", "/v1/login", "{}"},
		} {
			if rec := do(t, s.Handler(), r.method, r.path, r.body, hdr); rec.Code != 401 {
				t.Errorf("%s %s with %v: status %d, want 401", r.method, r.path, hdr, rec.Code)
			}
		}
	}
	for _, hdr := range []map[string]string{{"Authorization": "Bearer " + testKey}, {"Cookie": cookieName + "=" + testKey}} {
		if rec := do(t, s.Handler(), "GET", "/v1/approvals", "", hdr); rec.Code != 200 {
			t.Errorf("GET /v1/approvals with %v: status %d, want 200", hdr, rec.Code)
		}
	}
	login := do(t, s.Handler(), "POST", "/v1/login", "{}", map[string]string{"Authorization": "Bearer " + testKey})
	if c := login.Result().Cookies(); login.Code != 200 || len(c) != 1 || c[0].Value != testKey || !c[0].HttpOnly {
		t.Errorf("login with the key: %d, cookies %v", login.Code, c)
	}
}

// TestRandomPageKey: without a token or a key, each server makes its own.
func TestRandomPageKey(t *testing.T) {
	p := testPolicy(t)
	c, err := New(Options{Policy: p})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	d, _ := New(Options{Policy: p})
	defer d.Close()
	if len(c.PageKey()) < minTokenLen || c.PageKey() == d.PageKey() {
		t.Errorf("generated keys %q and %q must be long and differ", c.PageKey(), d.PageKey())
	}
}

// TestNotFromBrowserAgreesWithCheck: every request the shortcut lets past
// http.CrossOriginProtection is one its Check passes, for each method and
// the headers' forms (absent, empty, several values, the name in another
// case as net/http stores it: canonical).
func TestNotFromBrowserAgreesWithCheck(t *testing.T) {
	csrf := http.NewCrossOriginProtection()
	headers := []http.Header{
		{},
		{"Sec-Fetch-Site": {""}},
		{"Origin": {""}},
		{"Sec-Fetch-Site": {}, "Origin": {}},
		{"Sec-Fetch-Site": {"", "cross-site"}},
		{"Origin": {"", "https://evil.example"}},
		{"Sec-Fetch-Site": {"cross-site"}},
		{"Sec-Fetch-Site": {"same-origin"}},
		{"Sec-Fetch-Site": {"none"}},
		{"Origin": {"https://evil.example"}},
		{"Origin": {"null"}},
		{"Content-Type": {"application/json"}, "User-Agent": {"curl/8"}},
	}
	var got, want []bool
	for _, method := range []string{"POST", "PUT", "DELETE", "GET"} {
		for _, h := range headers {
			r, err := http.NewRequest(method, "http://127.0.0.1:7878/v1/decide", nil)
			if err != nil {
				t.Fatal(err)
			}
			r.Header = h
			short := notFromBrowser(h)
			got = append(got, short)
			// The shortcut is taken only where Check passes, and exactly
			// where neither header has a first value.
			want = append(want, h.Get("Sec-Fetch-Site") == "" && h.Get("Origin") == "")
			if short && csrf.Check(r) != nil {
				t.Errorf("%s %v: the shortcut passes a request Check refuses", method, h)
			}
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("notFromBrowser (-want +got):\n%s", diff)
	}
}

// TestLoopbackHost holds loopbackHost, its shortcut for "127.0.0.1" with
// a port of digits included, to exact answers, and to the parsed answer
// for every input.
func TestLoopbackHost(t *testing.T) {
	want := map[string]bool{
		"127.0.0.1": true, "127.0.0.1:": true, "127.0.0.1:7878": true, "127.0.0.1:0000": true,
		"127.0.0.1:x": true, "127.0.0.1:80:90": false, "127.0.0.1.": true, "127.0.0.1.evil": false,
		"127.0.0.10:80": true, "127.0.0.1]:80": false, "[127.0.0.1]:80": true, "localhost:7878": true,
		"LOCALHOST": true, "[::1]:7878": true, "::1": true, "10.0.0.1:80": false, "evil.example:80": false,
		"": false, "127.0.0.1 :80": false, "127.0.0.1:8\x00": true,
	}
	got := map[string]bool{}
	for in := range want {
		got[in] = loopbackHost(in)
		if parsed := loopbackHostParsed(in); parsed != got[in] {
			t.Errorf("loopbackHost(%q) = %v, parsed %v", in, got[in], parsed)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("loopbackHost (-want +got):\n%s", diff)
	}
}

// FuzzLoopbackHost checks loopbackHost's shortcut against the parsed
// answer.
func FuzzLoopbackHost(f *testing.F) {
	for _, s := range []string{"127.0.0.1:7878", "127.0.0.1", "127.0.0.1:8:9", "[::1]:1", "localhost"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := loopbackHost(in), loopbackHostParsed(in); got != want {
			t.Fatalf("loopbackHost(%q) = %v, parsed %v", in, got, want)
		}
	})
}
