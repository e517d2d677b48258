package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/toolguard/toolguard/audit"
	"github.com/toolguard/toolguard/risk"
)

// browserCommand asks (force push) and has a span that does not cover the
// whole command, so the highlight shows.
const browserCommand = "cd /tmp/ws && git push --force origin main"

// chromium finds a Chromium binary or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium binary on PATH (apt-get install -y chromium); skipping the browser test")
	return ""
}

func browser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	// Generous: under a loaded CI machine Chromium alone can take tens of
	// seconds to start and lay the page out.
	ctx, cancelTimeout := context.WithTimeout(ctx, 180*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// TestBrowserApproval: an authorize request appears on the page, a click
// approves it and the waiting request gets allow; a second one is denied
// from the keyboard.
func TestBrowserApproval(t *testing.T) {
	ctx := browser(t)
	s := newTestServer(t, Options{})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	defer s.Close() // ends the page's event stream before ts.Close waits for it
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/#token="+testKey), chromedp.WaitVisible(chromedp.ID("try-form"))); err != nil {
		t.Fatalf("open page: %v", err)
	}
	waitSubscribers(t, s.hub, 1)
	first := browserCall(ts.URL)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#pending .card"))); err != nil {
		t.Fatalf("request never appeared: %v", err)
	}
	marked, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#pending .card .cmd mark")))
	if err != nil || marked != "git push --force origin main" {
		t.Errorf("highlighted span %q (%v)", marked, err)
	}
	blast, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#pending .card .blast")))
	if err != nil || blast != "blast: high" {
		t.Errorf("blast badge %q (%v)", blast, err)
	}
	screenshots(t, ctx, ts.URL)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#pending .card button[data-scope="once"][data-approve="true"]`))); err != nil {
		t.Fatalf("click: %v", err)
	}
	if d := awaitDecision(t, first); d.Verdict != risk.Allow || d.Rule != "approval.approved" {
		t.Errorf("after the click: %s by %s (%s)", d.Verdict, d.Rule, d.Reason)
	}
	// The first card must be gone before the second call: otherwise, on a
	// slow machine, the key goes to the first card while the page has yet
	// to remove it, and the second call waits out its approval timeout.
	if err := chromedp.Do(ctx, chromedp.WaitNotPresent(chromedp.CSS("#pending .card"))); err != nil {
		t.Fatalf("the approved card stayed on the page: %v", err)
	}
	second := browserCall(ts.URL)
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS("#pending .card")),
		chromedp.Focus(chromedp.CSS("#pending .card")),
		chromedp.KeyEvent("d"),
	); err != nil {
		t.Fatalf("keyboard: %v", err)
	}
	if d := awaitDecision(t, second); d.Verdict != risk.Deny || d.Rule != "approval.denied" {
		t.Errorf("after pressing d: %s by %s", d.Verdict, d.Rule)
	}
	feed, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("feed")))
	if err != nil || !strings.Contains(feed, "Bash: "+browserCommand) {
		t.Errorf("live feed %q (%v)", feed, err)
	}
}

func browserCall(base string) <-chan decisionResult {
	return authorizeAsync(base, `{"tool":"Bash","input":{"command":"`+browserCommand+`"},"cwd":"/tmp/ws","agent":"claude-code","session":"demo"}`)
}

