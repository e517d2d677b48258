package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// requireJSONTypeSlow is requireJSONType without its fast path: the
// reference it must agree with.
func requireJSONTypeSlow(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

func checkJSONType(t *testing.T, ct string) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/v1/decide", nil)
	r.Header.Set("Content-Type", ct)
	got := requireJSONType(r) == nil
	if want := requireJSONTypeSlow(ct); got != want {
		t.Fatalf("requireJSONType(%q) accepts = %v, mime.ParseMediaType says %v", ct, got, want)
	}
}

// TestRequireJSONTypeFastPath: every case variant of application/json, with
// and without parameters, spaces and look-alike letters, is accepted or
// refused exactly as mime.ParseMediaType decides.
func TestRequireJSONTypeFastPath(t *testing.T) {
	cases := []string{"", "application/json", "application/json; charset=utf-8", "application/json ",
		" application/json", "application/jsonx", "application/jso", "text/json", "application/json;",
		"application/j\u017fon", "appli\u212aation/json", "application/json\x00", "application/*"}
	rng := rand.New(rand.NewPCG(26, 1))
	for range 2000 {
		b := []byte(jsonType)
		for i := range b {
			if rng.IntN(2) == 0 {
				b[i] = strings.ToUpper(string(b[i]))[0]
			}
		}
		if rng.IntN(8) == 0 { // a byte changed for another
			b[rng.IntN(len(b))] = byte(rng.IntN(256))
		}
		cases = append(cases, string(b))
	}
	for _, ct := range cases {
		checkJSONType(t, ct)
	}
}

func FuzzRequireJSONType(f *testing.F) {
	for _, ct := range []string{"application/json", "APPLICATION/JSON", "application/json; charset=utf-8", "text/plain"} {
		f.Add(ct)
	}
	f.Fuzz(func(t *testing.T, ct string) {
		if strings.ContainsAny(ct, "\r\n") {
			return // not a header value a request can carry
		}
		checkJSONType(t, ct)
	})
}

// readLimitedSlow is readLimited without its fast path.
func readLimitedSlow(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, max))
	if mbe, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return nil, &requestError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body larger than %d bytes", mbe.Limit)}
	}
	if err != nil {
		return nil, badRequest("could not read the request body: %v", err)
	}
	return body, nil
}

// cutReader gives the first n bytes of b, then ends as a connection cut
// short does under net/http's body reader.
type cutBody struct {
	r io.Reader
}

func (c cutBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// TestReadLimitedFastPath: bodies of every declared length around the
// limit, without one, and cut short, read the same (bytes, or error status
// and message) as through io.ReadAll and http.MaxBytesReader.
func TestReadLimitedFastPath(t *testing.T) {
	for _, max := range []int{64, 2 * presizedBody} {
		checkReadLimited(t, max)
	}
}

func checkReadLimited(t *testing.T, max int) {
	rng := rand.New(rand.NewPCG(26, uint64(max)))
	for range 3000 {
		size := rng.IntN(2*max + 2)
		if max > presizedBody && rng.IntN(2) == 0 {
			size = presizedBody - 2 + rng.IntN(5) // around the bound of the fast path
		}
		body := make([]byte, size)
		for i := range body {
			body[i] = byte('a' + rng.IntN(26))
		}
		declared := int64(size)
		switch rng.IntN(4) {
		case 0:
			declared = -1 // chunked: no length
		case 1:
			declared = int64(size + 1 + rng.IntN(4)) // the connection ends first
		}
		compareReadLimited(t, body, declared, int64(max))
	}
}

// FuzzReadLimited: any body, declared length (none, its own, or more than
// arrives) and limit read the same both ways.
func FuzzReadLimited(f *testing.F) {
	f.Add([]byte(`{"tool":"Bash"}`), int64(0), int64(64))
	f.Add([]byte("x"), int64(-1), int64(1))
	f.Add([]byte("xyz"), int64(2), int64(2))
	f.Fuzz(func(t *testing.T, body []byte, extra, max int64) {
		if max < 1 || max > 4*presizedBody || extra < -1 || extra > 8 {
			return
		}
		declared := int64(len(body)) + extra
		if extra == -1 {
			declared = -1
		}
		compareReadLimited(t, body, declared, max)
	})
}

func compareReadLimited(t *testing.T, body []byte, declared, max int64) {
	t.Helper()
	size := len(body)
	newReq := func() *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/v1/decide", nil)
		var rd io.Reader = bytes.NewReader(body)
		if declared > int64(size) {
			rd = cutBody{rd}
		} else if declared >= 0 {
			rd = io.LimitReader(rd, declared)
		}
		r.Body, r.ContentLength = io.NopCloser(rd), declared
		return r
	}
	got, gotErr := readLimited(httptest.NewRecorder(), newReq(), max)
	want, wantErr := readLimitedSlow(httptest.NewRecorder(), newReq(), max)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !bytes.Equal(got, want) {
		t.Fatalf("size %d, declared %d: readLimited = %q, %v; through io.ReadAll = %q, %v", size, declared, got, gotErr, want, wantErr)
	}
	var re1, re2 *requestError
	if errors.As(gotErr, &re1) != errors.As(wantErr, &re2) || (re1 != nil && re1.status != re2.status) {
		t.Fatalf("size %d, declared %d: error %#v, want %#v", size, declared, gotErr, wantErr)
	}
}

// TestReadLimitedOverHTTP: over a real connection, a body with its length
// is read whole, and one larger than the limit is refused as too large.
func TestReadLimitedOverHTTP(t *testing.T) {
	const max = 32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := readLimited(w, r, max)
		if err != nil {
			writeRequestError(w, err)
			return
		}
		_, _ = w.Write(body)
	}))
	defer ts.Close()
	for _, n := range []int{0, 1, max - 1, max, max + 1, 4 * max} {
		body := strings.Repeat("x", n)
		resp, err := http.Post(ts.URL, jsonType, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case n <= max && (resp.StatusCode != http.StatusOK || string(got) != body):
			t.Errorf("%d bytes: status %d, body %q", n, resp.StatusCode, got)
		case n > max && resp.StatusCode != http.StatusRequestEntityTooLarge:
			t.Errorf("%d bytes: status %d, want 413", n, resp.StatusCode)
		}
	}
}
