// Package paths canonicalises a path an agent wants to touch and judges it
// for an access (read, write or delete) against the policy's path settings,
// reporting risk.Finding values.
//
// # Canonicalisation
//
// [Canonicalize] joins a relative path to the call's cwd (or workspace),
// expands "~", "~/x", "$HOME/x" and "${HOME}/x", collapses "." and "..",
// and resolves symlinks along the longest existing prefix as the kernel
// would, following dangling links to their target text. It refuses, with
// [ErrInvalid], an empty or over-long path, NUL bytes, invalid UTF-8, the
// "~user" form, separators or ".." hidden in percent-encoding ("%2f",
// "%2e%2e", double-encoded "%252f"), symlink loops, and a ".." that only
// exists when a backslash is read as a separator ("a\..\b"): a backslash is
// an ordinary byte on Linux, but the same string handed to a Windows tool
// escapes its directory, and no real file name needs it. Any other shell
// variable or substitution ("$X", "${X}", "$(...)", backquotes) makes the
// path unknowable statically: [ErrUnverifiable], reported as an ask with
// Unverifiable set, and as a deny as well when the static directory before
// the dynamic part is denied ("~/.ssh/id_$X"). The only I/O is lstat, readlink and, on Linux, an
// open with O_PATH (which reads nothing and triggers no device), once per
// path. A symlink created after the check can still
// redirect the real command, which is why the sandbox backs these rules.
//
// # Evaluation order
//
// [Checker.Check] judges the resolved and the literal form; a deny on either
// wins. For each form the checks run in this order; a deny, or a matching
// rule, ends the judgement:
//
//  1. Denied patterns: deny (paths.denied), whatever else is configured.
//  2. Protected patterns, for writes and deletes: deny (paths.self).
//  3. Rules, first match: its explicit verdict (paths.rule).
//  4. /proc, /sys and /dev: deny (paths.system), except harmless devices
//     (/dev/null, /dev/zero, /dev/full, /dev/random, /dev/urandom, /dev/tty,
//     /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N; never for delete) and
//     reads of /proc/cpuinfo, meminfo, version, loadavg and uptime.
//  5. Placement: inside the workspace or a read-write root is fine; a write
//     to a read-only root or a read of a write-only root is denied; a path
//     outside everything is denied when Allowed is non-empty and matches
//     none of it (paths.not-allowed), else judged by WorkspaceOnly,
//     WriteOutside and ReadOutside (paths.outside-workspace).
//  6. Sensitive (any access) and SensitiveWrite (writes): ask (paths.sensitive).
//
// # Patterns
//
// Patterns are doublestar globs, validated at [Compile] and matched without
// allocating (the common shapes, such as "**/.env", "**/*.pem" and
// "~/.ssh/**", skip the glob engine). "~/" and "<workspace>/" anchor a
// pattern; a relative pattern matches a trailing run of components at any
// depth. In the deny-like lists (Denied, Protected, Sensitive,
// SensitiveWrite) a pattern that matches a directory covers its contents, as
// in .gitignore; Allowed and Rules match only what they name.
//
// # Cost
//
// On Linux an existing path is resolved by the kernel (open with O_PATH,
// readlink of /proc/self/fd/N, close: three system calls at any depth); a new
// file in an existing directory costs one more lstat; otherwise the walk
// stops at the first missing name. The workspace is resolved only when a
// form of the path is not lexically inside it.
//
// # Default lists
//
// [DefaultDenied] is the union of Aar's, ai-chat's and ZeroClaw's denied
// paths plus other credential stores; [DefaultSensitive],
// [DefaultSensitiveWrite] and [DefaultProtected] complete [DefaultConfig].
// ZeroClaw also forbids the system trees (/etc, /usr, /var, /tmp, /opt,
// /bin, ...) as prefixes. Writes there are denied by workspace confinement
// already; reads are deliberately allowed, since reading /usr/include or
// /etc/os-release is how agents work. This and the other deliberate
// differences are listed under DivergenceNotes in defaults.go.
//
// Paths are POSIX paths: the package is written for Linux (and other Unix)
// hosts, where "/" is the only separator and names are case-sensitive.
package paths
