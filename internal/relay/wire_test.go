package relay_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/relay"
)

// allBytes is every byte value once: binary input must pass unchanged.
func allBytes() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// exactBytes compares byte slices quickly (cmp's reflection walk takes
// seconds over 16 MiB) and still tells nil from empty.
var exactBytes = cmp.Comparer(func(a, b []byte) bool { return (a == nil) == (b == nil) && bytes.Equal(a, b) })

// manyArgs is MaxArgs arguments, each different.
func manyArgs() []string {
	args := make([]string, relay.MaxArgs)
	for i := range args {
		args[i] = "arg-" + strconv.Itoa(i)
	}
	return args
}

// requestCases are requests as the reader returns them: no arguments read
// back as nil, and standard input always as a non-nil slice.
var requestCases = []struct {
	name string
	req  relay.Request
}{
	{"empty", relay.Request{Stdin: []byte{}}},
	{"args, empty stdin", relay.Request{Args: []string{"hook", "claude-code"}, Stdin: []byte{}}},
	{"no args, stdin", relay.Request{Stdin: []byte(`{"tool_name":"Bash"}`)}},
	{"empty argument", relay.Request{Args: []string{"", "x", ""}, Stdin: []byte("in")}},
	{"binary stdin", relay.Request{Args: []string{"hook", "codex"}, Stdin: allBytes()}},
	{"most arguments", relay.Request{Args: manyArgs(), Stdin: []byte{0}}},
	{"longest argument", relay.Request{Args: []string{strings.Repeat("a", relay.MaxArgLen)}, Stdin: []byte{}}},
	{"largest stdin", relay.Request{Args: []string{"hook"}, Stdin: bytes.Repeat([]byte{0xff}, relay.MaxStdin)}},
}

func TestRequestRoundTrip(t *testing.T) {
	for _, tc := range requestCases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := relay.WriteRequest(&buf, tc.req); err != nil {
				t.Fatalf("WriteRequest: %v", err)
			}
			encoded := buf.Len()
			got, err := relay.ReadRequest(&buf)
			if err != nil {
				t.Fatalf("ReadRequest: %v", err)
			}
			if diff := cmp.Diff(tc.req, got, exactBytes); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
			if want := wantRequestSize(tc.req); encoded != want {
				t.Errorf("encoded %d bytes, want %d", encoded, want)
			}
			if buf.Len() != 0 {
				t.Errorf("ReadRequest left %d bytes of its own message unread", buf.Len())
			}
		})
	}
}

// wantRequestSize is the size of a request on the wire: the magic, the
// argument count, each argument and stdin with a 4-byte length.
func wantRequestSize(r relay.Request) int {
	n := 4 + 4 + 4 + len(r.Stdin)
	for _, a := range r.Args {
		n += 4 + len(a)
	}
	return n
}

var responseCases = []struct {
	name string
	resp relay.Response
}{
	{"empty", relay.Response{Stdout: []byte{}, Stderr: []byte{}}},
	{"deny", relay.Response{Code: 2, Stdout: []byte{}, Stderr: []byte("toolguard: blocked\n")}},
	{"allow with output", relay.Response{Stdout: []byte(`{"decision":"allow"}` + "\n"), Stderr: []byte{}}},
	{"binary output", relay.Response{Code: 1, Stdout: allBytes(), Stderr: allBytes()}},
	{"largest code", relay.Response{Code: 1<<31 - 1, Stdout: []byte{}, Stderr: []byte{}}},
	{"largest output", relay.Response{Stdout: bytes.Repeat([]byte{'o'}, relay.MaxOutput), Stderr: bytes.Repeat([]byte{'e'}, relay.MaxOutput)}},
}

