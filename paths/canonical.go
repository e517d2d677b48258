package paths

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// Env is the per-call context a path is judged in.
type Env struct {
	// Cwd is the directory relative paths are resolved against. "" means
	// Workspace; when both are "", a relative path is invalid.
	Cwd string
	// Workspace is the project root the agent works in. "" means Cwd; when
	// both are "", no path is inside the workspace.
	Workspace string
	// Lookups remembers the file system's answers for the call the path
	// belongs to; nil means every path is looked up afresh.
	Lookups *Lookups
}

// base returns the directory relative paths are joined to.
func (e Env) base() string {
	if e.Cwd != "" {
		return e.Cwd
	}
	return e.Workspace
}

// workspace returns the workspace root, cleaned, or "" when there is none.
func (e Env) workspace() string {
	w := e.Workspace
	if w == "" {
		w = e.Cwd
	}
	if !strings.HasPrefix(w, "/") {
		return ""
	}
	return cleanPath(w)
}

// cleanPath is path.Clean(p), with p itself when it is an absolute path
// that is already clean (the workspace, a canonical path: most are), found
// in one look at the bytes after each "/" rather than Clean's rebuilding
// it byte by byte (it runs several times for every path a script names).
func cleanPath(p string) string {
	if isCleanAbs(p) {
		return p
	}
	return path.Clean(p)
}

// isCleanAbs reports whether p is absolute and path.Clean(p) == p: it is
// "/", or it has no empty, "." or ".." element and no trailing "/". False
// only means it may not be clean.
func isCleanAbs(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	if len(p) == 1 {
		return true
	}
	if p[len(p)-1] == '/' {
		return false
	}
	for i := 0; i < len(p)-1; i++ { // p does not end in "/": every "/" has a next byte
		if p[i] != '/' {
			k := strings.IndexByte(p[i:], '/') // to the next separator at once
			if k < 0 {
				break
			}
			i += k
		}
		switch rest := p[i+1:]; {
		case rest[0] == '/':
			return false
		case rest[0] == '.':
			if rest == "." || rest == ".." || strings.HasPrefix(rest, "./") || strings.HasPrefix(rest, "../") {
				return false
			}
		}
	}
	return true
}

// Path is a canonical path: two absolute forms of what the caller wrote.
type Path struct {
	// Literal is the absolute, lexically cleaned form: relative paths joined
	// to the cwd, "~" and $HOME expanded, "." and ".." collapsed as text.
	Literal string
	// Resolved is the form the kernel would reach: symlinks along the longest
	// existing prefix resolved (dangling links followed to their target text),
	// with ".." applied after each link as the kernel does. Equal to Literal
	// when no symlink is involved.
	Resolved string
}

// Errors wrapped by Canonicalize; test with errors.Is.
var (
	// ErrInvalid marks a path that must be refused: empty, too long, NUL
	// bytes, invalid UTF-8, encoded or backslash traversal, "~user", a
	// symlink loop, or a relative path with no directory to resolve it in.
	ErrInvalid = errors.New("invalid path")
	// ErrUnverifiable marks a path whose value is not known statically, such
	// as one containing "$VAR" other than $HOME or a command substitution.
	ErrUnverifiable = errors.New("unverifiable path")
)

// maxPathLen is Linux PATH_MAX; longer paths cannot be opened anyway.
const maxPathLen = 4096

// maxLinks is the number of symlinks followed before giving up, as Linux's
// MAXSYMLINKS.
const maxLinks = 40

// Canonicalize turns p, as an agent wrote it, into its literal and resolved
// absolute forms. home expands "~", "~/x", "$HOME/x" and "${HOME}/x"; it must
// be absolute when p uses one of them. The only I/O is lstat and readlink
// along the path, done once.
func Canonicalize(p string, env Env, home string) (Path, error) {
	if err := validateText(p); err != nil {
		return Path{}, err
	}
	expanded, err := expandHome(p, home)
	if err != nil {
		return Path{}, err
	}
	abs, err := absolute(expanded, env)
	if err != nil {
		return Path{}, err
	}
	resolved, err := env.Lookups.resolve(abs)
	if err != nil {
		return Path{}, err
	}
	return Path{Literal: cleanPath(abs), Resolved: resolved}, nil
}

// PathError is the error Canonicalize returns: which path, what is wrong
// with it, and whether it is invalid or unverifiable (Kind, which errors.Is
// sees through).
type PathError struct {
	// Path is the path as the caller wrote it.
	Path string
	// Problem says what is wrong, phrased to follow "the path": "contains a
	// NUL byte".
	Problem string
	// Kind is ErrInvalid or ErrUnverifiable.
	Kind error
}

