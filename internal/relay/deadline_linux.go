package relay

import (
	"os"
	"syscall"
	"time"
)

// DeadlineReader reads from a connection made by Connect and gives up at
// Deadline: each read waits at most the time left, so a peer that sends
// its answer a byte at a time cannot stretch the wait.
type DeadlineReader struct {
	Conn     *os.File
	Deadline time.Time
}

func (r DeadlineReader) Read(p []byte) (int, error) {
	left := time.Until(r.Deadline)
	if left < time.Millisecond { // a zero SO_RCVTIMEO would mean no limit at all
		return 0, os.ErrDeadlineExceeded
	}
	tv := syscall.NsecToTimeval(left.Nanoseconds())
	if err := syscall.SetsockoptTimeval(int(r.Conn.Fd()), syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return 0, err
	}
	n, err := r.Conn.Read(p)
	if err != nil && time.Until(r.Deadline) <= 0 {
		return n, os.ErrDeadlineExceeded
	}
	return n, err
}
