//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// selfExe is the program that contains the helper.
const selfExe = "/proc/self/exe"

// process is a started run.
type process struct {
	cmd            *exec.Cmd
	started        time.Time
	stdout, stderr *stream
	setup          chan []byte // what the helper reported before exec
	marker         []byte      // "\x00RunVar=id\x00"; nil when the backend has its own PID namespace
}

// start launches the helper with its instructions on fd 3 and the error
// pipe on fd 4, in a new process group.
func (j *job) start() (*process, error) {
	data, err := json.Marshal(j.helper)
	if err != nil {
		return nil, fmt.Errorf("sandbox: encoding the helper spec: %w", err)
	}
	pp, err := newPipes()
	if err != nil {
		return nil, err
	}
	defer closeAll(pp.child())
	if j.usesBwrapFilter() {
		if pp.filter, err = filterFile(filterGaps{}); err != nil {
			closeAll(pp.parent())
			return nil, err
		}
	}
	stdout, stderr := outputWriters(j.spec.Stdout, j.spec.Stderr)
	p := &process{
		stdout: newStream(stdout, j.spec.OutputLimit, false, pp.outR),
		stderr: newStream(stderr, j.spec.OutputLimit, true, pp.errOutR),
		setup:  make(chan []byte, 1),
		cmd:    j.helperCommand(pp),
	}
	if (j.choice.backend == Landlock || j.choice.backend == None) && j.runID != "" {
		p.marker = []byte("\x00" + RunVar + "=" + j.runID + "\x00")
	}
	stdinEnd, err := connectStdin(p.cmd, j.spec.Stdin)
	if err == nil {
		p.started = time.Now()
		err = p.cmd.Start()
	}
	closeAll([]*os.File{stdinEnd})
	if err != nil {
		closeAll(pp.parent())
		return nil, fmt.Errorf("sandbox: starting the helper: %w", err)
	}
	if j.cgroup != nil && j.cgroup.add(p.cmd.Process.Pid) != nil {
		j.cgroup.remove() // the per-process limit still holds
		j.cgroup = nil
	}
	go writeAndClose(pp.specW, data) // the helper waits for it: it runs nothing before it has joined the cgroup
	go readSetup(pp.errR, p.setup)
	go p.stdout.copy()
	go p.stderr.copy()
	return p, nil
}

// pipes are the four pipes between Run and the helper.
type pipes struct {
	specR, specW     *os.File // the helper's instructions
	errR, errW       *os.File // the helper's failure report
	outR, outW       *os.File // the command's stdout
	errOutR, errOutW *os.File // the command's stderr
	filter           *os.File // bwrap's seccomp program; nil when none
}

func newPipes() (*pipes, error) {
	pp := &pipes{}
	for _, ends := range []struct{ r, w **os.File }{
		{&pp.specR, &pp.specW}, {&pp.errR, &pp.errW}, {&pp.outR, &pp.outW}, {&pp.errOutR, &pp.errOutW},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(pp.child())
			closeAll(pp.parent())
			return nil, fmt.Errorf("sandbox: creating pipes: %w", err)
		}
		*ends.r, *ends.w = r, w
	}
	return pp, nil
}

// child returns the ends the helper inherits, parent the ends Run keeps.
func (pp *pipes) child() []*os.File {
	return []*os.File{pp.specR, pp.errW, pp.outW, pp.errOutW, pp.filter}
}
func (pp *pipes) parent() []*os.File { return []*os.File{pp.specW, pp.errR, pp.outR, pp.errOutR} }

// helperCommand is /proc/self/exe in helper mode, in its own process group,
// killed if Run's thread dies.
func (j *job) helperCommand(pp *pipes) *exec.Cmd {
	return &exec.Cmd{
		Path:        selfExe,
		Args:        []string{helperName(), helperArg},
		Env:         j.env,
		Dir:         j.dir,
		Stdout:      pp.outW,
		Stderr:      pp.errOutW,
		ExtraFiles:  extraFiles(pp),
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL},
	}
}

// extraFiles are the descriptors the helper inherits from 3 on: specFD,
// errFD and, for bwrap, filterFD.
func extraFiles(pp *pipes) []*os.File {
	files := []*os.File{pp.specR, pp.errW}
	if pp.filter != nil {
		files = append(files, pp.filter)
	}
	return files
}

