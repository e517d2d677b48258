package mcpproxy

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// DefaultGrace is how long the proxy waits for the server to exit after
// closing its stdin, and again after SIGTERM, before it sends SIGKILL.
const DefaultGrace = 5 * time.Second

// child is the MCP server process.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	exited chan struct{} // closed when the process has been waited for
	once   sync.Once
	err    error // the Wait error, valid after exited is closed
}

// startChild starts argv with its stdin and stdout as pipes and its stderr
// going to stderr.
func startChild(argv []string, dir string, env []string, stderr io.Writer) (*child, error) {
	if len(argv) == 0 {
		return nil, errors.New("no MCP server command given")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env, cmd.Stderr = dir, env, stderr
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the MCP server %s: %w", argv[0], err)
	}
	c := &child{cmd: cmd, stdin: stdin, stdout: stdout, exited: make(chan struct{})}
	return c, nil
}

// wait reaps the process once its stdout is drained; call it from the
// goroutine that read stdout to the end.
func (c *child) wait() {
	c.once.Do(func() {
		c.err = c.cmd.Wait()
		close(c.exited)
	})
}

// stop ends the server politely: close its stdin, wait up to grace, send
// SIGTERM (to its process group), wait up to grace again, then SIGKILL.
// It returns which step ended it: "", "SIGTERM" or "SIGKILL".
func (c *child) stop(grace time.Duration) string {
	c.stdin.Close()
	if c.waitFor(grace) {
		return ""
	}
	signalGroup(c.cmd, sigterm)
	if c.waitFor(grace) {
		return "SIGTERM"
	}
	signalGroup(c.cmd, sigkill)
	go c.wait() // in case stdout is held open by a grandchild
	<-c.exited
	return "SIGKILL"
}

func (c *child) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.exited:
		return true
	case <-t.C:
		return false
	}
}
