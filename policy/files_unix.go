//go:build unix

package policy

import "syscall"

// openFlags open a file a command runs without following a link (the path
// is already resolved: a link there now was put there since) and without
// waiting for a writer (a named pipe).
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
