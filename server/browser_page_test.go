package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/device"

	"github.com/toolguard/toolguard/approval"
	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/fleet/fleettest"
	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
)

// longGrantPath is a grant's path as long as real ones are: on a phone it
// used to wrap one letter per line.
const longGrantPath = "/home/tester/projects/customer-portal/src/components/settings/NotificationPreferences.tsx"

// pagePolicyFile holds a grant with a long path, as the user's policy file
// would after an earlier "Always allow".
const pagePolicyFile = `[[grants]]
tool = "mcp__fs__write_file"
paths = ["` + longGrantPath + `"]
added = 2026-11-20T09:00:00Z
`

// pageServer serves the page with what a person meets in the first hour:
// grants kept in a policy file (so that an "Always allow" is listed at
// once), an audit log the feed is refilled from after a reload.
func pageServer(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	dir := t.TempDir()
	policyFile := filepath.Join(dir, "policy.toml")
	if err := os.WriteFile(policyFile, []byte(pagePolicyFile), 0o600); err != nil {
		t.Fatal(err)
	}
	store := approval.NewGrantStore(dir, policyFile)
	log := audit.NewWriter(filepath.Join(dir, "audit.jsonl"), audit.WriterOptions{})
	s := newTestServer(t, Options{AuditPath: log.Path(), Authorizer: func(p *policy.Policy, a approval.Approver) (Authorizer, error) {
		return guard.New(p, guard.WithApprover(a), guard.WithGrants(store), guard.WithAudit(log))
	}})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { s.Close(); ts.Close() })
	return s, ts
}

// TestBrowserPage opens the page at desktop and phone sizes (a touch
// screen) with the panels filled and checks what a new user tripped over:
// the requests first on a phone, grants readable, the grant choice not
// cut off, no keyboard hints on a touch screen, identical calls on one
// card, the feed with time, agent and labels that survive a reload, and
// an "Always allow" listed in the grants at once.
func TestBrowserPage(t *testing.T) {
	for _, phone := range []bool{false, true} {
		name := map[bool]string{false: "desktop", true: "phone"}[phone]
		t.Run(name, func(t *testing.T) { checkPage(t, name, phone) })
	}
}

