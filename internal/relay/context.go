package relay

import (
	"encoding/binary"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/internal/xdg"
)

// DaemonCommand is the hidden engine command that serves relayed calls:
// `toolguard-engine __relay SOCKET`.
const DaemonCommand = "__relay"

// Environment variables read by the launcher. They are not policy
// settings: the policy loader skips every TOOLGUARD_RELAY* variable.
const (
	EnvOff   = "TOOLGUARD_RELAY"       // "off", "0", "false" or "no" (any case) starts the engine for every call
	EnvDir   = "TOOLGUARD_RELAY_DIR"   // directory of the sockets; "" means state.Dir()/relay
	EnvIdle  = "TOOLGUARD_RELAY_IDLE"  // how long an unused daemon lives (Go duration); "" means relayd's default
	EnvTrace = "TOOLGUARD_RELAY_TRACE" // non-empty: the launcher says on stderr how each call was answered
)

// maxSocketPath is the longest path a UNIX socket address holds on Linux.
const maxSocketPath = 107

// Errors of Dial. ErrNoDaemon means nothing listens on the socket, so the
// caller may start a daemon; the others mean it must not rely on the peer.
var (
	ErrNoDaemon    = errors.New("relay: no daemon")
	ErrImpostor    = errors.New("relay: the socket's peer is not an engine started in this context")
	ErrGone        = errors.New("relay: the daemon exited before it could be checked")
	ErrUnsupported = errors.New("relay: not supported on this system")
)

// Context is everything a daemon shares with the launchers it answers:
// given the same arguments and input, a daemon in the same context answers
// as a fresh engine process would.
type Context struct {
	Engine  string      // absolute path of the engine binary
	engine  os.FileInfo // identity of that file when the context was taken
	UID     int         // real user id
	Dir     string      // working directory as the kernel names it
	Umask   int         // file mode creation mask
	Environ []string    // the environment, in the order the process got it
}

// environ is the environment as /proc/PID/environ shows it.
func (c Context) environ() string {
	var b strings.Builder
	for _, kv := range c.Environ {
		b.WriteString(kv)
		b.WriteByte(0)
	}
	return b.String()
}

// Key names the context: a hash of the engine file's identity, the user,
// directory, umask and the environment (in order). Any difference gives
// another key, so another socket and another daemon.
func (c Context) Key() string {
	h := fnv.New64a()
	write := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	write(c.Engine)
	if c.engine != nil {
		write(strconv.FormatInt(c.engine.Size(), 10))
		write(strconv.FormatInt(c.engine.ModTime().UnixNano(), 10))
		write(fileID(c.engine))
	}
	write(strconv.Itoa(c.UID))
	write(c.Dir)
	write(strconv.Itoa(c.Umask))
	for _, kv := range c.Environ {
		write(kv)
	}
	return strconv.FormatUint(binary.BigEndian.Uint64(h.Sum(nil)), 16)
}

// Socket is the socket path of the context's daemon in dir.
func (c Context) Socket(dir string) (string, error) {
	p := filepath.Join(dir, c.Key()+".sock")
	if len(p) > maxSocketPath {
		return "", errors.New("relay: socket path " + p + " is too long for a UNIX socket; set " + EnvDir + " to a shorter directory")
	}
	return p, nil
}

// SocketDir is the directory of the daemons' sockets: $TOOLGUARD_RELAY_DIR
// when it is an absolute path, else the "relay" directory in toolguard's
// state directory (whose files the policy protects from agents).
func SocketDir() (string, error) {
	if d := os.Getenv(EnvDir); filepath.IsAbs(d) {
		return filepath.Clean(d), nil
	}
	d, err := xdg.StateDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "relay"), nil
}

// Enabled reports whether the environment allows relaying: it does unless
// TOOLGUARD_RELAY is "off", "0", "false" or "no", in any case and with
// blanks around it ignored.
func Enabled() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvOff))) {
	case "off", "0", "false", "no":
		return false
	}
	return true
}
