// Package sandbox runs a command that the policy has allowed under
// enforcement that does not depend on understanding the command.
//
// [Run] starts the command with
//   - a scrubbed environment (PATH, HOME, TERM, LANG, LC_*, USER, LOGNAME,
//     SHELL, TZ, a private TMPDIR, the run id, plus an explicit passthrough
//     list; names that look like secrets only pass when listed by exact
//     name);
//   - stdin from /dev/null unless a reader is given, and a cap per output
//     stream;
//   - resource limits (memory, CPU time, file size, open files);
//   - a timeout that stops the whole process group, grandchildren included
//     (SIGTERM, then SIGKILL after a grace period);
//   - an OS sandbox backend: Landlock (the default where the kernel has it),
//     bubblewrap or firejail when installed, or none.
//
// Landlock is applied through a re-exec helper, never in the calling
// process: Run starts /proc/self/exe with a hidden argument, the helper
// applies the rlimits and the Landlock ruleset to itself and then execs the
// target. Every program that calls Run must therefore begin main with
//
//	if sandbox.IsHelper(os.Args) {
//		sandbox.HelperMain()
//	}
//
// The helper reads its instructions from an inherited pipe, so nothing about
// the run appears in the target's arguments or environment.
//
// [Exec] (the agent profile) applies the ruleset on the calling thread and
// execs the command itself. When it must keep Spec.Protected read-only and
// cannot make a mount namespace in place (an ordinary user), it forks the
// command into a user and mount namespace: the ruleset and everything else
// the child needs are made before the fork, and the child makes only raw
// system calls until its exec — no second start of the program.
//
// Under Landlock the command can read and execute the system directories
// (/usr, /bin, /lib…, /etc without its secret files, /opt, /proc), read and
// write the workspace and its private TMPDIR, use a few device files, and
// nothing else: the home directory and /tmp are not accessible. TCP connect
// and bind are refused unless networking is allowed (Landlock ABI ≥ 4).
//
// Under Landlock the helper also empties the capability sets (a confined
// root keeps no CAP_SYS_PTRACE, which would let it read other processes'
// environments) and, when the network is off, installs a seccomp filter
// that refuses Multipath TCP sockets and io_uring, because Landlock's TCP
// rules do not apply to MPTCP.
//
// Memory is limited per process with RLIMIT_DATA (heap and private
// writable mappings, 2 GiB by default), not with an address-space limit:
// Go, Node.js and the JVM reserve gigabytes of address space they never
// touch, and an address-space limit kills them at start. Where a memory
// cgroup can be made (a delegated cgroup v2 subtree, or a writable v1
// memory hierarchy), the landlock and none backends also limit the whole
// run together with the same value.
//
// Known limits: UDP and pathname UNIX sockets are only restricted by
// Landlock ABI ≥ 10 and ≥ 9, so with smaller ABIs only the bubblewrap
// backend takes the network away completely; under the landlock and none
// backends a process that leaves the process group (setsid, double fork) is
// found by the run id in its environment ([RunVar]) and killed when the run
// ends, unless it also replaced its environment (it stays confined by
// Landlock); rlimits are per process.
package sandbox
