package relay_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/relay"
)

// checkDecodeError fails unless err is one of the two errors a decoder
// may return for bytes in memory.
func checkDecodeError(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, relay.ErrFormat) {
		t.Fatalf("error %v, want %v or %v", err, io.ErrUnexpectedEOF, relay.ErrFormat)
	}
}

// FuzzReadRequest decodes arbitrary bytes. A decoded request re-encodes
// to exactly the bytes it was read from (the format has one encoding per
// value) and decodes again to the same value.
func FuzzReadRequest(f *testing.F) {
	for _, tc := range requestCases[:5] {
		var buf bytes.Buffer
		if err := relay.WriteRequest(&buf, tc.req); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		req, err := relay.ReadRequest(r)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		var buf bytes.Buffer
		if err := relay.WriteRequest(&buf, req); err != nil {
			t.Fatalf("a decoded request does not encode: %v", err)
		}
		if read := data[:len(data)-r.Len()]; !bytes.Equal(buf.Bytes(), read) {
			t.Fatalf("re-encoded as %q, read from %q", buf.Bytes(), read)
		}
		again, err := relay.ReadRequest(&buf)
		if err != nil {
			t.Fatalf("a re-encoded request does not decode: %v", err)
		}
		if diff := cmp.Diff(req, again, exactBytes); diff != "" {
			t.Fatalf("decode, encode, decode (-first +second):\n%s", diff)
		}
	})
}

// FuzzReadResponse is FuzzReadRequest for responses.
func FuzzReadResponse(f *testing.F) {
	for _, tc := range responseCases[:5] {
		var buf bytes.Buffer
		if err := relay.WriteResponse(&buf, tc.resp); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bytes.NewReader(data)
		resp, err := relay.ReadResponse(r)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		var buf bytes.Buffer
		if err := relay.WriteResponse(&buf, resp); err != nil {
			t.Fatalf("a decoded response does not encode: %v", err)
		}
		if read := data[:len(data)-r.Len()]; !bytes.Equal(buf.Bytes(), read) {
			t.Fatalf("re-encoded as %q, read from %q", buf.Bytes(), read)
		}
		again, err := relay.ReadResponse(&buf)
		if err != nil {
			t.Fatalf("a re-encoded response does not decode: %v", err)
		}
		if diff := cmp.Diff(resp, again, exactBytes); diff != "" {
			t.Fatalf("decode, encode, decode (-first +second):\n%s", diff)
		}
	})
}
