package paths

// Lookups remembers what the file system answered while one call was
// judged: whether each name along a path is a symlink and where it points,
// what the kernel resolved a path to, and what a whole path resolved to.
// The commands of one call name the same directories again and again (the
// workspace, ./cmd/…, ./build/): with Lookups each is asked once. The
// answers are those of one moment, as they would be without it: nothing
// the call judges runs before the decision, so the file system the
// decision sees does not change because of it.
//
// The zero value is ready to use. A Lookups is not safe for concurrent
// use: give each call its own (Env.Lookups).
type Lookups struct {
	links    map[string]linkAnswer
	kernel   map[string]kernelAnswer
	resolved map[string]resolution
}

type linkAnswer struct {
	target string
	isLink bool
	err    error
}

type kernelAnswer struct {
	r  string
	ok bool
}

type resolution struct {
	r   string
	err error
}

// maxLookups bounds each of a Lookups' maps; past it answers are asked
// for again rather than kept (the call's work budget bounds the asking).
const maxLookups = 4096

func remember[V any](m *map[string]V, k string, v V) {
	if *m == nil {
		*m = make(map[string]V)
	}
	if len(*m) < maxLookups {
		(*m)[k] = v
	}
}

// readLink is readLinkIfAny, remembered; a nil l asks every time.
func (l *Lookups) readLink(name string) (string, bool, error) {
	if l == nil {
		return readLinkIfAny(name)
	}
	if a, ok := l.links[name]; ok {
		return a.target, a.isLink, a.err
	}
	t, isLink, err := readLinkIfAny(name)
	remember(&l.links, name, linkAnswer{t, isLink, err})
	return t, isLink, err
}

// kernelResolve is the package's kernelResolve, remembered.
func (l *Lookups) kernelResolve(abs string) (string, bool) {
	if l == nil {
		return kernelResolve(abs)
	}
	if a, ok := l.kernel[abs]; ok {
		return a.r, a.ok
	}
	r, ok := kernelResolve(abs)
	remember(&l.kernel, abs, kernelAnswer{r, ok})
	return r, ok
}

// resolve is the package's resolve, remembered.
func (l *Lookups) resolve(abs string) (string, error) {
	if l == nil {
		return resolveWith(abs, nil)
	}
	if a, ok := l.resolved[abs]; ok {
		return a.r, a.err
	}
	r, err := resolveWith(abs, l)
	remember(&l.resolved, abs, resolution{r, err})
	return r, err
}
