package server

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const leanTestMax = 1 << 20

// leanGot is what the parser made of an accepted head, for comparison.
type leanGot struct {
	Size          int
	Path, Host    string
	ContentLength int64
	Close         bool
	Header        http.Header
}

func leanGotOf(h leanHead) leanGot {
	return leanGot{h.size, h.path, h.host, h.contentLength, h.close, h.header()}
}

func TestLeanHeadAccepts(t *testing.T) {
	cases := []struct {
		name, in string
		want     leanGot
	}{
		{"decide", "POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1:7878\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
			leanGot{Size: 101, Path: "/v1/decide", Host: "127.0.0.1:7878", ContentLength: 2,
				Header: http.Header{"Content-Type": {"application/json"}, "Content-Length": {"2"}}}},
		{"hook, every field, odd case and spaces", "POST /v1/hooks/claude-code HTTP/1.1\r\nhOsT:localhost\r\ncontent-length: \t17 \r\nUser-Agent: Go-http-client/1.1\r\n" +
			"Accept: */*\r\nAccept-Encoding: gzip\r\nAuthorization: Bearer abc\r\nConnection: Keep-Alive\r\nContent-Type: application/json\r\n\r\n",
			leanGot{Size: 228, Path: "/v1/hooks/claude-code", Host: "localhost", ContentLength: 17,
				Header: http.Header{"Content-Length": {"17"}, "User-Agent": {"Go-http-client/1.1"}, "Accept": {"*/*"}, "Accept-Encoding": {"gzip"},
					"Authorization": {"Bearer abc"}, "Connection": {"Keep-Alive"}, "Content-Type": {"application/json"}}}},
		{"close", "POST /v1/decide HTTP/1.1\r\nHost: [::1]:80\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
			leanGot{Size: 82, Path: "/v1/decide", Host: "[::1]:80", Close: true,
				Header: http.Header{"Content-Length": {"0"}, "Connection": {"close"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, complete, ok := parseLeanHead([]byte(tc.in), leanTestMax)
			if !complete || !ok {
				t.Fatalf("complete %v ok %v, want both", complete, ok)
			}
			if diff := cmp.Diff(tc.want, leanGotOf(h)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			checkAsNetHTTP(t, []byte(tc.in))
		})
	}
}

func TestLeanHeadRefuses(t *testing.T) {
	const ok = "POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n"
	cases := map[string]string{
		"transfer-encoding and length": ok + "Transfer-Encoding: chunked\r\n\r\n",
		"transfer-encoding alone":      "POST /v1/decide HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
		"two lengths":                  ok + "Content-Length: 2\r\n\r\n",
		"two lengths in one":           "POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2, 2\r\n\r\n",
		"signed length":                "POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: +2\r\n\r\n",
		"long length":                  "POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 0000000002\r\n\r\n",
		"length past the limit":        "POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n",
		"no length":                    "POST /v1/decide HTTP/1.1\r\nHost: h\r\n\r\n",
		"no host":                      "POST /v1/decide HTTP/1.1\r\nContent-Length: 2\r\n\r\n",
		"two hosts":                    ok + "Host: h\r\n\r\n",
		"empty host":                   "POST /v1/decide HTTP/1.1\r\nHost: \r\nContent-Length: 2\r\n\r\n",
		"host with a slash":            "POST /v1/decide HTTP/1.1\r\nHost: a/b\r\nContent-Length: 2\r\n\r\n",
		"folded line":                  ok + "Content-Type: application/json\r\n x\r\n\r\n",
		"space before colon":           ok + "Content-Type : application/json\r\n\r\n",
		"bare LF ending":               "POST /v1/decide HTTP/1.1\nHost: h\nContent-Length: 2\n\n",
		"bare LF inside":               ok + "Accept: a\nX: y\r\n\r\n",
		"bare LF head end":             ok + "Accept: a\n\n\r\n\r\n",
		"bare CR":                      ok + "Accept: a\rb\r\n\r\n",
		"NUL":                          ok + "Accept: a\x00\r\n\r\n",
		"non-ASCII":                    ok + "Accept: caf\xc3\xa9\r\n\r\n",
		"expect":                       ok + "Expect: 100-continue\r\n\r\n",
		"origin":                       ok + "Origin: http://evil.example\r\n\r\n",
		"sec-fetch-site":               ok + "Sec-Fetch-Site: cross-site\r\n\r\n",
		"cookie":                       ok + "Cookie: toolguard_token=x\r\n\r\n",
		"upgrade":                      ok + "Upgrade: h2c\r\n\r\n",
		"connection upgrade":           ok + "Connection: Upgrade\r\n\r\n",
		"GET":                          "GET /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"lower-case method":            "post /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"HTTP/1.0":                     "POST /v1/decide HTTP/1.0\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"query":                        "POST /v1/decide?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"absolute form":                "POST http://h/v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"escaped path":                 "POST /v1/hooks/claude%2Dcode HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"dot segment":                  "POST /v1/hooks/../decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"other path":                   "POST /v1/authorize HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"two spaces":                   "POST  /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"leading empty line":           "\r\nPOST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n",
		"long head":                    ok + "Accept: " + strings.Repeat("a", leanMaxHead) + "\r\n\r\n",
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			if _, complete, ok := parseLeanHead([]byte(in), leanTestMax); !complete || ok {
				t.Errorf("complete %v ok %v, want complete and refused", complete, ok)
			}
		})
	}
}

func TestLeanHeadIncomplete(t *testing.T) {
	full := "POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n"
	for i := range len(full) - 1 {
		if _, complete, ok := parseLeanHead([]byte(full[:i]), leanTestMax); complete || ok {
			t.Fatalf("%q: complete %v ok %v, want neither", full[:i], complete, ok)
		}
	}
	if _, complete, _ := parseLeanHead([]byte(strings.Repeat("a", leanMaxHead)), leanTestMax); !complete {
		t.Error("a head of leanMaxHead bytes without its end is not complete")
	}
}

// checkAsNetHTTP fails unless net/http reads the request accepted from in
// exactly as the lean parser did: the same method, path, host, length,
// header and close, no transfer coding, and the head of the same size.
func checkAsNetHTTP(t *testing.T, in []byte) {
	t.Helper()
	h, _, ok := parseLeanHead(in, leanTestMax)
	if !ok {
		return
	}
	br := bufio.NewReader(bytes.NewReader(in))
	req, err := http.ReadRequest(br)
	if err != nil {
		t.Fatalf("lean accepts %q, net/http refuses it: %v", in, err)
	}
	want := leanGot{Size: len(in) - br.Buffered(), Path: req.URL.Path, Host: req.Host, ContentLength: req.ContentLength, Close: req.Close, Header: req.Header}
	if diff := cmp.Diff(want, leanGotOf(h)); diff != "" {
		t.Fatalf("%q: net/http (-) and lean (+) differ:\n%s", in, diff)
	}
	if req.Method != http.MethodPost || req.URL.RawQuery != "" || req.URL.RawPath != "" || len(req.TransferEncoding) > 0 || req.ProtoMinor != 1 {
		t.Fatalf("%q: net/http reads %s %s?%s %s, transfer coding %v", in, req.Method, req.URL.Path, req.URL.RawQuery, req.Proto, req.TransferEncoding)
	}
	body, err := io.ReadAll(req.Body)
	rest := in[h.size:]
	if int64(len(rest)) >= h.contentLength {
		if err != nil || !bytes.Equal(body, rest[:h.contentLength]) {
			t.Fatalf("%q: net/http's body %q (%v), lean's %q", in, body, err, rest[:h.contentLength])
		}
	}
}

// FuzzLeanHead checks that every head the lean parser accepts is read by
// net/http the same way (see checkAsNetHTTP), and that the parser never
// panics.
func FuzzLeanHead(f *testing.F) {
	for _, s := range []string{
		"POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1:7878\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
		"POST /v1/hooks/claude-code HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nConnection: close\r\nAuthorization: Bearer x\r\n\r\nabcPOST",
		"POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		"POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n Content-Length: 9\r\n\r\nx",
		"POST /v1/decide HTTP/1.1\r\nHost: h\nContent-Length: 1\r\n\r\nx",
		"POST /v1/decide HTTP/1.1\r\nHost: h\r\nAccept-Encoding: gzip\r\nUser-Agent: a b\tc\r\nContent-Length: 0\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkAsNetHTTP(t, in)
	})
}

