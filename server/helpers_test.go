package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/toolguard/toolguard/policy"
)

// askCommand asks in the default (supervised) mode: a force push.
const askCommand = "git push --force origin main"

func testPolicy(t testing.TB) *policy.Policy {
	t.Helper()
	p, err := policy.Compile(&policy.Config{}, policy.Options{Home: "/home/tester"})
	if err != nil {
		t.Fatalf("compile default policy: %v", err)
	}
	return p
}

func newTestServer(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Policy == nil {
		opts.Policy = testPolicy(t)
	}
	if opts.PageKey == "" && opts.Token == "" {
		opts.PageKey = testKey
	}
	s, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// do sends one request to the handler; body nil means no body. Host is
// 127.0.0.1 unless hdr sets it.
func do(t testing.TB, h http.Handler, method, path, body string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = bytes.NewBufferString(body)
	}
	req := httptest.NewRequest(method, "http://127.0.0.1:7878"+path, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func decodeBody[T any](t testing.TB, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %q: %v", rec.Body.String(), err)
	}
	return v
}

func errorOf(t testing.TB, rec *httptest.ResponseRecorder) string {
	t.Helper()
	return decodeBody[errorBody](t, rec).Error
}

// testKey is the page key of the test servers (newTestServer).
const testKey = "test-page-key-0123456789-abcdefghijklmnop"

// pageHeaders are what the page's fetch sends for a same-origin POST once
// it has the key's cookie.
var pageHeaders = map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://127.0.0.1:7878", "Cookie": cookieName + "=" + testKey}