func TestResponseRoundTrip(t *testing.T) {
	for _, tc := range responseCases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := relay.WriteResponse(&buf, tc.resp); err != nil {
				t.Fatalf("WriteResponse: %v", err)
			}
			if want := 4 + 4 + 4 + len(tc.resp.Stdout) + 4 + len(tc.resp.Stderr); buf.Len() != want {
				t.Errorf("encoded %d bytes, want %d", buf.Len(), want)
			}
			got, err := relay.ReadResponse(&buf)
			if err != nil {
				t.Fatalf("ReadResponse: %v", err)
			}
			if diff := cmp.Diff(tc.resp, got, exactBytes); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWireBytes pins the format itself: a change to it must come with a
// new magic, or old launchers and new daemons would misread each other.
func TestWireBytes(t *testing.T) {
	var req, resp bytes.Buffer
	if err := relay.WriteRequest(&req, relay.Request{Args: []string{"hook", "x"}, Stdin: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if err := relay.WriteResponse(&resp, relay.Response{Code: 2, Stdout: []byte("o"), Stderr: []byte("er")}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		got, want []byte
	}{
		{"request", req.Bytes(), []byte("TGR1\x00\x00\x00\x02\x00\x00\x00\x04hook\x00\x00\x00\x01x\x00\x00\x00\x02{}")},
		{"response", resp.Bytes(), []byte("TGR1\x00\x00\x00\x02\x00\x00\x00\x01o\x00\x00\x00\x02er")},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s bytes (-want +got):\n%s", tc.name, diff)
		}
	}
}

// TestTruncated cuts a valid message at every byte offset: each prefix is
// io.ErrUnexpectedEOF, including the empty one.
func TestTruncated(t *testing.T) {
	var req, resp bytes.Buffer
	if err := relay.WriteRequest(&req, relay.Request{Args: []string{"hook", "", "claude-code"}, Stdin: []byte("{\x00}")}); err != nil {
		t.Fatal(err)
	}
	if err := relay.WriteResponse(&resp, relay.Response{Code: 2, Stdout: []byte("out"), Stderr: []byte("err")}); err != nil {
		t.Fatal(err)
	}
	decoders := []struct {
		name   string
		msg    []byte
		decode func(io.Reader) error
	}{
		{"request", req.Bytes(), func(r io.Reader) error { _, err := relay.ReadRequest(r); return err }},
		{"response", resp.Bytes(), func(r io.Reader) error { _, err := relay.ReadResponse(r); return err }},
	}
	for _, d := range decoders {
		for n := range len(d.msg) {
			err := d.decode(bytes.NewReader(d.msg[:n]))
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Errorf("%s cut after %d of %d bytes: error %v, want %v", d.name, n, len(d.msg), err, io.ErrUnexpectedEOF)
			}
		}
		if err := d.decode(bytes.NewReader(d.msg)); err != nil {
			t.Errorf("%s whole: %v", d.name, err)
		}
	}
}

// header builds a message from the magic and the given 32-bit fields.
func header(magic string, fields ...uint32) []byte {
	b := []byte(magic)
	for _, f := range fields {
		b = binary.BigEndian.AppendUint32(b, f)
	}
	return b
}

// endless is a reader of zeros that counts what it gives: a decoder that
// trusted a length would read far into it.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += len(p)
	return len(p), nil
}

