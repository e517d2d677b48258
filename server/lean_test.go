package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// twoFronts serves one Server's handler twice: through Lean, and through
// net/http alone. It returns both addresses.
func twoFronts(t *testing.T, opts Options, head time.Duration) (lean, plain string, l *Lean) {
	t.Helper()
	s := newTestServer(t, opts)
	listen := func() net.Listener {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		return ln
	}
	lnLean, lnPlain := listen(), listen()
	hsPlain := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: head, IdleTimeout: time.Minute}
	l = s.NewLean(&http.Server{Handler: s.Handler(), ReadHeaderTimeout: head, IdleTimeout: time.Minute})
	go func() { _ = hsPlain.Serve(lnPlain) }()
	go func() { _ = l.Serve(lnLean) }()
	t.Cleanup(func() { _ = hsPlain.Close(); _ = l.Close() })
	return lnLean.Addr().String(), lnPlain.Addr().String(), l
}

// exchange sends raw to addr and returns the replies the server sends,
// each as its status, headers and body, until it closes the connection
// or sends nothing more for a moment. How a body is framed (a length, or
// chunks, which net/http uses for a reply past 2 KB where the lean path
// gives its length) and the Date and Connection headers are left out.
func exchange(t *testing.T, addr, raw string, halfClose bool) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	if halfClose {
		_ = c.(*net.TCPConn).CloseWrite()
	}
	var b strings.Builder
	br := bufio.NewReader(c)
	for {
		_ = c.SetReadDeadline(time.Now().Add(400 * time.Millisecond))
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			if b.Len() == 0 {
				b.WriteString("no reply")
			}
			return b.String()
		}
		body, err := io.ReadAll(res.Body)
		for _, k := range []string{"Date", "Content-Length", "Transfer-Encoding", "Connection"} {
			res.Header.Del(k)
		}
		fmt.Fprintf(&b, "%s\n", res.Status)
		_ = res.Header.Write(&b)
		fmt.Fprintf(&b, "\n%s (%v)\n", body, err)
	}
}

