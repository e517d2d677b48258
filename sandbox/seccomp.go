//go:build linux && (amd64 || arm64)

package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ipprotoMPTCP is IPPROTO_MPTCP. Landlock's TCP rules do not cover
// Multipath TCP sockets (measured on kernel 6.18, ABI 7: an MPTCP connect
// to a loopback listener succeeded under a ruleset that refused TCP), so the
// helper refuses to create them with a seccomp filter when the network is
// restricted.
const ipprotoMPTCP = 262

// auditArch is the seccomp architecture of this build.
var auditArch = map[string]uint32{
	"amd64": unix.AUDIT_ARCH_X86_64,
	"arm64": unix.AUDIT_ARCH_AARCH64,
}[runtime.GOARCH]

// BPF opcodes used by the filter.
const (
	bpfLoadAbs = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	bpfJeq     = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	bpfJge     = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	bpfRet     = unix.BPF_RET | unix.BPF_K
)

// Offsets in struct seccomp_data: nr, arch, args[2] (low half, little
// endian).
const (
	offNr    = 0
	offArch  = 4
	offArg2  = 16 + 2*8
	x32Flag  = 0x40000000
	retAllow = unix.SECCOMP_RET_ALLOW
)

func retErrno(errno unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(errno) }

// networkFilter refuses MPTCP sockets and io_uring (whose socket operation
// would bypass the filter), and every syscall of a foreign architecture or
// the x32 ABI, whose numbers it cannot check.
func networkFilter() []unix.SockFilter {
	return []unix.SockFilter{
		{Code: bpfLoadAbs, K: offArch},
		{Code: bpfJeq, K: auditArch, Jt: 1},
		{Code: bpfRet, K: retErrno(unix.EPERM)},
		{Code: bpfLoadAbs, K: offNr},
		{Code: bpfJge, K: x32Flag, Jt: 5},
		{Code: bpfJeq, K: unix.SYS_IO_URING_SETUP, Jt: 4},
		{Code: bpfJeq, K: unix.SYS_SOCKET, Jf: 2},
		{Code: bpfLoadAbs, K: offArg2},
		{Code: bpfJeq, K: ipprotoMPTCP, Jt: 2},
		{Code: bpfRet, K: retAllow},
		{Code: bpfRet, K: retErrno(unix.EPERM)},
		{Code: bpfRet, K: retErrno(unix.EPROTONOSUPPORT)},
	}
}

// blockMPTCP installs networkFilter on every thread of the process.
func blockMPTCP() error {
	filter := networkFilter()
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER,
		unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return fmt.Errorf("installing the seccomp filter that blocks Multipath TCP: %w", errno)
	}
	if r != 0 {
		return fmt.Errorf("installing the seccomp filter: thread %d could not be synchronised", r)
	}
	return nil
}