// TestMalformed feeds headers a decoder must refuse. Each claimed length
// is followed by an endless stream, so a decoder that believed it would
// allocate and read it: the refusal must come first, reading no more than
// the header and allocating next to nothing.
func TestMalformed(t *testing.T) {
	const huge = 1<<32 - 1 // 4 GiB
	tests := []struct {
		name     string
		response bool
		msg      []byte
	}{
		{"request wrong magic", false, header("TGR2", 0, 0)},
		{"request lower-case magic", false, header("tgr1", 0, 0)},
		{"request from an HTTP client", false, []byte("GET / HTTP/1.1\r\n")},
		{"request 4 GiB of arguments", false, header("TGR1", huge)},
		{"request one argument too many", false, header("TGR1", relay.MaxArgs+1)},
		{"request 4 GiB argument", false, header("TGR1", 1, huge)},
		{"request argument one byte too long", false, header("TGR1", 1, relay.MaxArgLen+1)},
		{"request second argument too long", false, binary.BigEndian.AppendUint32(append(header("TGR1", 2, 1), 'x'), relay.MaxArgLen+1)},
		{"request 4 GiB stdin", false, header("TGR1", 0, huge)},
		{"request stdin one byte too long", false, header("TGR1", 0, relay.MaxStdin+1)},
		{"response wrong magic", true, header("TGR0", 0, 0, 0)},
		{"response negative code", true, header("TGR1", 1<<31)},
		{"response code 4G-1", true, header("TGR1", huge)},
		{"response 4 GiB stdout", true, header("TGR1", 0, huge)},
		{"response stdout one byte too long", true, header("TGR1", 0, relay.MaxOutput+1)},
		{"response 4 GiB stderr", true, header("TGR1", 0, 0, huge)},
		{"response stderr one byte too long", true, header("TGR1", 0, 0, relay.MaxOutput+1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rest := &endless{}
			r := io.MultiReader(bytes.NewReader(tc.msg), rest)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var err error
			if tc.response {
				_, err = relay.ReadResponse(r)
			} else {
				_, err = relay.ReadRequest(r)
			}
			runtime.ReadMemStats(&after)
			if !errors.Is(err, relay.ErrFormat) {
				t.Errorf("error %v, want %v", err, relay.ErrFormat)
			}
			if rest.n != 0 {
				t.Errorf("read %d bytes past the header", rest.n)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<10 {
				t.Errorf("allocated %d bytes before refusing", alloc)
			}
		})
	}
}

// TestWriteRefused checks that a message over a limit, or with an exit
// code the format cannot carry, is refused and nothing is written.
func TestWriteRefused(t *testing.T) {
	tooManyArgs := append(manyArgs(), "one more")
	tests := []struct {
		name  string
		write func(io.Writer) error
		want  string
	}{
		{"one argument too many", func(w io.Writer) error {
			return relay.WriteRequest(w, relay.Request{Args: tooManyArgs})
		}, "relay: request over the size limits"},
		{"argument one byte too long", func(w io.Writer) error {
			return relay.WriteRequest(w, relay.Request{Args: []string{"hook", strings.Repeat("a", relay.MaxArgLen+1)}})
		}, "relay: argument over 65536 bytes"},
		{"stdin one byte too long", func(w io.Writer) error {
			return relay.WriteRequest(w, relay.Request{Stdin: make([]byte, relay.MaxStdin+1)})
		}, "relay: request over the size limits"},
		{"negative code", func(w io.Writer) error {
			return relay.WriteResponse(w, relay.Response{Code: -1})
		}, "relay: response over the size limits"},
		{"most negative code", func(w io.Writer) error {
			return relay.WriteResponse(w, relay.Response{Code: -1 << 31})
		}, "relay: response over the size limits"},
		{"code over int32", func(w io.Writer) error {
			return relay.WriteResponse(w, relay.Response{Code: 1 << 31})
		}, "relay: response over the size limits"},
		{"code that wraps to zero", func(w io.Writer) error {
			return relay.WriteResponse(w, relay.Response{Code: 1 << 32})
		}, "relay: response over the size limits"},
		{"stdout one byte too long", func(w io.Writer) error {
			return relay.WriteResponse(w, relay.Response{Stdout: make([]byte, relay.MaxOutput+1)})
		}, "relay: response over the size limits"},
		{"stderr one byte too long", func(w io.Writer) error {
			return relay.WriteResponse(w, relay.Response{Stderr: make([]byte, relay.MaxOutput+1)})
		}, "relay: response over the size limits"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := tc.write(&buf)
			if err == nil {
				t.Fatalf("written (%d bytes), want the error %q", buf.Len(), tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes of a refused message", buf.Len())
			}
		})
	}
}

// failingWriter refuses every write.
type failingWriter struct{}

var errWrite = errors.New("write refused")

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestWriteErrorPassedOn(t *testing.T) {
	if err := relay.WriteRequest(failingWriter{}, relay.Request{}); !errors.Is(err, errWrite) {
		t.Errorf("WriteRequest: %v, want %v", err, errWrite)
	}
	if err := relay.WriteResponse(failingWriter{}, relay.Response{}); !errors.Is(err, errWrite) {
		t.Errorf("WriteResponse: %v, want %v", err, errWrite)
	}
}
