package approval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
	"github.com/toolguard/toolguard/risk"
	"golang.org/x/sys/unix"
)

// pty is a pseudo-terminal pair: the approver opens slave by path, the test
// plays the person on master.
type pty struct {
	master *os.File
	slave  string
	mu     sync.Mutex
	out    bytes.Buffer
}

func openPTY(t *testing.T) *pty {
	t.Helper()
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	p := &pty{master: os.NewFile(uintptr(fd), "ptmx"), slave: fmt.Sprintf("/dev/pts/%d", n)}
	// Keep the slave open for the test's life so the master never sees a hang-up
	// between prompts.
	keep, err := os.OpenFile(p.slave, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	go p.drain()
	t.Cleanup(func() { keep.Close(); p.master.Close() })
	return p
}

func (p *pty) drain() {
	buf := make([]byte, 4096)
	for {
		n, err := p.master.Read(buf)
		p.mu.Lock()
		p.out.Write(buf[:n])
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (p *pty) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// waitFor waits until the terminal has shown s n times.
func (p *pty) waitFor(t *testing.T, s string, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(p.output(), s) < n {
		if time.Now().After(deadline) {
			t.Fatalf("terminal never showed %q %d times; got:\n%s", s, n, p.output())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (p *pty) typeText(t *testing.T, s string) {
	t.Helper()
	if _, err := io.WriteString(p.master, s); err != nil {
		t.Fatal(err)
	}
}

var rmReq = Request{
	Call: call.Call{Kind: call.Shell, Tool: "Bash", Command: "rm -rf build", Who: call.Who{Agent: "claude-code", Session: "s1"}},
	Decision: policy.Decision{Verdict: risk.Ask, Tier: risk.Destructive, Blast: risk.BlastMedium, Category: risk.CatFSDelete,
		Rule: "core.fs.rm-recursive", Reason: "deletes a directory tree", Suggestion: "move it to the trash",
		Findings: []risk.Finding{{Span: risk.Span{Start: 0, End: 6}}}},
}

func TestTerminalKeys(t *testing.T) {
	noSession := &Request{Call: bash("make", ""), Decision: rmReq.Decision}
	tests := []struct {
		name  string
		line  bool
		typed string
		want  Answer
		req   *Request
	}{
		{"yes", false, "y", Answer{Approved: true, Scope: Once, By: "terminal", Note: `answered "y"`}, nil},
		{"session", false, "s", Answer{Approved: true, Scope: Session, By: "terminal", Note: `answered "s"`}, nil},
		{"always upper", false, "A", Answer{Approved: true, Scope: Always, By: "terminal", Note: `answered "A"`}, nil},
		{"no", false, "n", Answer{By: "terminal", Note: `answered "n"`}, nil},
		{"enter denies", false, "\r", Answer{By: "terminal", Note: `answered "\r"`}, nil},
		{"ctrl-c denies", false, "\x03", Answer{By: "terminal", Note: `answered "\x03"`}, nil},
		{"other key denies", false, "x", Answer{By: "terminal", Note: `answered "x"`}, nil},
		{"line yes", true, "yes\n", Answer{Approved: true, Scope: Once, By: "terminal", Note: `answered "yes"`}, nil},
		{"line always", true, "always\n", Answer{Approved: true, Scope: Always, By: "terminal", Note: `answered "always"`}, nil},
		{"line garbage", true, "maybe\n", Answer{By: "terminal", Note: `answered "maybe"`}, nil},
		{"session not offered", false, "s", Answer{By: "terminal", Note: `answered "s", a scope that was not offered`}, noSession},
		{"always offered without session", false, "a", Answer{Approved: true, Scope: Always, By: "terminal", Note: `answered "a"`}, noSession},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := openPTY(t)
			term := &Terminal{Path: p.slave, NoColour: true, LineMode: tt.line}
			req := rmReq
			if tt.req != nil {
				req = *tt.req
			}
			done := make(chan struct{})
			var got Answer
			var err error
			go func() {
				defer close(done)
				got, err = term.Approve(context.Background(), req)
			}()
			p.waitFor(t, "Allow?", 1)
			p.typeText(t, tt.typed)
			<-done
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			p.waitFor(t, "→ "+outcome(tt.want), 1)
		})
	}
}

func TestTerminalShowsWarning(t *testing.T) {
	p := openPTY(t)
	go (&Terminal{Path: p.slave, NoColour: true}).Approve(context.Background(), rmReq)
	p.waitFor(t, "Allow?", 1)
	p.typeText(t, "n")
	p.waitFor(t, "→ denied", 1)
	out := p.output()
	for _, want := range []string{
		"=== toolguard: this call needs your approval ===\r\n",
		"  tool:     Bash (shell), agent claude-code, session s1\r\n",
		"  risk:     destructive, blast radius MEDIUM, category fs-delete\r\n",
		"  command:  [[rm -rf]] build\r\n",
		"  why:      deletes a directory tree\r\n",
		"  instead:  move it to the trash\r\n",
		"Allow? [y]es / [n]o / [s]ession / [a]lways (no answer in 2m0s denies): ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%s", want, out)
		}
	}
}

func TestTerminalTimeout(t *testing.T) {
	p := openPTY(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	got, err := (&Terminal{Path: p.slave}).Approve(ctx, rmReq)
	if !errors.Is(err, ErrTimeout) || got.Approved {
		t.Fatalf("Approve = %+v, %v; want a timeout denial", got, err)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("took %v", waited)
	}
	p.waitFor(t, "→ no answer: denied", 1)
	// The terminal is usable again: the next prompt gets the next key.
	go func() { p.waitFor(t, "Allow?", 2); p.typeText(t, "y") }()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel2()
	if got, err := (&Terminal{Path: p.slave}).Approve(ctx2, rmReq); err != nil || !got.Approved {
		t.Log(p.output())
		t.Errorf("prompt after a timeout = %+v, %v", got, err)
	}
}

func TestTerminalSerialisesPrompts(t *testing.T) {
	p := openPTY(t)
	term := &Terminal{Path: p.slave, NoColour: true}
	const n = 3
	answers := make(chan Answer, n)
	for range n {
		go func() {
			a, _ := term.Approve(context.Background(), rmReq)
			answers <- a
		}()
	}
	for i := 1; i <= n; i++ {
		p.waitFor(t, "Allow?", i)
		time.Sleep(20 * time.Millisecond)
		if c := strings.Count(p.output(), "Allow?"); c != i {
			t.Fatalf("%d prompts on screen while %d answered: not serialised", c, i-1)
		}
		p.typeText(t, "y")
		if a := <-answers; !a.Approved {
			t.Errorf("prompt %d: %+v", i, a)
		}
	}
}

func TestTerminalNoTTY(t *testing.T) {
	regular := filepath.Join(t.TempDir(), "not-a-tty")
	os.WriteFile(regular, nil, 0o600)
	for name, path := range map[string]string{"missing": "/nonexistent/tty", "regular file": regular} {
		t.Run(name, func(t *testing.T) {
			got, err := (&Terminal{Path: path}).Approve(context.Background(), rmReq)
			if !errors.Is(err, ErrNoTerminal) || got.Approved {
				t.Errorf("Approve = %+v, %v; want ErrNoTerminal", got, err)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name %s", err, path)
			}
		})
	}
}
