//go:build linux

package sandbox

import (
	"fmt"
	"net"
	"os"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestMain lets the test binary serve as the sandbox helper (Run re-executes
// /proc/self/exe) and as a few small target programs.
func TestMain(m *testing.M) {
	if IsHelper(os.Args) {
		HelperMain()
	}
	if len(os.Args) > 1 {
		if mode, ok := testModes[os.Args[1]]; ok {
			os.Exit(mode(os.Args[2:]))
		}
	}
	os.Exit(m.Run())
}

// testModes are the target programs the test binary can play.
var testModes = map[string]func(args []string) int{
	"__test-greedy":    greedy,
	"__test-connect":   connect,
	"__test-mptcp":     connectMPTCP,
	"__test-udp":       sendUDP,
	"__test-unix":      connectUnix,
	"__test-iouring":   setupIOURing,
	"__test-agentexec": agentExec,
}

// setupIOURing creates an io_uring; exit 0 when it could.
func setupIOURing([]string) int {
	var params [120]byte // struct io_uring_params
	fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, 4, uintptr(unsafe.Pointer(&params[0])), 0)
	if errno != 0 {
		fmt.Fprintln(os.Stderr, "io_uring_setup:", errno)
		return 1
	}
	unix.Close(int(fd))
	return 0
}

// sendUDP sends the datagram args[1] to the UDP address args[0].
func sendUDP(args []string) int {
	c, err := net.Dial("udp", args[0])
	if err == nil {
		_, err = c.Write([]byte(args[1]))
		c.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// connectUnix connects to the UNIX socket args[0] and writes args[1].
func connectUnix(args []string) int {
	c, err := net.Dial("unix", args[0])
	if err == nil {
		_, err = c.Write([]byte(args[1]))
		c.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// greedy allocates and touches 1 GiB.
func greedy([]string) int {
	b := make([]byte, 1<<30)
	for i := range b {
		if i%4096 == 0 {
			b[i] = 1
		}
	}
	fmt.Println("allocated", len(b))
	return 0
}

// connect dials the TCP address in args[0]; exit 0 when it connected.
func connect(args []string) int {
	return dial(args, false)
}

// connectMPTCP dials like connect, over Multipath TCP.
func connectMPTCP(args []string) int {
	return dial(args, true)
}

func dial(args []string, mptcp bool) int {
	d := net.Dialer{}
	d.SetMultipathTCP(mptcp)
	c, err := d.Dial("tcp", args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c.Close()
	fmt.Println("connected")
	return 0
}