// usesBwrapFilter reports whether the run gives bwrap a seccomp filter.
func (j *job) usesBwrapFilter() bool {
	return j.choice.backend == Bubblewrap && !j.spec.AllowNetwork
}

// filterFile holds the network filter's program for bwrap to read.
func filterFile(g filterGaps) (*os.File, error) {
	fd, err := unix.MemfdCreate("toolguard-seccomp", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("sandbox: creating the seccomp program for bwrap: %w", err)
	}
	f := os.NewFile(uintptr(fd), "toolguard-seccomp")
	_, err = f.Write(networkFilterProgram(g))
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: writing the seccomp program for bwrap: %w", err)
	}
	return f, nil
}

// connectStdin gives the command r as stdin: /dev/null when nil, the file
// itself when it is one, else a pipe fed by a goroutine. It returns the
// child's end of such a pipe, to close after start.
func connectStdin(cmd *exec.Cmd, r io.Reader) (*os.File, error) {
	if r == nil {
		return nil, nil
	}
	if f, ok := r.(*os.File); ok {
		cmd.Stdin = f
		return nil, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("sandbox: creating the stdin pipe: %w", err)
	}
	cmd.Stdin = pr
	go func() {
		io.Copy(pw, r)
		pw.Close()
	}()
	return pr, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

func writeAndClose(w *os.File, data []byte) {
	w.Write(data)
	w.Close()
}

// readSetup collects what the helper writes before exec; EOF without data
// means the target started.
func readSetup(r *os.File, out chan<- []byte) {
	data, _ := io.ReadAll(io.LimitReader(r, 64<<10))
	r.Close()
	out <- data
}

// outcome is how the wait ended.
type outcome struct {
	timedOut bool
	canceled bool
}

// wait waits for the command, stopping its process group on timeout or
// cancellation, then kills what is left of the group and drains output.
func (p *process) wait(ctx context.Context, timeout, grace time.Duration) outcome {
	done := make(chan struct{})
	go func() {
		p.cmd.Wait()
		close(done)
	}()
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	var o outcome
	select {
	case <-done:
	case <-expired:
		o.timedOut = true
		p.stop(done, grace)
	case <-ctx.Done():
		o.canceled = true
		p.stop(done, grace)
	}
	p.signalGroup(syscall.SIGKILL)
	if p.marker != nil {
		killMarked(p.marker)
	}
	p.drain(grace)
	return o
}

// killMarked kills every process whose environment holds marker: those of
// the run that left its process group. bwrap and firejail runs need no
// sweep: their PID namespace dies with them.
func killMarked(marker []byte) {
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && bytes.Contains(append([]byte{0}, env...), marker) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// stop sends SIGTERM to the group, then SIGKILL after grace.
func (p *process) stop(done <-chan struct{}, grace time.Duration) {
	p.signalGroup(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(grace):
		p.signalGroup(syscall.SIGKILL)
		<-done
	}
}

// signalGroup signals the command's process group (its pid is the group
// id); ESRCH once the group is empty is expected.
func (p *process) signalGroup(sig syscall.Signal) {
	syscall.Kill(-p.cmd.Process.Pid, sig)
}

// drain waits for both output streams to reach EOF, at most grace, after
// which a process that escaped the group may still hold the pipes: they are
// closed.
func (p *process) drain(grace time.Duration) {
	deadline := time.After(grace)
	for _, s := range []*stream{p.stdout, p.stderr} {
		select {
		case <-s.done:
		case <-deadline:
			s.src.Close()
			<-s.done
		}
	}
}

// setupError returns the helper's failure report, if any.
func (p *process) setupError() string {
	select {
	case data := <-p.setup:
		return string(bytes.TrimSpace(data))
	case <-time.After(time.Second):
		return ""
	}
}

// helperName is the helper's argv[0]: the calling program's own, so that
// wrappers dispatching on argv[0] (such as testscript's) reach the main
// function that calls HelperMain.
func helperName() string {
	if len(os.Args) > 0 && os.Args[0] != "" {
		return os.Args[0]
	}
	return "toolguard-sandbox"
}
