package server

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/toolguard/toolguard/policy"
)

// FuzzCallRequest: any body to /v1/decide is answered without a panic,
// with 200 and a valid decision only for a well-formed request, and a 4xx
// with an error message otherwise.
func FuzzCallRequest(f *testing.F) {
	f.Add([]byte(`{"tool":"Bash","input":{"command":"rm -rf /"},"cwd":"/tmp"}`))
	f.Add([]byte(`{"tool":"Write","input":{"file_path":"~/.bashrc","content":"x"},"policy":{"mode":"readonly"}}`))
	f.Add([]byte(`{"tool":"Bash","input":{"command":"ls"},"policy":{"mode":"full"}}`))
	f.Add([]byte(`{"tool":"x","bogus":[1,2]}`))
	f.Add([]byte(`{"tool":"Bash","input":{"command":"a\u0000b"}}`))
	s := newTestServer(f, Options{MaxBody: 64 << 10})
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := do(t, s.Handler(), "POST", "/v1/decide", string(body), map[string]string{"Content-Type": "application/json"})
		switch rec.Code {
		case http.StatusOK:
			var d policy.Decision
			if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil {
				t.Fatalf("200 with an undecodable decision %q: %v", rec.Body, err)
			}
			if !json.Valid(body) {
				t.Fatalf("invalid JSON %q decided as %s", body, d.Verdict)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
			if errorOf(t, rec) == "" {
				t.Fatalf("status %d without a message", rec.Code)
			}
		default:
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body)
		}
	})
}

// FuzzAnswer: no id or body answers an approval that does not exist, and
// nothing panics.
func FuzzAnswer(f *testing.F) {
	f.Add("AAAAAAAAAAAAAAAAAAAAAA", []byte(`{"approved":true,"scope":"always"}`))
	f.Add("../etc", []byte(`{"approved":true}`))
	f.Add("AAAAAAAAAAAAAAAAAAAAAA", []byte(`{"approved":"yes"}`))
	f.Add("%00", []byte(`{}`))
	s := newTestServer(f, Options{})
	f.Fuzz(func(t *testing.T, id string, body []byte) {
		if len(id) > 64 || !validPathSegment(id) {
			return
		}
		rec := do(t, s.Handler(), "POST", "/v1/approvals/"+id, string(body), pageHeaders)
		switch rec.Code {
		case http.StatusBadRequest, http.StatusNotFound, http.StatusUnsupportedMediaType, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("id %q body %q: status %d %s", id, body, rec.Code, rec.Body)
		}
	})
}

// validPathSegment keeps ids httptest.NewRequest can put in a URL path.
func validPathSegment(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || c == '/' || c == '?' || c == '#' || c == '%' {
			return false
		}
	}
	return s != "" && s != "." && s != ".."
}