func BenchmarkParseLeanHead(b *testing.B) {
	in := []byte("POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1:7878\r\nUser-Agent: Go-http-client/1.1\r\nContent-Length: 93\r\nContent-Type: application/json\r\nAccept-Encoding: gzip\r\n\r\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := parseLeanHead(in, leanTestMax); !ok {
			b.Fatal("refused")
		}
	}
}

// TestLeanFieldIndex checks the look-up by length against a comparison with
// every field: each field's name in several cases, and names of every
// length up to 20 that differ from one in a byte.
func TestLeanFieldIndex(t *testing.T) {
	linear := func(name string) int {
		for i := range leanFields {
			if strings.EqualFold(name, leanFields[i].lower) {
				return i
			}
		}
		return -1
	}
	var names []string
	for _, f := range leanFields {
		names = append(names, f.lower, f.canonical, strings.ToUpper(f.lower))
		for i := range len(f.lower) {
			b := []byte(f.lower)
			b[i] ^= 0x01
			names = append(names, string(b), f.lower[:i], f.lower[i:]+"x")
		}
	}
	for n := range 21 {
		names = append(names, strings.Repeat("a", n), strings.Repeat("-", n))
	}
	for _, name := range names {
		if got, want := leanFieldIndex(name), linear(name); got != want {
			t.Errorf("leanFieldIndex(%q) = %d, want %d", name, got, want)
		}
	}
	for i, f := range leanFields {
		if leanFieldIndex(f.canonical) != i {
			t.Errorf("field %q is not found by its length", f.canonical)
		}
	}
}