func checkPage(t *testing.T, name string, phone bool) {
	ctx := browser(t)
	s, ts := pageServer(t)
	// A doctor's probe and a tried call, before the page opens: the feed
	// is refilled from the audit log.
	do(t, s.Handler(), "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"rm -rf /"},"cwd":"/tmp","session":"toolguard-doctor","agent":"claude-code"}`, nil)
	do(t, s.Handler(), "POST", "/v1/decide", `{"tool":"Bash","input":{"command":"ls -la"},"cwd":"/tmp/ws","try":true}`, nil)
	setup := chromedp.EmulateViewport(1280, 900)
	if phone {
		setup = chromedp.Emulate(device.IPhone12)
	}
	if err := chromedp.Do(ctx, setup, chromedp.Navigate(ts.URL+"/#token="+testKey), chromedp.WaitVisible(chromedp.CSS("#conn.live"))); err != nil {
		t.Fatalf("open page: %v", err)
	}
	waitSubscribers(t, s.hub, 1)
	body := `{"tool":"Bash","input":{"command":"` + askCommand + `"},"cwd":"/tmp/ws","agent":"claude-code","session":"s1"}`
	first, second := authorizeAsync(ts.URL, body), authorizeAsync(ts.URL, body)
	waitPending(t, s.Broker(), 2)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#pending .card .copies"))); err != nil {
		t.Fatalf("two identical calls never shared a card: %v", err)
	}
	checks := map[string]string{
		"cards":        `document.querySelectorAll('#pending .card').length`,
		"copies":       `document.querySelector('#pending .card .copies').textContent`,
		"count":        `document.getElementById('pending-count').textContent`,
		"feed":         `[...document.querySelectorAll('#feed li')].map(li => li.querySelector('.meta').textContent.replace(/^[0-9:.\sAPM]+/, '') + ' | ' + li.querySelector('.summary-line').textContent).join('\n')`,
		"feed times":   `[...document.querySelectorAll('#feed li time')].every(t => t.dateTime !== '' && t.textContent !== '')`,
		"touch":        `matchMedia('(hover: none) and (pointer: coarse)').matches`,
		"keys shown":   `[...document.querySelectorAll('.kbd-only')].some(e => getComputedStyle(e).display !== 'none')`,
		"waiting top":  `document.querySelector('.approvals').getBoundingClientRect().top`,
		"grants top":   `document.querySelector('.grants').getBoundingClientRect().top`,
		"pattern wide": `document.querySelector('#grants-body .grant-pattern').getBoundingClientRect().width`,
		"options fit": `[...document.querySelectorAll('#pending .card .grant-options label')].every(l =>
			l.getBoundingClientRect().right <= document.querySelector('#pending .card').getBoundingClientRect().right + 0.5)`,
		"options":  `[...document.querySelectorAll('#pending .card .grant-options label')].map(l => l.textContent).join('\n')`,
		"overflow": `document.documentElement.scrollWidth > document.documentElement.clientWidth`,
	}
	got := map[string]any{}
	for k, js := range checks {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](js))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		got[k] = v
	}
	want := map[string]any{
		"cards":  float64(1),
		"copies": "2 identical calls are waiting; one answer answers them all.",
		"count":  "2",
		"feed": "tried here | Bash: ls -la\n" +
			"toolguard doctor’s probe | Bash: rm -rf /",
		"feed times":  true,
		"touch":       phone,
		"keys shown":  !phone,
		"options fit": true,
		"options": "Bash(git push --force origin main) (exactly this)\n" +
			"Bash(git push --force origin:*) (commands starting with “git push --force origin”)\n" +
			"Bash(git push --force:*) (commands starting with “git push --force”)\n" +
			"Bash(git push:*) (commands starting with “git push”)",
		"overflow": false,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: %s = %#v, want %#v", name, k, got[k], w)
		}
	}
	if phone && got["waiting top"].(float64) > got["grants top"].(float64) {
		t.Errorf("phone: the grants (top %v) come before the calls waiting (top %v)", got["grants top"], got["waiting top"])
	}
	if w := got["pattern wide"].(float64); w < 250 {
		t.Errorf("%s: the grant pattern is %v px wide: it wraps a few letters per line", name, w)
	}
	save(t, ctx, "page-filled-"+name+".png")

	// One "Always allow" answers both calls and is listed in the grants at
	// once (it used to appear only after a reload of the policy).
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#pending .card button[data-scope="always"]`))); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []<-chan decisionResult{first, second} {
		if d := awaitDecision(t, ch); d.Verdict != risk.Allow {
			t.Errorf("%s: after always: %s by %s", name, d.Verdict, d.Rule)
		}
	}
	const listed = `[...document.querySelectorAll('#grants-body .grant-pattern')].some(td => td.textContent === 'Bash(` + askCommand + `)')`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](listed)); err != nil {
		t.Errorf("%s: the always grant is not listed on the page: %v", name, err)
	}
	// After a reload the feed still marks the tried call and the probe.
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#conn.live"))); err != nil {
		t.Fatal(err)
	}
	feed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('#feed li .meta')].map(m => m.textContent).join('\n')`))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"tried here", "toolguard doctor’s probe", "claude-code"} {
		if !strings.Contains(feed, w) {
			t.Errorf("%s: after a reload the feed lacks %q:\n%s", name, w, feed)
		}
	}
	save(t, ctx, "page-filled-"+name+"-after.png")
}

// save writes a full-page screenshot to $TGTEST_SCREENSHOTS when set,
// for a person to look at.
func save(t *testing.T, ctx context.Context, file string) {
	dir := os.Getenv("TGTEST_SCREENSHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, file), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserCardsInAFleet: the page of the replica where a call waits
// shows it as it would run; another replica's page has only the masked
// form the fleet's database holds, and its card says so.
func TestBrowserCardsInAFleet(t *testing.T) {
	ctx := browser(t)
	if err := chromedp.Do(ctx); err != nil { // start the browser: each replica's page is a tab of it
		t.Fatal(err)
	}
	url := fleettest.Database(t)
	a, b := fleetServer(t, url, "A"), fleetServer(t, url, "B")
	const secret = "S3cretPassw0rd-zq81"
	done := authorizeAsyncTo(a, `{"tool":"Bash","input":{"command":"docker login -u me -p `+secret+` registry.example"},"cwd":"/tmp/ws","session":"f1"}`)
	waitPending(t, a.Broker(), 1)
	for _, r := range []struct {
		name   string
		s      *Server
		masked bool
	}{{"A", a, false}, {"B", b, true}} {
		ts := httptest.NewServer(r.s.Handler())
		defer ts.Close()
		tab, closeTab := chromedp.NewContext(ctx) // a page per replica
		defer closeTab()
		if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+"/#token="+testKey), chromedp.WaitVisible(chromedp.CSS("#pending .card"))); err != nil {
			t.Fatalf("replica %s: the waiting call is not shown: %v", r.name, err)
		}
		cmd, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#pending .card .cmd")))
		if err != nil {
			t.Fatal(err)
		}
		note, err := chromedp.Run(tab, chromedp.Evaluate[bool](`!document.querySelector('#pending .card .masked-note').hidden`))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(cmd, secret) == r.masked || note != r.masked {
			t.Errorf("replica %s: card %q, masked note shown %v; want masked %v", r.name, cmd, note, r.masked)
		}
		save(t, tab, "page-fleet-"+r.name+".png")
	}
	do(t, b.Handler(), "POST", "/v1/approvals/"+waitPending(t, a.Broker(), 1)[0].ID, `{"approved":false}`, pageHeaders)
	if d := awaitDecision(t, done); d.Verdict != risk.Deny {
		t.Errorf("after the denial: %s", d.Verdict)
	}
}

// authorizeAsyncTo posts an authorize request to s's handler.
func authorizeAsyncTo(s *Server, body string) <-chan decisionResult {
	done := make(chan decisionResult, 1)
	go func() {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "http://127.0.0.1:7878/v1/authorize", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		s.Handler().ServeHTTP(rec, req)
		var r decisionResult
		r.err = json.Unmarshal(rec.Body.Bytes(), &r.d)
		done <- r
	}()
	return done
}
