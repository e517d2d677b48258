package sandbox

import (
	"io"
	"os"
	"sync"
)

// tailSize is how much of the start and of the end of stderr is kept to
// recognise how the command died (e.g. "out of memory" before a stack dump).
const tailSize = 4096

// stream copies one output pipe of the command into the caller's writer,
// up to a limit, draining and dropping the rest so the command never blocks
// on a full pipe.
type stream struct {
	dst       io.Writer // nil: discard
	limit     int64     // < 0: unlimited
	written   int64
	truncated bool
	head      []byte // first tailSize bytes seen, when keepTail
	tail      []byte // last tailSize bytes seen, when keepTail
	keepTail  bool
	src       *os.File // the parent's end of the pipe
	done      chan struct{}
}

func newStream(dst io.Writer, limit int64, keepTail bool, src *os.File) *stream {
	return &stream{dst: dst, limit: limit, keepTail: keepTail, src: src, done: make(chan struct{})}
}

// copy reads the pipe until EOF or error, then closes it and signals done.
func (s *stream) copy() {
	defer close(s.done)
	defer s.src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := s.src.Read(buf)
		if n > 0 {
			s.accept(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// accept forwards what fits under the limit and remembers the tail.
func (s *stream) accept(p []byte) {
	if s.keepTail {
		if n := min(tailSize-len(s.head), len(p)); n > 0 {
			s.head = append(s.head, p[:n]...)
		}
		s.tail = append(s.tail, p...)
		if len(s.tail) > tailSize {
			s.tail = s.tail[len(s.tail)-tailSize:]
		}
	}
	if s.limit >= 0 && s.written+int64(len(p)) > s.limit {
		p = p[:s.limit-s.written]
		s.truncated = true
	}
	if len(p) == 0 || s.dst == nil {
		s.written += int64(len(p))
		return
	}
	n, err := s.dst.Write(p)
	s.written += int64(n)
	if err != nil {
		s.dst = nil // the caller's writer failed; keep draining
	}
}

// syncWriter serialises writes when Stdout and Stderr are the same writer.
type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (s syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// outputWriters wraps stdout and stderr with one shared lock, so that a
// writer passed as both is never written concurrently.
func outputWriters(stdout, stderr io.Writer) (io.Writer, io.Writer) {
	if stdout == nil || stderr == nil {
		return stdout, stderr
	}
	mu := &sync.Mutex{}
	return syncWriter{mu, stdout}, syncWriter{mu, stderr}
}

// ends returns the kept start and end of the stream.
func (s *stream) ends() []byte {
	return append(append(append([]byte(nil), s.head...), '\n'), s.tail...)
}
