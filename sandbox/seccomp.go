//go:build linux && (amd64 || arm64)

package sandbox

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ipprotoMPTCP is IPPROTO_MPTCP. Landlock's TCP rules do not cover
// Multipath TCP sockets (measured on kernel 6.18, ABI 7: an MPTCP connect
// to a loopback listener succeeded under a ruleset that refused TCP).
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
	bpfAnd     = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	bpfRet     = unix.BPF_RET | unix.BPF_K
)

// Offsets in struct seccomp_data: nr, arch, and the low halves of
// args[0..2] (little endian).
const (
	offNr    = 0
	offArch  = 4
	offArg0  = 16
	offArg1  = 16 + 8
	offArg2  = 16 + 2*8
	x32Flag  = 0x40000000
	retAllow = unix.SECCOMP_RET_ALLOW
	typeMask = 0xf // SOCK_TYPE_MASK: the socket type without SOCK_NONBLOCK and SOCK_CLOEXEC
)

func retErrno(errno unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(errno) }

// filterGaps says which kinds of socket the network filter refuses
// because the kernel's Landlock cannot restrict them.
type filterGaps struct {
	unix bool // pathname UNIX sockets (Landlock ABI < 9)
	udp  bool // UDP (Landlock ABI < 10)
}

// gapsAt is what Landlock ABI abi leaves open when the network is off.
func gapsAt(abi int) filterGaps {
	return filterGaps{unix: abi < abiUnixSocket, udp: abi < abiUDP}
}

// networkFilter completes Landlock's network restriction: it refuses
// io_uring (whose socket operations would pass the filter), Multipath TCP,
// every socket family but local (UNIX), IPv4/IPv6 and netlink, and the
// kinds of socket Landlock cannot restrict at this ABI (gaps): UDP, and
// UNIX sockets, which would reach servers outside the sandbox (a database's
// socket). socketpair, which reaches nothing outside, stays allowed.
// Syscalls of a foreign architecture or the x32 ABI, whose numbers it
// cannot check, are refused.
func networkFilter(g filterGaps) []unix.SockFilter {
	var a bpfAsm
	a.load(offArch)
	a.jeq(auditArch, "", "deny")
	a.load(offNr)
	a.jge(x32Flag, "deny", "")
	a.jeq(unix.SYS_IO_URING_SETUP, "deny", "")
	a.jeq(unix.SYS_SOCKET, "", "allow")
	a.load(offArg0)
	a.jeq(unix.AF_INET, "inet", "")
	a.jeq(unix.AF_INET6, "inet", "")
	a.jeq(unix.AF_NETLINK, "allow", "")
	if g.unix {
		a.jeq(unix.AF_UNIX, "refuse", "nofamily")
	} else {
		a.jeq(unix.AF_UNIX, "allow", "nofamily")
	}
	a.label("inet")
	a.load(offArg2)
	a.jeq(ipprotoMPTCP, "noproto", "")
	if g.udp {
		a.load(offArg1)
		a.and(typeMask)
		a.jeq(unix.SOCK_DGRAM, "refuse", "allow")
	}
	a.label("allow")
	a.ret(retAllow)
	a.label("deny")
	a.ret(retErrno(unix.EPERM))
	a.label("refuse")
	a.ret(retErrno(unix.EACCES))
	a.label("noproto")
	a.ret(retErrno(unix.EPROTONOSUPPORT))
	a.label("nofamily")
	a.ret(retErrno(unix.EAFNOSUPPORT))
	return a.assemble()
}

// blockNetworkGaps installs networkFilter for the calling thread, which
// execs the target next (seccomp filters are inherited across execve).
func blockNetworkGaps(abi int) error {
	filter := networkFilter(gapsAt(abi))
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return fmt.Errorf("installing the seccomp filter that completes the network restriction: %w", errno)
	}
	return nil
}

// networkFilterProgram is networkFilter as the bytes of a struct
// sock_filter array, the form bubblewrap's --seccomp reads.
func networkFilterProgram(g filterGaps) []byte {
	filter := networkFilter(g)
	out := make([]byte, 0, 8*len(filter))
	for _, ins := range filter {
		out = binary.NativeEndian.AppendUint16(out, ins.Code)
		out = append(out, ins.Jt, ins.Jf)
		out = binary.NativeEndian.AppendUint32(out, ins.K)
	}
	return out
}

// bpfAsm assembles a classic BPF program with forward jumps to labels.
type bpfAsm struct {
	prog   []unix.SockFilter
	jumps  []bpfJump
	labels map[string]int
}

// bpfJump is a conditional jump waiting for its labels ("" = next).
type bpfJump struct {
	at     int
	tl, fl string
}

func (a *bpfAsm) load(off uint32)  { a.prog = append(a.prog, unix.SockFilter{Code: bpfLoadAbs, K: off}) }
func (a *bpfAsm) and(mask uint32)  { a.prog = append(a.prog, unix.SockFilter{Code: bpfAnd, K: mask}) }
func (a *bpfAsm) ret(value uint32) { a.prog = append(a.prog, unix.SockFilter{Code: bpfRet, K: value}) }

func (a *bpfAsm) jeq(k uint32, tl, fl string) { a.jump(bpfJeq, k, tl, fl) }
func (a *bpfAsm) jge(k uint32, tl, fl string) { a.jump(bpfJge, k, tl, fl) }

func (a *bpfAsm) jump(code uint16, k uint32, tl, fl string) {
	a.jumps = append(a.jumps, bpfJump{at: len(a.prog), tl: tl, fl: fl})
	a.prog = append(a.prog, unix.SockFilter{Code: code, K: k})
}

func (a *bpfAsm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.prog)
}

// assemble resolves the jumps; every label is defined after its jumps and
// within 255 instructions, which the fixed programs here guarantee (a
// broken program panics in the tests, not at a user's).
func (a *bpfAsm) assemble() []unix.SockFilter {
	offset := func(from int, label string) uint8 {
		if label == "" {
			return 0
		}
		to, ok := a.labels[label]
		if !ok || to <= from || to-from-1 > 255 {
			panic("sandbox: bad BPF jump to " + label)
		}
		return uint8(to - from - 1)
	}
	for _, j := range a.jumps {
		a.prog[j.at].Jt = offset(j.at, j.tl)
		a.prog[j.at].Jf = offset(j.at, j.fl)
	}
	return a.prog
}