// Error returns e.g. `invalid path "~bob/x": uses the ~user form; ...`.
func (e *PathError) Error() string { return fmt.Sprintf("%v %q: %s", e.Kind, e.Path, e.Problem) }

// Unwrap returns Kind.
func (e *PathError) Unwrap() error { return e.Kind }

func invalid(p, format string, args ...any) error {
	return &PathError{Path: p, Problem: fmt.Sprintf(format, args...), Kind: ErrInvalid}
}

// validateText rejects paths that are refused before any interpretation.
func validateText(p string) error {
	switch {
	case p == "":
		return invalid(p, "is empty")
	case len(p) > maxPathLen:
		return invalid(p, "is %d bytes long, over the %d-byte limit", len(p), maxPathLen)
	case strings.IndexByte(p, 0) >= 0:
		return invalid(p, "contains a NUL byte")
	case !utf8.ValidString(p):
		return invalid(p, "is not valid UTF-8")
	}
	if encodedTraversal(p) {
		return invalid(p, "hides a separator or \"..\" in percent-encoding (%%2f, %%2e%%2e, %%252f)")
	}
	if backslashTraversal(p) {
		return invalid(p, "contains a Windows-style \"..\\\" traversal (a backslash is no separator on Linux, but is for Windows tools)")
	}
	return nil
}

// encodedTraversal reports whether percent-decoding p, up to three times,
// introduces a separator, a NUL or a new ".." component.
func encodedTraversal(p string) bool {
	cur := p
	for range 3 {
		next, changed := percentDecode(cur)
		if !changed {
			return false
		}
		if countSeps(next) > countSeps(cur) || strings.IndexByte(next, 0) >= 0 ||
			dotDotComponents(next, "/\\") > dotDotComponents(cur, "/\\") {
			return true
		}
		cur = next
	}
	return false
}

