//go:build !linux

package serveproc

// raise does nothing where the timer slack cannot be set (it is a Linux
// setting).
func raise(uintptr) {}