func leanPost(path, host, ctype, body string, extra ...string) string {
	var b strings.Builder
	b.WriteString("POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\n")
	if ctype != "" {
		b.WriteString("Content-Type: " + ctype + "\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	for _, e := range extra {
		b.WriteString(e + "\r\n")
	}
	b.WriteString("\r\n" + body)
	return b.String()
}

// TestLeanAnswersAsNetHTTP sends the same bytes to the lean front and to
// net/http alone and wants the same bytes back (Date aside): requests the
// lean path answers, requests it hands to net/http (first on a connection
// or after lean ones), and attempts at request smuggling.
func TestLeanAnswersAsNetHTTP(t *testing.T) {
	lean, plain, _ := twoFronts(t, Options{}, 10*time.Second)
	const host = "127.0.0.1:7878"
	const js = "application/json"
	allow := `{"tool":"Read","input":{"file_path":"/tmp/x"}}`
	deny := `{"tool":"Bash","input":{"command":"rm -rf ~/"}}`
	cut := strings.TrimSuffix(leanPost("/v1/decide", host, js, allow), "}")
	hook := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"/tmp"}`
	cases := map[string]string{
		"decide":                      leanPost("/v1/decide", host, js, allow),
		"two pipelined":               leanPost("/v1/decide", host, js, allow) + leanPost("/v1/decide", host, js, deny),
		"hook":                        leanPost("/v1/hooks/claude-code", host, js, hook),
		"unknown agent":               leanPost("/v1/hooks/nobody", host, js, hook),
		"connection close":            leanPost("/v1/decide", host, js, allow, "Connection: close") + leanPost("/v1/decide", host, js, deny),
		"wrong type, then another":    leanPost("/v1/decide", host, "text/plain", allow) + leanPost("/v1/decide", host, js, deny),
		"no type":                     leanPost("/v1/decide", host, "", allow),
		"bad JSON":                    leanPost("/v1/decide", host, js, `{"tool":`),
		"unknown field":               leanPost("/v1/decide", host, js, `{"tool":"Read","bogus":1}`),
		"foreign host":                leanPost("/v1/decide", "evil.example", js, allow),
		"then GET":                    leanPost("/v1/decide", host, js, allow) + "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n",
		"GET first, then lean":        "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n" + leanPost("/v1/decide", host, js, allow),
		"cross-origin":                leanPost("/v1/decide", host, js, allow, "Sec-Fetch-Site: cross-site"),
		"smuggle: length and chunked": leanPost("/v1/decide", host, js, allow) + "POST /v1/decide HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: " + host + "\r\n\r\n",
		"smuggle: two lengths":        "POST /v1/decide HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: 0\r\nContent-Length: 47\r\n\r\n" + allow,
		"smuggle: folded length":      "POST /v1/decide HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nContent-Length: 47\r\n Content-Length: 0\r\n\r\n" + allow,
		"smuggle: bare LF":            "POST /v1/decide HTTP/1.1\nHost: " + host + "\nContent-Type: application/json\nContent-Length: 47\n\n" + allow,
		"HTTP/1.0":                    strings.Replace(leanPost("/v1/decide", host, js, allow), "HTTP/1.1", "HTTP/1.0", 1),
		"garbage":                     "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",
		"too large":                   leanPost("/v1/decide", host, js, strings.Repeat(" ", 1<<20+1)),
		"expect continue":             leanPost("/v1/decide", host, js, allow, "Expect: 100-continue"),
		"body cut short":              cut,
	}
	for name, raw := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			half := raw == cut
			want := exchange(t, plain, raw, half)
			got := exchange(t, lean, raw, half)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("net/http (-) and lean (+) answer differently:\n%s", diff)
			}
		})
	}
}

// TestLeanTimeouts: a head that stops half-way, and an idle connection,
// are closed after their timeouts, and count as answered no longer.
func TestLeanTimeouts(t *testing.T) {
	lean, _, l := twoFronts(t, Options{}, 200*time.Millisecond)
	defer func() {
		if n := l.active.Load(); n != 0 {
			t.Errorf("%d requests still counted active", n)
		}
	}()
	whole := leanPost("/v1/decide", "127.0.0.1:7878", "application/json", `{"tool":"Read","input":{"file_path":"/tmp/x"}}`)
	half := "POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1\r\nCont"
	for name, raw := range map[string]string{
		"nothing":   "",
		"half head": half,
		// The second request's head stops half-way: bounded by the head
		// timeout from its first byte on, not by the idle one (a minute).
		"half head after a request":   whole + half,
		"half head after two":         whole + whole + half,
		"first bytes after a request": whole + "P",
	} {
		t.Run(name, func(t *testing.T) {
			c, err := net.Dial("tcp", lean)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, _ = io.WriteString(c, raw)
			start := time.Now()
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, err = io.ReadAll(c)
			if err != nil || time.Since(start) > 3*time.Second {
				t.Errorf("connection not closed by the server within the timeout: %v after %v", err, time.Since(start))
			}
		})
	}
}

// TestLeanBodyDeadline: a body that came with its head is read without a
// deadline (nothing waits), one that stops half-way is still cut off at
// the call's deadline, on the lean path as on net/http's.
func TestLeanBodyDeadline(t *testing.T) {
	lean, plain, _ := twoFronts(t, Options{DecideTimeout: 300 * time.Millisecond}, 10*time.Second)
	body := `{"tool":"Read","input":{"file_path":"/tmp/x"}}`
	whole := leanPost("/v1/decide", "127.0.0.1:7878", "application/json", body)
	// Connection: close, so that the reply is not held back while the
	// server drains the rest of the body, as both fronts do for a
	// connection they would keep.
	closing := leanPost("/v1/decide", "127.0.0.1:7878", "application/json", body, "Connection: close")
	stalled := closing[:len(closing)-len(body)/2]
	for _, front := range []struct{ name, addr string }{{"lean", lean}, {"net/http", plain}} {
		for _, tc := range []struct {
			name, raw   string
			status      string
			least, most time.Duration
		}{
			{"whole", whole, "HTTP/1.1 200 OK", 0, 2 * time.Second},
			{"stalled", stalled, "HTTP/1.1 400 Bad Request", 250 * time.Millisecond, 3 * time.Second},
		} {
			t.Run(front.name+"/"+tc.name, func(t *testing.T) {
				c, err := net.Dial("tcp", front.addr)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				start := time.Now()
				if _, err := io.WriteString(c, tc.raw); err != nil {
					t.Fatal(err)
				}
				_ = c.SetReadDeadline(time.Now().Add(8 * time.Second))
				line, _ := bufio.NewReader(c).ReadString('\n')
				took := time.Since(start)
				if got := strings.TrimSpace(line); got != tc.status {
					t.Errorf("status line %q, want %q", got, tc.status)
				}
				if took < tc.least || took > tc.most {
					t.Errorf("answered after %v, want between %v and %v", took, tc.least, tc.most)
				}
			})
		}
	}
}

// TestLeanShutdown: Shutdown closes idle connections, lets a request in
// progress finish, and makes Serve return http.ErrServerClosed.
func TestLeanShutdown(t *testing.T) {
	s := newTestServer(t, Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := s.NewLean(&http.Server{Handler: s.Handler(), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: time.Minute})
	served := make(chan error, 1)
	go func() { served <- l.Serve(ln) }()
	addr := ln.Addr().String()
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	req := leanPost("/v1/decide", "127.0.0.1", "application/json", `{"tool":"Read","input":{"file_path":"/tmp/x"}}`)
	if _, err := io.WriteString(idle, req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(idle)
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("first reply: %v %v", res, err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	// A request whose body comes later is in progress at Shutdown.
	busy, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	head, body, _ := strings.Cut(req, "\r\n\r\n")
	if _, err := io.WriteString(busy, head+"\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- l.Shutdown(ctx) }()
	time.Sleep(100 * time.Millisecond)
	_ = idle.SetReadDeadline(time.Now().Add(3 * time.Second))
	if n, err := br.Read(make([]byte, 1)); n != 0 || !errors.Is(err, io.EOF) {
		t.Errorf("idle connection after Shutdown: read %d, %v; want EOF", n, err)
	}
	if _, err := io.WriteString(busy, body); err != nil {
		t.Fatal(err)
	}
	_ = busy.SetReadDeadline(time.Now().Add(3 * time.Second))
	res, err = http.ReadResponse(bufio.NewReader(busy), nil)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("request in progress at Shutdown: %v %v", res, err)
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve returned %v, want http.ErrServerClosed", err)
	}
	if _, err := net.Dial("tcp", addr); err == nil {
		t.Error("the listener still accepts after Shutdown")
	}
}

func BenchmarkLeanReply(b *testing.B) {
	w := &leanResponse{conn: discardConn{}, header: make(http.Header, 12)}
	body := []byte(`{"verdict":"allow","tier":"read","blast_radius":"none","rule":"mode.supervised","reason":"The supervised mode allows read-tier calls.","mode":"supervised"}` + "\n")
	b.ReportAllocs()
	for b.Loop() {
		w.reset(false)
		setSecurityHeaders(w.header)
		w.header.Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
		w.finish()
	}
}

// discardConn is a net.Conn that drops what is written to it.
type discardConn struct{ net.Conn }

func (discardConn) Write(p []byte) (int, error) { return len(p), nil }

// FuzzLeanReplyHeader checks that the lean path writes a handler's header
// as net/http does: names that are not tokens dropped, CR and LF in values
// made spaces, values trimmed, names in order.
func FuzzLeanReplyHeader(f *testing.F) {
	f.Add("X-Toolguard-Exit-Code", "2", "Retry-After", "1")
	f.Add("Bad Name", "v", "X-A", " \tx\r\nSet-Cookie: y\r\n")
	f.Add("X-B", "\r\n", "x\x00", "é")
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		for _, k := range []string{k1, k2} {
			switch k {
			case "Date", "Content-Length", "Content-Type", "Connection":
				t.Skip("set by rules of their own (TestLeanAnswersAsNetHTTP)")
			}
		}
		h := http.Header{}
		h[k1] = append(h[k1], v1)
		h[k2] = append(h[k2], v2)
		var want strings.Builder
		_ = h.Write(&want)
		w := &leanResponse{header: h, status: http.StatusOK}
		got := string(w.appendHeader(nil))
		got = got[:strings.Index(got, "Date: ")] // what follows is the lean path's own
		if got != want.String() {
			t.Errorf("net/http writes %q, the lean path %q", want.String(), got)
		}
	})
}

// TestLeanReplyHeaderBlock writes replies of changing headers through one
// leanResponse, which keeps the lines of a set it has written, and compares
// each with what a fresh one writes: the same set again, a value changed,
// a header added or removed, two values, Date, Content-Length or
// Connection set by the handler, a name that is not a token, a value that
// needs cleaning, the connection closing or not.
func TestLeanReplyHeaderBlock(t *testing.T) {
	base := func() http.Header {
		h := http.Header{}
		setSecurityHeaders(h)
		h["Content-Type"] = jsonContentType[:1:1]
		return h
	}
	with := func(f func(http.Header)) http.Header { h := base(); f(h); return h }
	sets := []http.Header{
		base(),
		with(func(h http.Header) { h.Set("Content-Type", "text/plain") }),
		with(func(h http.Header) { h.Set("X-Toolguard-Exit-Code", "2") }),
		with(func(h http.Header) { h.Del("Cache-Control") }),
		with(func(h http.Header) { h.Del("Content-Type") }),
		with(func(h http.Header) { h.Add("Cache-Control", "private") }),
		with(func(h http.Header) { h.Set("Connection", "close") }),
		with(func(h http.Header) { h.Set("Content-Length", "3") }),
		with(func(h http.Header) { h.Set("Date", "Mon, 02 Jan 2006 15:04:05 GMT") }),
		with(func(h http.Header) { h["Bad Name"] = []string{"v"} }),
		with(func(h http.Header) { h.Set("X-A", " \tx\r\ny ") }),
		with(func(h http.Header) { h.Del("X-Frame-Options"); h.Set("X-B", "DENY") }),
		{},
	}
	noDate := func(b []byte) string {
		var out []string
		for _, l := range strings.SplitAfter(string(b), "\r\n") {
			if !strings.HasPrefix(l, "Date: ") {
				out = append(out, l)
			}
		}
		return strings.Join(out, "")
	}
	rng := rand.New(rand.NewSource(1))
	w := &leanResponse{header: http.Header{}, status: http.StatusOK}
	for i := range 2000 {
		set := sets[rng.Intn(len(sets))]
		if i < 2*len(sets) {
			set = sets[i/2] // each set twice in a row first
		}
		closing := rng.Intn(4) == 0
		w.reset(closing)
		w.status = http.StatusOK
		w.body = append(w.body, "{}"...)
		for k, v := range set {
			w.header[k] = v
		}
		fresh := &leanResponse{header: set.Clone(), status: http.StatusOK, body: []byte("{}"), closing: closing}
		if got, want := noDate(w.appendHeader(nil)), noDate(fresh.appendHeader(nil)); got != want {
			t.Fatalf("reply %d (closing %v, headers %v): kept lines give\n%q\nwant\n%q", i, closing, set, got, want)
		}
	}
}

// TestLeanRequests holds what a handler keeps of the lean path's requests:
// a request it kept is not changed by the connection's next one (the
// lean path reuses its own template, not the handler's copy), and the
// requests of a connection have its context, live while it is open and
// done once it ends.
func TestLeanRequests(t *testing.T) {
	s := newTestServer(t, Options{})
	var mu sync.Mutex
	var kept []*http.Request
	var liveInHandler []bool
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		kept = append(kept, r)
		liveInHandler = append(liveInHandler, r.Context().Err() == nil)
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, "ok")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := s.NewLean(&http.Server{Handler: handler, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: time.Minute})
	go func() { _ = l.Serve(ln) }()
	t.Cleanup(func() { _ = l.Close() })
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	raw := leanPost("/v1/hooks/claude-code", "localhost", "application/json", `{"a":1}`, "User-Agent: one") +
		leanPost("/v1/hooks/claude-code", "127.0.0.1", "", `{}`, "Accept: */*") +
		leanPost("/v1/decide", "127.0.0.1:7878", "application/json", `{"b":2}`)
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	for range 3 {
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
	}
	c.Close()
	mu.Lock()
	defer mu.Unlock()
	type seen struct {
		Method, Path, RequestURI, Host, Remote string
		Header                                 http.Header
		Length                                 int64
	}
	var got []seen
	for _, r := range kept {
		got = append(got, seen{r.Method, r.URL.Path, r.RequestURI, r.Host, r.RemoteAddr, r.Header, r.ContentLength})
	}
	local := c.LocalAddr().String()
	want := []seen{
		{"POST", "/v1/hooks/claude-code", "/v1/hooks/claude-code", "localhost", local,
			http.Header{"Content-Type": {"application/json"}, "Content-Length": {"7"}, "User-Agent": {"one"}}, 7},
		{"POST", "/v1/hooks/claude-code", "/v1/hooks/claude-code", "127.0.0.1", local,
			http.Header{"Content-Length": {"2"}, "Accept": {"*/*"}}, 2},
		{"POST", "/v1/decide", "/v1/decide", "127.0.0.1:7878", local,
			http.Header{"Content-Type": {"application/json"}, "Content-Length": {"7"}}, 7},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests as the handler kept them (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]bool{true, true, true}, liveInHandler); diff != "" {
		t.Errorf("context live while handled (-want +got):\n%s", diff)
	}
	if kept[0] == kept[1] || kept[1] == kept[2] {
		t.Error("two requests are one *http.Request")
	}
	if kept[0].Context() != kept[2].Context() {
		t.Error("the requests of one connection have different contexts")
	}
	select {
	case <-kept[0].Context().Done():
	case <-time.After(5 * time.Second):
		t.Error("the connection's context is not done after the connection ended")
	}
}
