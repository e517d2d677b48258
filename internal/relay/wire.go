package relay

import (
	"encoding/binary"
	"errors"
	"io"
	"strconv"
)

// Limits of the wire format. A message over a limit is refused before
// anything is allocated for it.
const (
	MaxArgs   = 64        // arguments of one command
	MaxArgLen = 64 << 10  // bytes of one argument
	MaxStdin  = 8 << 20   // bytes of standard input (the hook reads at most 4 MiB + 1)
	MaxOutput = 16 << 20  // bytes of standard output, and of standard error
	magic     = "TGR1"    // names the protocol and its version
	maxCode   = 1<<31 - 1 // exit codes are non-negative int32s
)

// Request is one command for the engine: its arguments (without the
// program name) and everything it reads on standard input.
type Request struct {
	Args  []string
	Stdin []byte
}

// Response is what the command printed and its exit code.
type Response struct {
	Code   int
	Stdout []byte
	Stderr []byte
}

// ErrFormat reports a message that is not a well-formed relay message.
var ErrFormat = errors.New("relay: malformed message")

// WriteRequest writes r in the wire format.
func WriteRequest(w io.Writer, r Request) error {
	if len(r.Args) > MaxArgs || len(r.Stdin) > MaxStdin {
		return errors.New("relay: request over the size limits")
	}
	b := append([]byte(magic), u32(len(r.Args))...)
	for _, a := range r.Args {
		if len(a) > MaxArgLen {
			return errors.New("relay: argument over " + strconv.Itoa(MaxArgLen) + " bytes")
		}
		b = appendBytes(b, []byte(a))
	}
	b = appendBytes(b, r.Stdin)
	_, err := w.Write(b)
	return err
}

// ReadRequest reads one request written by WriteRequest.
func ReadRequest(r io.Reader) (Request, error) {
	var req Request
	if err := readMagic(r); err != nil {
		return req, err
	}
	n, err := readLen(r, MaxArgs)
	if err != nil {
		return req, err
	}
	for range n {
		a, err := readBytes(r, MaxArgLen)
		if err != nil {
			return req, err
		}
		req.Args = append(req.Args, string(a))
	}
	req.Stdin, err = readBytes(r, MaxStdin)
	return req, err
}

// WriteResponse writes r in the wire format.
func WriteResponse(w io.Writer, r Response) error {
	if r.Code < 0 || r.Code > maxCode || len(r.Stdout) > MaxOutput || len(r.Stderr) > MaxOutput {
		return errors.New("relay: response over the size limits")
	}
	b := append([]byte(magic), u32(r.Code)...)
	b = appendBytes(b, r.Stdout)
	b = appendBytes(b, r.Stderr)
	_, err := w.Write(b)
	return err
}

// ReadResponse reads one response written by WriteResponse.
func ReadResponse(r io.Reader) (Response, error) {
	var resp Response
	if err := readMagic(r); err != nil {
		return resp, err
	}
	code, err := readLen(r, maxCode)
	if err != nil {
		return resp, err
	}
	resp.Code = code
	if resp.Stdout, err = readBytes(r, MaxOutput); err != nil {
		return resp, err
	}
	resp.Stderr, err = readBytes(r, MaxOutput)
	return resp, err
}

func u32(n int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(n)) }

func appendBytes(b, data []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

func readMagic(r io.Reader) error {
	var m [len(magic)]byte
	if _, err := io.ReadFull(r, m[:]); err != nil {
		return unexpected(err)
	}
	if string(m[:]) != magic {
		return ErrFormat
	}
	return nil
}

// readLen reads a big-endian uint32 and refuses values over max.
func readLen(r io.Reader, max int) (int, error) {
	var b [4]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return 0, unexpected(err)
	}
	n := binary.BigEndian.Uint32(b[:])
	if uint64(n) > uint64(max) {
		return 0, ErrFormat
	}
	return int(n), nil
}

func readBytes(r io.Reader, max int) ([]byte, error) {
	n, err := readLen(r, max)
	if err != nil {
		return nil, err
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, unexpected(err)
	}
	return b, nil
}

// unexpected turns a clean EOF inside a message into ErrUnexpectedEOF: a
// message cut short is never a complete one.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
