package relay

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Supported reports whether this system can relay calls.
const Supported = true

// Current takes the context of this process for the engine at path.
func Current(engine string) (Context, error) {
	fi, err := os.Stat(engine)
	if err != nil {
		return Context{}, err
	}
	dir, err := os.Readlink("/proc/self/cwd")
	if err != nil {
		return Context{}, err
	}
	mask := syscall.Umask(0)
	syscall.Umask(mask)
	return Context{Engine: engine, engine: fi, UID: os.Getuid(), Dir: dir, Umask: mask, Environ: os.Environ()}, nil
}

// Connect connects to the daemon at socket without checking who it is:
// the launcher sends its request at once and checks the peer with Verify
// while the daemon works. (The socket's directory is private to the user,
// so the request reaches no one who could not read it anyway; what Verify
// guards is trust in the answer.) Reads and writes give up after timeout.
// ErrNoDaemon means nothing listens on socket.
func Connect(socket string, timeout time.Duration) (*os.File, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	conn := os.NewFile(uintptr(fd), socket)
	// The timeout is set first: it also bounds the wait of a connection
	// to a daemon whose queue is full (which would otherwise be endless).
	if err := setTimeout(fd, timeout); err != nil {
		conn.Close()
		return nil, err
	}
	if err := connect(fd, socket); err != nil {
		conn.Close()
		return nil, connectError(err, socket)
	}
	return conn, nil
}

// connect connects fd to socket, again when a signal interrupts the wait:
// with a timeout set the kernel does not restart it.
func connect(fd int, socket string) error {
	for {
		err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: socket})
		if err != syscall.EINTR {
			return err
		}
	}
}

func connectError(err error, socket string) error {
	switch {
	case errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED):
		return ErrNoDaemon
	case errors.Is(err, syscall.EAGAIN):
		return errors.New("relay: the daemon on " + socket + " takes no call now (its queue is full)")
	}
	return err
}

func setTimeout(fd int, d time.Duration) error {
	tv := syscall.NsecToTimeval(d.Nanoseconds())
	if err := syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_RCVTIMEO, &tv); err != nil {
		return err
	}
	return syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
}

// Verify checks, through SO_PEERCRED and /proc, that the process at the
// other end of conn is c's engine binary run by c's user as
// `ENGINE __relay SOCKET`, in c's directory, with c's environment and
// umask.
// Anything else is ErrImpostor.
func Verify(conn *os.File, c Context, socket string) error {
	cred, err := syscall.GetsockoptUcred(int(conn.Fd()), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil || int(cred.Uid) != c.UID {
		return ErrImpostor
	}
	proc := "/proc/" + strconv.Itoa(int(cred.Pid))
	exe, err := os.Stat(proc + "/exe")
	if errors.Is(err, os.ErrNotExist) {
		return ErrGone
	}
	if err != nil || c.engine == nil || !os.SameFile(exe, c.engine) {
		return ErrImpostor
	}
	if dir, err := os.Readlink(proc + "/cwd"); err != nil || dir != c.Dir {
		return ErrImpostor
	}
	buf := make([]byte, 0, 4096) // one buffer for the three files: every page the launcher touches costs
	want := "\x00" + DaemonCommand + "\x00" + socket + "\x00"
	if buf, err = readProc(proc+"/cmdline", buf); err != nil || !strings.HasSuffix(string(buf), want) {
		return ErrImpostor
	}
	if buf, err = readProc(proc+"/environ", buf); err != nil || string(buf) != c.environ() {
		return ErrImpostor
	}
	if buf, err = readProc(proc+"/status", buf); err != nil || !hasUmask(string(buf), c.Umask) {
		return ErrImpostor
	}
	return nil
}

// hasUmask reports whether a /proc/PID/status shows umask (its "Umask:"
// line exists since Linux 4.7; without it no daemon is trusted).
func hasUmask(status string, umask int) bool {
	_, rest, ok := strings.Cut(status, "\nUmask:")
	if !ok {
		return false
	}
	line, _, _ := strings.Cut(rest, "\n")
	got, err := strconv.ParseUint(strings.TrimSpace(line), 8, 32)
	return err == nil && int(got) == umask
}

// readProc reads a small /proc file with plain system calls (an os.File
// would set up the runtime's poller, which the launcher does not need).
// It reads into buf[:0], growing it when needed, and returns the contents.
func readProc(path string, buf []byte) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// Exchange sends req on a connection made by Connect, checks the peer with
// Verify while the daemon works, and reads its answer by deadline. An
// error from Verify comes back as it is (ErrImpostor, ErrGone); one from
// sending or reading says which of the two failed.
func Exchange(conn *os.File, c Context, socket string, req Request, deadline time.Time) (Response, error) {
	if err := WriteRequest(conn, req); err != nil {
		return Response{}, errors.New("sending the call: " + err.Error())
	}
	if err := Verify(conn, c, socket); err != nil {
		return Response{}, err
	}
	// Small buffer: every heap page the launcher touches is a page fault.
	resp, err := ReadResponse(bufio.NewReaderSize(DeadlineReader{Conn: conn, Deadline: deadline}, 1024))
	if err != nil {
		return Response{}, errors.New("reading the answer: " + err.Error())
	}
	return resp, nil
}

// Spawn starts a daemon for c on socket, detached from this process's
// session and standard streams, and does not wait for it. The daemon
// inherits this process's environment and directory, which is what makes
// it a daemon of c.
func Spawn(c Context, socket string) error {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer null.Close()
	p, err := os.StartProcess(c.Engine, []string{c.Engine, DaemonCommand, socket}, &os.ProcAttr{
		Files: []*os.File{null, null, null},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return err
	}
	return p.Release()
}

// fileID is the device and inode of fi, part of the context's key.
func fileID(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(st.Dev, 10) + ":" + strconv.FormatUint(st.Ino, 10)
	}
	return ""
}
