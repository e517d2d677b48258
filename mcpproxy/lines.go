package mcpproxy

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// MaxMessageBytes is the largest message the proxy relays in either
// direction. A longer line from the client is answered with an error and
// dropped; a longer one from the server ends the session like a crash.
const MaxMessageBytes = 64 << 20

// errTooLong reports a line over MaxMessageBytes; the reader has skipped it.
var errTooLong error = tooLongError{}

// tooLongError is the type of errTooLong, whose message is formatted when
// it is read rather than at start-up.
type tooLongError struct{}

func (tooLongError) Error() string {
	return fmt.Sprintf("message longer than %d bytes", MaxMessageBytes)
}

// lineReader reads newline-delimited messages of bounded size.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: MaxMessageBytes}
}

// next returns the next line without its line ending. Blank lines are
// skipped. A final line without a newline is returned before io.EOF.
func (l *lineReader) next() ([]byte, error) {
	for {
		line, err := l.read()
		if err != nil && (len(line) == 0 || !errors.Is(err, io.EOF)) {
			return nil, err
		}
		if line = bytes.TrimRight(line, "\r\n"); len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (l *lineReader) read() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := l.r.ReadSlice('\n')
		if len(buf)+len(chunk) > l.max {
			return nil, l.skip(err)
		}
		buf = append(buf, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}

// skip discards the rest of an over-long line.
func (l *lineReader) skip(err error) error {
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = l.r.ReadSlice('\n')
	}
	if err != nil {
		return err
	}
	return errTooLong
}

// lineWriter writes whole messages, one per line, from many goroutines.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// write sends msg and a newline in one Write. After the first failure it
// keeps returning that error.
func (l *lineWriter) write(msg []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writeLocked(msg)
}

func (l *lineWriter) writeLocked(msg []byte) error {
	if l.err != nil {
		return l.err
	}
	buf := make([]byte, 0, len(msg)+1)
	buf = append(append(buf, msg...), '\n')
	_, l.err = l.w.Write(buf)
	return l.err
}
