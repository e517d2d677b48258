package cli

import (
	"bufio"
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestServePrintsTheKeyToATerminal: on a terminal (the person who started
// serve watches it) the page's address with the key is printed there.
func TestServePrintsTheKeyToATerminal(t *testing.T) {
	ptm, pts := openPTY(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() {
		code <- Run(ctx, []string{"serve", "--no-user-config", "--no-project-config", "--addr", "127.0.0.1:0"}, IO{Stdin: strings.NewReader(""), Stdout: pts, Stderr: io.Discard})
	}()
	line, err := bufio.NewReader(ptm).ReadString('\n')
	cancel()
	<-code
	if err != nil || !strings.HasPrefix(line, "toolguard serve: open http://127.0.0.1:") || !strings.Contains(line, "/#token=") {
		t.Fatalf("the terminal got %q, %v", line, err)
	}
}

// openPTY opens a pseudo-terminal: the controlling side and the terminal.
func openPTY(t *testing.T) (ptm, pts *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { ptm.Close() })
	if err := unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	pts, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the terminal: %v", err)
	}
	t.Cleanup(func() { pts.Close() })
	return ptm, pts
}