// screenshots saves the page at desktop and phone widths to
// $TGTEST_SCREENSHOTS (when set) for a person to look at, and checks
// that the phone layout has no horizontal scrolling.
func screenshots(t *testing.T, ctx context.Context, base string) {
	dir := os.Getenv("TGTEST_SCREENSHOTS")
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("try-input"), "rm -rf ~/ && echo done"),
		chromedp.Click(chromedp.CSS("#try-form button")),
		chromedp.WaitVisible(chromedp.CSS("#try-result .result")),
	); err != nil {
		t.Fatalf("try box: %v", err)
	}
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 900}, {"phone", 390, 844}} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(size.w, size.h)); err != nil {
			t.Fatal(err)
		}
		overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`))
		if err != nil || overflow {
			t.Errorf("%s: horizontal overflow %v (%v)", size.name, overflow, err)
		}
		if dir == "" {
			continue
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "page-"+size.name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserTokenLogin: with a token, the page opened at the printed
// address (#token=…) signs in, drops the token from the address, receives
// events through its cookie, and a bad token shows the sign-in form.
func TestBrowserTokenLogin(t *testing.T) {
	ctx := browser(t)
	const token = "tok-0123456789abcdefghijklmnopqrstuvwxyz"
	s := newTestServer(t, Options{Token: token})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	defer s.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/#token="+token), chromedp.WaitVisible(chromedp.CSS("#conn.live"))); err != nil {
		t.Fatalf("sign in with the printed address: %v", err)
	}
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil || strings.Contains(loc, token) {
		t.Errorf("address after sign-in %q (%v)", loc, err)
	}
	done := authorizeAsyncWithToken(ts.URL, token)
	if err := chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS("#pending .card")),
		chromedp.Click(chromedp.CSS(`#pending .card button[data-scope="session"]`)),
	); err != nil {
		t.Fatalf("approve: %v", err)
	}
	if d := awaitDecision(t, done); d.Verdict != risk.Allow {
		t.Errorf("after approving: %s by %s", d.Verdict, d.Rule)
	}
	other := browser(t)
	if err := chromedp.Do(other, chromedp.Navigate(ts.URL+"/#token=wrong"), chromedp.WaitVisible(chromedp.ID("login-form"))); err != nil {
		t.Fatalf("a wrong token should show the sign-in form: %v", err)
	}
	msg, err := chromedp.Run(other, chromedp.Text(chromedp.ID("login-error")))
	if err != nil || !strings.HasPrefix(msg, "missing or wrong token") {
		t.Errorf("sign-in error %q (%v)", msg, err)
	}
}

func authorizeAsyncWithToken(base, token string) <-chan decisionResult {
	done := make(chan decisionResult, 1)
	go func() {
		var r decisionResult
		req, err := http.NewRequest("POST", base+"/v1/authorize", strings.NewReader(`{"tool":"Bash","input":{"command":"`+browserCommand+`"},"cwd":"/tmp/ws","session":"tok"}`))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			var resp *http.Response
			if resp, err = http.DefaultClient.Do(req); err == nil {
				defer resp.Body.Close()
				err = json.NewDecoder(resp.Body).Decode(&r.d)
			}
		}
		r.err = err
		done <- r
	}()
	return done
}

// TestBrowserContainedBadge: a call a hook rewrote to run in the sandbox is
// marked contained in the page's feed.
func TestBrowserContainedBadge(t *testing.T) {
	ctx := browser(t)
	log := audit.NewWriter(filepath.Join(t.TempDir(), "audit.jsonl"), audit.WriterOptions{})
	for _, r := range []audit.Record{
		{Time: time.Now(), Tool: "Bash", Kind: "shell", Args: "ls", Verdict: risk.Allow, Tier: risk.Read, Rule: "mode.trusted"},
		{Time: time.Now(), Tool: "Bash", Kind: "shell", Args: "make test", Verdict: risk.Allow, Tier: risk.Execute, Rule: "mode.trusted", Contained: true},
	} {
		if err := log.Write(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	s := newTestServer(t, Options{Audit: log})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	defer s.Close()
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/#token="+testKey), chromedp.WaitVisible(chromedp.CSS("#feed .contained-badge"))); err != nil {
		t.Fatalf("no contained mark in the feed: %v", err)
	}
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#feed li')].map(li => li.textContent)`))
	if err != nil || len(rows) != 2 {
		t.Fatalf("feed rows %q (%v)", rows, err)
	}
	for _, row := range rows {
		if contained := strings.Contains(row, "contained"); contained != strings.Contains(row, "make test") {
			t.Errorf("feed row %q: contained mark %v", row, contained)
		}
	}
}
