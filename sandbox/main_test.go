//go:build linux

package sandbox

import (
	"fmt"
	"net"
	"os"
	"testing"
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
	"__test-greedy":  greedy,
	"__test-connect": connect,
	"__test-mptcp":   connectMPTCP,
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