// percentDecode replaces every %XX hex escape in s; it reports whether any
// escape was found. Malformed escapes are left as they are.
func percentDecode(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, false
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			changed = true
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String(), changed
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

func countSeps(s string) int { return strings.Count(s, "/") + strings.Count(s, "\\") }

// dotDotComponents counts ".." components when any byte of seps separates.
func dotDotComponents(s, seps string) int {
	n := 0
	for f := range strings.FieldsFuncSeq(s, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		if f == ".." {
			n++
		}
	}
	return n
}

// backslashTraversal reports whether p has a ".." component only when a
// backslash is read as a separator, as Windows tools would.
func backslashTraversal(p string) bool {
	return strings.IndexByte(p, '\\') >= 0 && dotDotComponents(p, "/\\") > dotDotComponents(p, "/")
}

// expandHome expands a leading "~", "$HOME" or "${HOME}" and refuses any
// other tilde or dollar form.
func expandHome(p, home string) (string, error) {
	rest, ok := cutHomePrefix(p)
	if !ok && strings.HasPrefix(p, "~") {
		return "", invalid(p, "uses the ~user form; only ~ (your own home) is accepted")
	}
	if dynamic(rest) {
		return "", &PathError{Path: p, Problem: "contains a shell variable or substitution other than $HOME", Kind: ErrUnverifiable}
	}
	if !ok {
		return p, nil
	}
	if !strings.HasPrefix(home, "/") {
		return "", invalid(p, "refers to the home directory, which is not known (home is %q)", home)
	}
	return home + rest, nil
}

// cutHomePrefix strips "~", "$HOME" or "${HOME}" when followed by "/" or the
// end, returning the rest (starting with "/" or empty).
func cutHomePrefix(p string) (string, bool) {
	if p == "" || p[0] != '~' && p[0] != '$' {
		return p, false // most paths and patterns: no prefix to try
	}
	for _, prefix := range [...]string{"~", "$HOME", "${HOME}"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok && (rest == "" || rest[0] == '/') {
			return rest, true
		}
	}
	return p, false
}

// dynamic reports whether s holds a shell expansion: "$NAME", "${...}",
// "$(...)", a positional or special parameter ("$1", "$@", "$?", ...) or a
// backquote.
func dynamic(s string) bool {
	if strings.IndexByte(s, '`') >= 0 {
		return true
	}
	for i := strings.IndexByte(s, '$'); i >= 0 && i+1 < len(s); {
		c := s[i+1]
		if strings.IndexByte("{(_@*#?!$-", c) >= 0 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			return true
		}
		next := strings.IndexByte(s[i+1:], '$')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// absolute joins a relative p to the call's directory.
func absolute(p string, env Env) (string, error) {
	if strings.HasPrefix(p, "/") {
		return p, nil
	}
	base := env.base()
	if base == "" {
		return "", invalid(p, "is relative and the call names no working directory")
	}
	if !strings.HasPrefix(base, "/") {
		return "", invalid(p, "is relative and the working directory %q is not absolute", base)
	}
	return base + "/" + withoutDotSlash(p), nil
}

// withoutDotSlash drops p's leading "./" elements (not one followed by
// another "/"): base/./x names what base/x does for the kernel and for
// resolve, and base/x is often clean already (cleanPath copies nothing).
func withoutDotSlash(p string) string {
	for len(p) > 2 && p[0] == '.' && p[1] == '/' && p[2] != '/' {
		p = p[2:]
	}
	return p
}

// walkFirstDepth is the depth up to which resolve walks a path itself
// before asking the kernel. A walk costs one lstat per component; the
// kernel's route costs three system calls whatever the depth, but one of
// them looks the descriptor up in /proc, which costs as much as several
// lstats, and far more the first time in a process (as every hook process
// is): /proc builds the process's entries on that first lookup.
const walkFirstDepth = 6

// walkNewNames is how many names, not asked about before in the call, a
// deep path's walk may ask about (one lstat each) and still be walked
// rather than resolved by the kernel (three system calls, one of them
// the costly look-up in /proc) or its directory by the kernel and its
// name by lstat.
const walkNewNames = 2

// resolve walks abs component by component as the kernel would, following
// symlinks (including dangling ones, to their target text) until a component
// does not exist; the rest is taken as written. ".." applies to the resolved
// prefix. The result is clean and absolute.
func resolve(abs string) (string, error) { return resolveWith(abs, nil) }

// resolveWith is resolve asking the file system through l (nil: directly).
func resolveWith(abs string, l *Lookups) (string, error) {
	if strings.HasPrefix(abs, "/dev/") {
		if c := path.Clean(abs); isHarmlessDevice(c) {
			return c, nil // /dev/stdout -> /proc/self/fd/1 -> pipe:[N] is still /dev/stdout
		}
	}
	if strings.Count(abs, "/") <= walkFirstDepth {
		if r, err := walkWith(abs, l); err == nil {
			return r, nil
		}
	} else if l != nil {
		// With the call's lookups, a deep path whose walk asks about at
		// most walkNewNames names the call has not asked about yet (the
		// rest of its way was walked already: the workspace, ./bin
		// missing) is walked; any other is its directory as the kernel
		// resolved it (once per directory and call) and its name, unless
		// the name is a link: one lstat for each further name in the
		// directory instead of three system calls.
		if l.walkAsksAtMost(abs, walkNewNames) {
			if r, err := walkWith(abs, l); err == nil {
				return r, nil
			}
		}
		if r, ok := resolveNewFile(abs, l); ok {
			return r, nil
		}
	}
	if r, ok := l.kernelResolve(abs); ok {
		return r, nil
	}
	if r, ok := resolveNewFile(abs, l); ok {
		return r, nil
	}
	return walkWith(abs, l)
}

// resolveNewFile handles the common case of a file about to be created in an
// existing directory: the kernel resolves the directory, and the last
// component is taken as written unless it is itself a (dangling) symlink.
// It holds for an existing file too: what is not a link is reached by its
// name in its directory.
func resolveNewFile(abs string, l *Lookups) (string, bool) {
	i := strings.LastIndexByte(abs, '/')
	dir, base := abs[:i], abs[i+1:]
	if dir == "" || base == "" || base == "." || base == ".." {
		return "", false
	}
	r, ok := l.kernelResolve(dir)
	if !ok {
		return "", false
	}
	if _, isLink, err := l.readLink(abs); isLink || err != nil && !errors.Is(err, errMissing) {
		return "", false
	}
	if r == "/" {
		return "/" + base, true
	}
	return r + "/" + base, true
}

// walk resolves abs without the kernel's help (see resolve).
func walk(abs string) (string, error) { return walkWith(abs, nil) }

// walkWith is walk asking the file system through l (nil: directly).
// With l, a name in a directory whose walk stopped at a missing name is
// not walked again (Lookups.belowStopped): bin/tool1, bin/tool2, … in a
// bin/ not made yet.
func walkWith(abs string, l *Lookups) (string, error) {
	if r, ok := l.belowStopped(abs); ok {
		return r, nil
	}
	w := walker{abs: abs, cur: abs, l: l}
	if n, r := l.resolvedPrefix(abs); n > 0 {
		// The kernel resolved abs[:n] in this call: the walk goes on from
		// there, as it would after resolving it itself.
		switch {
		case r == "/":
			w.cur = abs[n:]
		case r != abs[:n]:
			w.cur, w.i = r+abs[n:], len(r)
		default:
			w.i = n
		}
		if w.cur == "" {
			return "/", nil
		}
	}
	for w.i < len(w.cur) {
		done, err := w.step()
		if err != nil {
			return "", err
		}
		if done {
			r := cleanPath(w.cur)
			if w.missing {
				l.rememberStopped(abs, r)
				w.stoppedInDir()
			}
			return r, nil
		}
	}
	if w.cur == "" {
		return "/", nil
	}
	return w.cur, nil
}

// walker is the state of a component-by-component resolution: cur[:i] is
// resolved ("" = root) and cur[i:] is "" or starts with "/".
type walker struct {
	abs   string
	cur   string
	i     int
	links int
	l     *Lookups
	// missing: the walk stopped because a name on the way does not
	// exist (not at a device it leaves as written), cur[:stop] (the
	// missing name ends at stop).
	missing bool
	stop    int
}

// stoppedInDir remembers abs's directory as stopped too when the walk
// of abs stopped at a missing name before abs's own name: the walk of
// the directory asks the same names up to there (its path is cur without
// "/name" at every step), and stops there as well, unless the missing
// name is the directory's last and a device the walk leaves as written.
func (w *walker) stoppedInDir() {
	i := strings.LastIndexByte(w.abs, '/')
	if i <= 0 {
		return
	}
	name := w.abs[i+1:]
	if name == "" || name == "." || name == ".." || !strings.HasSuffix(w.cur, "/"+name) {
		return
	}
	dir := w.cur[:len(w.cur)-len(name)-1]
	if w.stop > len(dir) || w.stop == len(dir) && isHarmlessDevice(dir) {
		return
	}
	w.l.rememberStopped(w.abs[:i], cleanPath(dir))
}

// step consumes the component after i. done means the rest of cur needs no
// resolution because a name on the way does not exist.
func (w *walker) step() (done bool, err error) {
	j := w.i + 1
	for j < len(w.cur) && w.cur[j] != '/' {
		j++
	}
	switch w.cur[w.i+1 : j] {
	case "", ".":
		w.cur = w.cur[:w.i] + w.cur[j:]
		return false, nil
	case "..":
		p := max(strings.LastIndexByte(w.cur[:w.i], '/'), 0)
		w.cur, w.i = w.cur[:p]+w.cur[j:], p
		return false, nil
	}
	if j == len(w.cur) && isHarmlessDevice(w.cur) {
		return true, nil
	}
	return w.follow(j)
}

// follow lstat-s cur[:j] and splices in its target when it is a symlink.
func (w *walker) follow(j int) (done bool, err error) {
	target, isLink, err := w.l.readLink(w.cur[:j])
	switch {
	case errors.Is(err, errMissing):
		if !hasDotDot(w.cur[j:]) {
			w.missing, w.stop = true, j
			return true, nil // nothing below a missing name exists
		}
		w.i = j
		return false, nil
	case err != nil:
		return false, invalid(w.abs, "passes through the symlink %s, which cannot be read (%v)", w.cur[:j], err)
	case !isLink:
		w.i = j
		return false, nil
	}
	if w.links++; w.links > maxLinks {
		return false, invalid(w.abs, "passes through more than %d symlinks (a symlink loop?)", maxLinks)
	}
	w.cur, w.i = followLink(w.cur, w.i, j, target)
	return false, nil
}

// errMissing is readLinkIfAny's report that a name does not exist.
var errMissing = errors.New("no such file or directory")

// hasDotDot reports whether the slash-separated s has a ".." component.
func hasDotDot(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == '.' && (i == 0 || s[i-1] == '/') && (i+2 == len(s) || s[i+2] == '/') {
			return true
		}
	}
	return false
}

// followLink splices a link's target in place of the component cur[i:j].
func followLink(cur string, i, j int, target string) (string, int) {
	if strings.HasPrefix(target, "/") {
		return target + cur[j:], 0
	}
	return cur[:i] + "/" + target + cur[j:], i
}
