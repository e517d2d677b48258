package sandbox

import (
	"fmt"
	"io"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Backend names the mechanism that confines the command.
type Backend string

// The backends. The zero value is [Auto].
const (
	// Auto picks the strongest backend available: Landlock when the kernel
	// has it, else bubblewrap, else firejail, else none.
	Auto Backend = "auto"
	// Landlock confines the command with the kernel's Landlock LSM through
	// the re-exec helper. Unprivileged, needs no package.
	Landlock Backend = "landlock"
	// Bubblewrap runs the command in new mount, PID and network namespaces
	// with the bwrap program.
	Bubblewrap Backend = "bwrap"
	// Firejail runs the command under the firejail program.
	Firejail Backend = "firejail"
	// None applies only the environment scrubbing, rlimits, output caps and
	// the timeout.
	None Backend = "none"
)

// backends lists the valid backend names.
var backends = []Backend{Auto, Landlock, Bubblewrap, Firejail, None}

// ParseBackend returns the backend named s; "" means [Auto].
func ParseBackend(s string) (Backend, error) {
	if s == "" {
		return Auto, nil
	}
	for _, b := range backends {
		if string(b) == s {
			return b, nil
		}
	}
	return "", fmt.Errorf("sandbox: unknown backend %q (valid: %s)", s, backendList())
}

func backendList() string {
	names := make([]string, len(backends))
	for i, b := range backends {
		names[i] = string(b)
	}
	return strings.Join(names, ", ")
}

// Defaults applied to zero fields of [Spec] and [Limits].
const (
	DefaultTimeout     = 10 * time.Minute
	DefaultGrace       = 2 * time.Second
	DefaultOutputLimit = 1 << 20
	DefaultMemory      = 2 << 30
)

// Profile says what a confined command may reach.
type Profile string

// The profiles. The zero value is [Isolated].
const (
	// Isolated is for running a job apart from the user's files: the
	// workspace and a private TMPDIR are read-write, the system directories
	// read-only (their secret files hidden), and nothing else is reachable —
	// not the home directory, not /tmp. The environment keeps a short list
	// of variables (see [Spec.Passthrough]).
	Isolated Profile = "isolated"
	// Agent is for an agent's own shell command, which must behave as it
	// would outside: the workspace, the temporary directories and the
	// toolchains' caches and stores (Go, npm, pnpm, yarn, pip, uv and the
	// user site, cargo, rustup, Maven, Gradle) are read-write; everything
	// else is read-only, except what Spec.Secret and Spec.Hidden keep
	// unreadable and the secret system files; the ssh-agent's and the
	// session bus's sockets can be used; the environment is kept but for
	// the variables that look like secrets. Only the Landlock backend
	// enforces it.
	Agent Profile = "agent"
)

// ParseProfile returns the profile named s; "" means [Isolated].
func ParseProfile(s string) (Profile, error) {
	switch Profile(s) {
	case "", Isolated:
		return Isolated, nil
	case Agent:
		return Agent, nil
	}
	return "", fmt.Errorf("sandbox: unknown profile %q (valid: %s, %s)", s, Isolated, Agent)
}

// Limits are the resource limits applied to the command (setrlimit). They
// hold per process; children inherit them.
type Limits struct {
	// Memory caps each process's data memory in bytes: its heap and
	// private writable mappings (RLIMIT_DATA). Unlike an address-space
	// limit it leaves alone the large reservations with which Go, Node.js
	// and the JVM start, so ordinary toolchains run under it. Zero means
	// DefaultMemory (2 GiB) in the Isolated profile and no limit in the
	// Agent profile; negative means no limit.
	Memory int64
	// CPUTime caps CPU time (RLIMIT_CPU, whole seconds, rounded up). Zero
	// means no limit.
	CPUTime time.Duration
	// FileSize caps the size of any file the command writes, in bytes
	// (RLIMIT_FSIZE). Zero means no limit.
	FileSize int64
	// OpenFiles caps the number of open file descriptors (RLIMIT_NOFILE).
	// Zero means the inherited limit.
	OpenFiles int
}

// Spec describes one run.
type Spec struct {
	// Argv is the command and its arguments; Argv[0] is looked up in the
	// scrubbed PATH unless it contains a slash. Required.
	Argv []string
	// Dir is the working directory. Zero means Workspace.
	Dir string
	// Workspace is the directory the command may read and write. Zero means
	// Dir; when both are zero, the caller's working directory. It must not
	// be "/" nor contain the home directory.
	Workspace string
	// Env is the environment to scrub. Nil means os.Environ().
	Env []string
	// Passthrough lists extra variable names to keep: exact names, or a
	// prefix ending in "*" such as "NPM_CONFIG_*". A name that looks like a
	// secret passes only when listed exactly. Nil means none.
	Passthrough []string
	// Profile picks what the command may reach. Zero means Isolated.
	Profile Profile
	// Secret reports whether the Agent profile keeps a path unreadable. It
	// is asked about the clean absolute paths of the entries of the home
	// directories (the user's, /root, those under /home) and of the
	// workspace's parent directory, down to SecretDepth levels and
	// SecretBudget entries in all; a directory below that is kept whole,
	// or left out when Secret names it. Nil means only Hidden and the
	// system's secret files are kept unreadable.
	Secret func(path string) bool
	// Hidden lists absolute paths the Agent profile keeps unreadable
	// whatever Secret says, such as toolguard's own configuration and state.
	// Nil means none.
	Hidden []string
	// SearchCache is a file in which the Agent profile keeps what the search
	// for secrets found, used again while the directories it read are
	// unchanged. It must be where the command cannot write (the search
	// result decides what the command may read): in a Hidden directory.
	// Empty means searching every time.
	SearchCache string
	// SearchKey names what Secret means (a hash of the policy that answers
	// it): a cached search made for another key is not used. Empty is a key
	// like any other.
	SearchKey string
	// Stdin feeds the command. Nil means /dev/null.
	Stdin io.Reader
	// Stdout and Stderr receive the command's output. Nil means discard.
	Stdout, Stderr io.Writer
	// OutputLimit caps each of stdout and stderr in bytes; output beyond it
	// is dropped and Result.Truncated is set. Zero means DefaultOutputLimit
	// (1 MiB); negative means no cap.
	OutputLimit int64
	// Timeout bounds the run. Zero means DefaultTimeout (10 min, as long as
	// the agents let a shell command run: builds and test suites take
	// minutes); negative
	// means no timeout (the context still applies).
	Timeout time.Duration
	// Grace is how long the process group has between SIGTERM and SIGKILL.
	// Zero means DefaultGrace (2 s).
	Grace time.Duration
	// Limits are the rlimits; the zero value caps only memory.
	Limits Limits
	// Backend picks the confinement. Zero means Auto.
	Backend Backend
	// Require fails the run before anything starts when the backend cannot
	// enforce what was asked (filesystem confinement, and the network
	// restriction unless AllowNetwork). False means best effort, with what
	// was not enforced listed in Result.Unenforced.
	Require bool
	// AllowNetwork lets the command open network connections. False means
	// TCP connect and bind are refused (Landlock ABI ≥ 4) or the network
	// namespace is empty (bubblewrap, firejail).
	AllowNetwork bool
	// ReadOnly lists extra absolute paths the command may read and execute.
	ReadOnly []string
	// ReadWrite lists extra absolute paths the command may read and write.
	ReadWrite []string
	// Protected lists existing files and directories inside the writable
	// directories that the Agent profile keeps read-only (the project's own
	// agent settings, which hold or switch off the hooks). Landlock cannot
	// take write access away below a writable directory, so Exec makes each
	// a read-only bind mount in a mount namespace of the command's own; a
	// protected path cannot then be changed, removed or renamed. When no
	// mount namespace can be made, Exec fails: nothing runs.
	// A symbolic link among them is refused: the link itself could be
	// replaced. Nil means none.
	Protected []string
}

// Result is what happened to the command.
type Result struct {
	// ExitCode is the exit status; -1 when the command died of a signal.
	ExitCode int
	// Signal is the signal that ended the command; zero when it exited.
	Signal syscall.Signal
	// TimedOut is set when the timeout stopped the command.
	TimedOut bool
	// LimitHit names the resource limit that most likely ended the command,
	// e.g. "memory 2 GiB", "cpu time 2s", "file size 1 MiB"; empty
	// when none did.
	LimitHit string
	// Backend is the backend that confined the command.
	Backend Backend
	// LandlockABI is the kernel's Landlock ABI version when the Landlock
	// backend ran; zero otherwise.
	LandlockABI int
	// Unenforced lists what was asked but could not be enforced (only when
	// Spec.Require is false).
	Unenforced []string
	// Truncated is set when output beyond Spec.OutputLimit was dropped.
	Truncated bool
	// Duration is the wall time from start to exit.
	Duration time.Duration
}

// Success reports whether the command exited with status 0 in time.
func (r Result) Success() bool {
	return r.ExitCode == 0 && r.Signal == 0 && !r.TimedOut
}

// String describes the outcome in one line, e.g. "exit status 3" or
// "killed by signal SIGKILL: timed out".
func (r Result) String() string {
	var s string
	if r.Signal != 0 {
		s = "killed by signal " + signalName(r.Signal)
	} else {
		s = fmt.Sprintf("exit status %d", r.ExitCode)
	}
	if r.TimedOut {
		s += ": timed out"
	}
	if r.LimitHit != "" {
		s += ": " + r.LimitHit + " limit reached"
	}
	return s
}

func signalName(sig syscall.Signal) string {
	if name := unix.SignalName(sig); name != "" {
		return name
	}
	return fmt.Sprintf("%d", int(sig))
}