// TestPlainHeadEnd holds plainHeadEnd to exact ends, and to -1 where the
// head is cut short, has a byte plainLines refuses, or ends too late.
func TestPlainHeadEnd(t *testing.T) {
	head := "POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n"
	long := "POST /v1/decide HTTP/1.1\r\nAccept: " + strings.Repeat("a", leanMaxHead-40) + "\r\n"
	cases := []struct {
		name, in string
		want     int
	}{
		{"whole", head + "\r\n{}", len(head) - 2},
		{"whole, body not yet", head + "\r\n", len(head) - 2},
		{"tab in a value", "POST /v1/decide HTTP/1.1\r\nUser-Agent: a\tb\r\n\r\n", 41},
		{"end of a line at a word's edge", "POST /v1/decide HTTP/1.1\r\nX: ab\r\n\r\n", 31},
		{"last CR alone", head + "\r", -1},
		{"last CRLF CR", head[:len(head)-1], -1},
		{"no end yet", head, -1},
		{"empty", "", -1},
		{"bare CR", "POST /v1/decide HTTP/1.1\r\nX: a\rb\r\n\r\n", -1},
		{"bare LF", "POST /v1/decide HTTP/1.1\nX: a\r\n\r\n", -1},
		{"NUL", "POST /v1/decide HTTP/1.1\r\nX: a\x00\r\n\r\n", -1},
		{"DEL", "POST /v1/decide HTTP/1.1\r\nX: a\x7f\r\n\r\n", -1},
		{"non-ASCII", "POST /v1/decide HTTP/1.1\r\nX: caf\xc3\xa9\r\n\r\n", -1},
		{"non-ASCII in the body only", head + "\r\n\xc3\xa9", len(head) - 2},
		{"end at the limit", long + strings.Repeat("b", leanMaxHead-len(long)-2) + "\r\n\r\n", leanMaxHead - 2},
		{"end past the limit", long + strings.Repeat("b", leanMaxHead-len(long)) + "\r\n\r\n", -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := plainHeadEnd([]byte(tc.in)); got != tc.want {
				t.Errorf("plainHeadEnd = %d, want %d", got, tc.want)
			}
			checkPlainHeadEnd(t, []byte(tc.in))
		})
	}
}

// checkPlainHeadEnd fails unless plainHeadEnd finds the end bytes.Index
// finds exactly when plainLines accepts the lines before it and the end
// is within leanMaxHead bytes (one past it: the size check refuses that).
func checkPlainHeadEnd(t *testing.T, in []byte) {
	t.Helper()
	end := bytes.Index(in, []byte("\r\n\r\n"))
	want := -1
	if end >= 0 && end+2 <= leanMaxHead && plainLines(in[:end+2]) {
		want = end
	}
	if got := plainHeadEnd(in); got != want {
		t.Fatalf("%q: plainHeadEnd = %d, want %d", in, got, want)
	}
}

// FuzzPlainHeadEnd checks plainHeadEnd against bytes.Index and plainLines
// (checkPlainHeadEnd).
func FuzzPlainHeadEnd(f *testing.F) {
	f.Add([]byte("POST /v1/decide HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}"))
	f.Add([]byte("POST /v1/decide HTTP/1.1\r\nX: a\x7f\r\n\r\n"))
	f.Add([]byte("ab\tcdefgh\r\n\r\r\n\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		checkPlainHeadEnd(t, in)
	})
}

// TestLeanFieldConstants holds the indexes field switches on to their
// names.
func TestLeanFieldConstants(t *testing.T) {
	got := []string{leanFields[fieldHost].lower, leanFields[fieldContentLength].lower, leanFields[fieldConnection].lower}
	if diff := cmp.Diff([]string{"host", "content-length", "connection"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestTokenBytes holds isTokenByte to RFC 9110's token bytes, for every
// byte.
func TestTokenBytes(t *testing.T) {
	const want = "!#$%&'*+-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ^_`abcdefghijklmnopqrstuvwxyz|~"
	var got []byte
	for c := range 256 {
		if isTokenByte(byte(c)) {
			got = append(got, byte(c))
		}
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("token bytes (-want +got):\n%s", diff)
	}
}
