package approval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// DefaultTTY is the controlling terminal device.
const DefaultTTY = "/dev/tty"

// ErrNoTerminal: the terminal approver has no terminal to ask on.
var ErrNoTerminal = errors.New("no terminal to ask on")

// Terminal asks on the controlling terminal device, never on stdin (which
// carries the agent's JSON for hooks). It prints a warning block (see
// [RenderWarning]) and reads one answer: y (once), s (session), a (always);
// n, Enter, Esc, Ctrl-C, Ctrl-D, every other key and a scope that was not
// offered (see [Question]) deny. Without a
// terminal, or when no answer comes in time, it denies with ErrNoTerminal
// or ErrTimeout. Prompts from concurrent goroutines are shown one at a time.
// A Terminal is safe for concurrent use.
type Terminal struct {
	// Path is the terminal device to open. Empty means /dev/tty.
	Path string
	// Timeout is how long to wait for an answer (including the wait for
	// another prompt to finish), clamped by [ClampTimeout]; zero means
	// DefaultTimeout. An earlier deadline on the context wins.
	Timeout time.Duration
	// NoColour turns colour off. False means colour unless the NO_COLOR
	// environment variable is set or TERM is "dumb" or empty.
	NoColour bool
	// LineMode reads a whole line ("y", "yes", "s", "session", …) instead of
	// a single key. False means a single key in raw mode, falling back to a
	// line when raw mode is not available.
	LineMode bool
}

// ttyTurn serialises prompts within the process: one token, taken by the
// goroutine that is prompting.
var ttyTurn = make(chan struct{}, 1)

// Approve asks on the terminal.
func (t *Terminal) Approve(ctx context.Context, r Request) (Answer, error) {
	timeout := ClampTimeout(t.Timeout)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	select {
	case ttyTurn <- struct{}{}:
		defer func() { <-ttyTurn }()
	case <-ctx.Done():
		return t.denied(ctx.Err(), timeout)
	}
	f, err := t.open()
	if err != nil {
		return Answer{By: "terminal", Note: err.Error()}, err
	}
	defer f.Close()
	return t.prompt(ctx, f, r, timeout)
}

func (t *Terminal) denied(err error, timeout time.Duration) (Answer, error) {
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("%w (%s on the terminal)", ErrTimeout, timeout)
	}
	return Answer{By: "terminal", Note: err.Error()}, err
}

func (t *Terminal) open() (*os.File, error) {
	path := cmpOr(t.Path, DefaultTTY)
	f, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, fmt.Errorf("%w: cannot open %s (%v); the call is denied — run the agent in a terminal or configure another approver", ErrNoTerminal, path, err)
	}
	if !withFd(f, term.IsTerminal) {
		f.Close()
		return nil, fmt.Errorf("%w: %s is not a terminal; the call is denied", ErrNoTerminal, path)
	}
	return f, nil
}

// withFd runs fn on f's descriptor without f.Fd, which would switch the
// file to blocking mode and so disable the read deadline that ends a
// prompt on time.
func withFd(f *os.File, fn func(fd int) bool) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	ok := false
	if err := rc.Control(func(fd uintptr) { ok = fn(int(fd)) }); err != nil {
		return false
	}
	return ok
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (t *Terminal) colour() bool {
	termName := os.Getenv("TERM")
	return !t.NoColour && os.Getenv("NO_COLOR") == "" && termName != "" && termName != "dumb"
}

func (t *Terminal) prompt(ctx context.Context, f *os.File, r Request, timeout time.Duration) (Answer, error) {
	raw := false
	if !t.LineMode {
		var restore func()
		if restore, raw = makeRaw(f); raw {
			defer restore()
		}
	}
	if dl, ok := ctx.Deadline(); ok {
		timeout = min(timeout, time.Until(dl))
	}
	question := Question(r) + fmt.Sprintf(" (no answer in %s denies): ", timeout.Round(time.Second))
	if _, err := io.WriteString(f, "\r\n"+RenderWarning(r, t.colour())+question); err != nil {
		return Answer{By: "terminal"}, fmt.Errorf("%w: writing the prompt: %v", ErrNoTerminal, err)
	}
	ans, err := t.read(ctx, f, raw)
	if err == nil && ans.Approved && ans.Scope != Once && !offered(r, ans.Scope) {
		ans = Answer{By: "terminal", Note: ans.Note + ", a scope that was not offered"}
	}
	if err != nil {
		io.WriteString(f, "\r\n→ no answer: denied\r\n")
		return t.denied(err, timeout)
	}
	io.WriteString(f, "\r\n→ "+outcome(ans)+"\r\n")
	return ans, nil
}

// makeRaw puts the terminal in raw mode for single keys and returns how to
// restore it; false when raw mode is not available.
func makeRaw(f *os.File) (restore func(), ok bool) {
	var old *term.State
	var err error
	withFd(f, func(fd int) bool { old, err = term.MakeRaw(fd); return true })
	if err != nil {
		return nil, false
	}
	return func() { withFd(f, func(fd int) bool { return term.Restore(fd, old) == nil }) }, true
}

func outcome(a Answer) string {
	if !a.Approved {
		return "denied"
	}
	return "allowed (" + a.Scope.String() + ")"
}

type readResult struct {
	text string
	err  error
}

// read waits for the answer or ctx; on ctx it unblocks the reader through
// the file's deadline (terminals are pollable) and returns ctx's error.
func (t *Terminal) read(ctx context.Context, f *os.File, raw bool) (Answer, error) {
	ch := make(chan readResult, 1)
	go func() {
		s, err := readAnswer(f, raw)
		ch <- readResult{s, err}
	}()
	select {
	case res := <-ch:
		if res.err != nil && !errors.Is(res.err, io.EOF) {
			return Answer{}, res.err
		}
		return parseAnswer(res.text), nil
	case <-ctx.Done():
		f.SetReadDeadline(time.Now())
		return Answer{}, ctx.Err()
	}
}

// readAnswer reads one byte in raw mode, else one line.
func readAnswer(r io.Reader, raw bool) (string, error) {
	var line []byte
	buf := make([]byte, 1)
	for {
		n, err := r.Read(buf)
		if n == 1 && raw {
			return string(buf), nil
		}
		if n == 1 && buf[0] != '\n' {
			line = append(line, buf[0])
		}
		if err != nil || (n == 1 && buf[0] == '\n') || len(line) > 64 {
			return string(line), err
		}
	}
}

// parseAnswer maps a key or a line to an answer; anything unknown denies.
func parseAnswer(s string) Answer {
	a := Answer{By: "terminal", Note: fmt.Sprintf("answered %q", s)}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes":
		a.Approved, a.Scope = true, Once
	case "s", "session":
		a.Approved, a.Scope = true, Session
	case "a", "always":
		a.Approved, a.Scope = true, Always
	}
	return a
}
