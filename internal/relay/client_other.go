//go:build !linux

package relay

import (
	"os"
	"time"
)

// Supported reports whether this system can relay calls: the launcher
// checks a daemon's identity through Linux's /proc and SO_PEERCRED, so
// elsewhere every call starts the engine.
const Supported = false

// Current returns ErrUnsupported.
func Current(string) (Context, error) { return Context{}, ErrUnsupported }

// Connect returns ErrUnsupported.
func Connect(string, time.Duration) (*os.File, error) { return nil, ErrUnsupported }

// Exchange returns ErrUnsupported.
func Exchange(*os.File, Context, string, Request, time.Time) (Response, error) {
	return Response{}, ErrUnsupported
}

// Spawn returns ErrUnsupported.
func Spawn(Context, string) error { return ErrUnsupported }

func fileID(os.FileInfo) string { return "" }
