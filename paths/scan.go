package paths

import (
	"path"
	"strings"
	"unicode/utf8"
)

// A deferred list (built-in patterns, compiled on first use) judged a few
// times is judged from its sources: each source is first asked mayMatch,
// a test of its text that costs a few string comparisons, and only the
// sources that pass are compiled and matched. Compiling and indexing a
// whole list for one judgement cost a hook process that deletes "~" about
// 0.9 M instructions over six lists; the scan asks each source once.
// mayMatch only ever rules out a source that cannot match, so the first
// pattern found is the one the compiled list finds (scan_test.go compares
// both ways).

// firstScanned is first for a deferred list not compiled yet: the sources
// in order, each compiled only when mayMatch lets it through, so the
// first pattern matching p is the compiled list's first.
func (s *patternSet) firstScanned(d *deferredList, p string, j *judge) *pattern {
	for _, h := range d.homes {
		if path.Clean(h) != h || !ascii(h) {
			return s.firstListed(p, j) // the compiled globs are not h+rest, or not read byte by byte
		}
	}
	for i, src := range d.srcs {
		var k scanKey
		if i < len(d.keys) && d.keys[i] != noScanKey {
			k = builtinScanKeys[d.keys[i]].unpack(src) // scanKeyAt, inlined
		} else {
			k = scanKeyOf(src)
		}
		if !k.mayMatch(d.homes, p) {
			continue
		}
		pts, err := appendPattern(nil, src, d.homes)
		if err != nil {
			panic("paths: a built-in pattern does not compile: " + err.Error())
		}
		for i := range pts {
			if matchOne(&pts[i], p, j, s.tree) {
				return &pts[i]
			}
		}
	}
	return nil
}

// mayMatch reports whether a pattern compiled from src (valid, with
// homes free of glob bytes, as a deferred list's are) may match the clean
// absolute path p, or, in a tree list, a directory above p. It is false
// only when none can: every path an anchored pattern matches lies within
// the directory its literal head names, and every path an any-depth
// pattern matches holds its literal head and its literal end. Anything
// it does not read (a workspace anchor, a source path.Clean would change)
// may match.
func mayMatch(src string, homes []string, p string) bool {
	k := scanKeyOf(src)
	return k.mayMatch(homes, p)
}

// A scanKey is what mayMatch reads of a source, worked out from its text
// alone: for an anchored source its literal head, for an any-depth one
// the literal bytes p must hold. The built-in sources' keys are generated
// (builtinScanKeys in builtin_gen.go, checked against scanKeyOf by
// TestBuiltinSourcesGenerated), so a hook process, which asks ~235
// sources about a path, reads them rather than working them out (~400
// instructions a source).
type scanKey struct {
	kind uint8
	// a is the head (scanRooted, scanHome) or the first needle
	// (scanNeedles); b is the source without its home prefix (scanHome,
	// scanHomeAny) or the second needle (scanNeedles).
	a, b string
}

// The kinds of scanKey.
const (
	scanAny     = iota // may match any path
	scanRooted         // anchored at the root: p lies within a
	scanHome           // anchored at each home h: p lies within h+a
	scanHomeAny        // anchored at each home, head not known: may match when there is a home
	scanNeedles        // any depth: p holds a and b
)

// scanKeyOf works out src's scanKey (see mayMatch).
func scanKeyOf(src string) scanKey {
	if src == "" {
		return scanKey{kind: scanAny}
	}
	if c := src[0]; c == '/' {
		return rootedKey(src)
	} else if c != '~' && c != '$' && c != '<' {
		return anyDepthKey(src)
	}
	if rest, ok := cutHomePrefix(src); ok {
		// anchoredHead reads h only when it is "" or "/" (which mayMatch
		// asks anchoredMayMatch about as it comes); "/h" stands for any other.
		if head, ok := anchoredHead("/h", rest); ok {
			return scanKey{kind: scanHome, a: head, b: rest}
		}
		return scanKey{kind: scanHomeAny, b: rest}
	}
	switch {
	case strings.HasPrefix(src, workspaceToken):
		return scanKey{kind: scanAny}
	case strings.HasPrefix(src, "/"):
		return rootedKey(src)
	}
	return anyDepthKey(src)
}

// rootedKey is scanKeyOf for a source anchored at the root.
func rootedKey(src string) scanKey {
	if head, ok := anchoredHead("", src); ok {
		return scanKey{kind: scanRooted, a: head}
	}
	return scanKey{kind: scanAny}
}

// mayMatch is mayMatch for the source k is the key of.
func (k *scanKey) mayMatch(homes []string, p string) bool {
	switch k.kind {
	case scanRooted:
		return withinJoined(p, "", k.a)
	case scanNeedles:
		return strings.Contains(p, k.a) && strings.Contains(p, k.b)
	case scanHome, scanHomeAny:
		for _, h := range homes {
			if h == "" || h == "/" {
				if anchoredMayMatch(h, k.b, p) {
					return true
				}
			} else if k.kind == scanHomeAny || withinJoined(p, h, k.a) {
				return true
			}
		}
		return false
	}
	return true
}

// anchoredMayMatch is mayMatch for the anchored glob h+rest (h a clean
// absolute home without glob bytes, or ""; rest "" or starting with "/").
// When both are clean the compiled glob is h+rest itself, and whatever
// it matches (and every path below) lies within the directory its head
// names: all of it when it holds no glob byte, else up to the last "/"
// before the first one.
func anchoredMayMatch(h, rest, p string) bool {
	head, ok := anchoredHead(h, rest)
	return !ok || withinJoined(p, h, head)
}

// anchoredHead returns the literal head of the anchored glob h+rest (see
// anchoredMayMatch): every path the compiled pattern names lies within
// h+head. ok is false when that is not known: the compiled glob is not
// h+rest, it starts with a glob byte at the root, or it holds a byte the
// glob engine reads as a rune.
func anchoredHead(h, rest string) (head string, ok bool) {
	if h == "/" || rest == "/" {
		return "", false // the compiled glob is not h+rest
	}
	if rest == "" {
		return "", h != "" // "" from the root is not a pattern
	}
	// One pass over rest: cleanRooted's test of every name, no byte the
	// glob engine reads as a rune, and the last "/" before the first glob
	// byte (a hook process asks this of ~200 sources).
	if rest[0] != '/' || rest[len(rest)-1] == '/' {
		return "", false
	}
	glob, name := false, 0 // name: the "/" before the name being read
	head = rest
	for i := 1; i < len(rest); i++ {
		switch srcClass[rest[i]] {
		case classPlain:
		case classSlash:
			if n := i - name - 1; n == 0 || n <= 2 && dots(rest[name+1:i]) {
				return "", false // an empty, "." or ".." name: path.Clean changes the glob
			}
			name = i
		case classRune:
			return "", false // the glob engine reads runes: every invalid byte is U+FFFD to it
		default: // a glob byte
			if !glob {
				glob, head = true, rest[:name]
			}
		}
	}
	if n := len(rest) - name - 1; n <= 2 && dots(rest[name+1:]) {
		return "", false
	}
	if h == "" && head == "" {
		return "", false // a glob from the root: "/*", "/**/x"
	}
	return head, true
}

// The classes of a source's bytes that anchoredHead and anyDepthMayMatch
// tell apart, by one table load a byte.
const (
	classPlain = iota
	classSlash
	classGlob // a byte of globMeta
	classRune // not ASCII: part of a rune to the glob engine
)

var srcClass = func() (t [256]uint8) {
	for c := utf8.RuneSelf; c < len(t); c++ {
		t[c] = classRune
	}
	for i := 0; i < len(globMeta); i++ {
		t[globMeta[i]] = classGlob
	}
	t['/'] = classSlash
	return t
}()

// dots reports whether the non-empty s is "." or "..".
func dots(s string) bool {
	return s[0] == '.' && (len(s) == 1 || s[1] == '.')
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// cleanRooted reports whether r is "" or a path starting with "/" that
// path.Clean leaves as it is: no empty, "." or ".." name, no "/" at its
// end.
func cleanRooted(r string) bool {
	if r == "" {
		return true
	}
	if r[0] != '/' || r[len(r)-1] == '/' {
		return false
	}
	for i := 0; i < len(r); i++ {
		if r[i] != '/' {
			continue
		}
		n := strings.IndexByte(r[i+1:], '/')
		if n < 0 {
			n = len(r) - i - 1
		}
		if name := r[i+1 : i+1+n]; name == "" || name == "." || name == ".." {
			return false
		}
	}
	return true
}

// withinJoined is within(p, h+r) without joining them.
func withinJoined(p, h, r string) bool {
	n := len(h) + len(r)
	return len(p) >= n && p[:len(h)] == h && p[len(h):n] == r && (len(p) == n || p[n] == '/')
}

// anyDepthMayMatch is mayMatch for a relative (any-depth) source. The
// compiled pattern matches a trailing run of p's components (or of a
// directory's above p) against the source without its leading "./" and
// "**/": the literal bytes before its first glob byte (bar a "/" that
// "/**" may match with nothing) and those after its last one are in p.
func anyDepthMayMatch(src, p string) bool {
	k := anyDepthKey(src)
	return k.mayMatch(nil, p)
}

// anyDepthKey is scanKeyOf for a relative (any-depth) source: the needles
// anyDepthMayMatch looks for.
func anyDepthKey(src string) scanKey {
	rel := src
	for len(rel) >= 2 { // strip "./" and "**/" as classifyRaw does
		if rel[0] == '.' && rel[1] == '/' {
			rel = rel[2:]
		} else if len(rel) >= 3 && rel[0] == '*' && rel[1] == '*' && rel[2] == '/' {
			rel = rel[3:]
		} else {
			break
		}
	}
	rel = strings.TrimSuffix(rel, "/")
	first, last := -1, -1
	for i := 0; i < len(rel); i++ {
		switch srcClass[rel[i]] {
		case classRune:
			return scanKey{kind: scanAny} // the glob engine reads runes: every invalid byte is U+FFFD to it
		case classGlob:
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return scanKey{kind: scanNeedles, a: rel}
	}
	return scanKey{kind: scanNeedles, a: strings.TrimSuffix(rel[:first], "/"), b: rel[last+1:]}
}

// setMeetsScanned is setMeets for a deferred list not compiled yet: the
// sources in order, each compiled only when setMayMeet lets it through,
// and its patterns asked as setMeets asks them (without the index), so
// the first pattern found is the compiled list's first. A hook process
// that deletes "~" judged the tree against the protected and denied
// lists, and compiling and indexing both cost ~0.35 M instructions. ok is
// false when the scan cannot answer (a home or dir it does not read).
func (j *judge) setMeetsScanned(s *patternSet, d *deferredList, set []component, dir string, tree bool) (pt *pattern, ok bool) {
	if dir == "" || dir[0] != '/' || path.Clean(dir) != dir || !ascii(dir) {
		return nil, false
	}
	for _, h := range d.homes {
		if path.Clean(h) != h || !ascii(h) {
			return nil, false // the compiled globs are not h+rest, or not read byte by byte
		}
	}
	for _, src := range d.srcs {
		if !setMayMeet(src, d.homes, dir, tree) {
			continue
		}
		pts, err := appendPattern(nil, src, d.homes)
		if err != nil {
			panic("paths: a built-in pattern does not compile: " + err.Error())
		}
		for i := range pts {
			if mayHold(&pts[i], dir) && j.patternMeets(pts, s.tree, nil, i, set, dir, tree) {
				return &pts[i], true
			}
		}
	}
	return nil, true
}

// setMayMeet reports whether a pattern compiled from src (valid, with
// homes clean and free of glob bytes, as a deferred list's are) may name
// a path of a set whose paths all begin with the clean absolute directory
// dir (for a tree, dir and everything below it). It is false only when
// none can:
//   - an anchored pattern names only paths within the directory its
//     literal head names (anchoredHead), and a path within both that and
//     dir exists only when one of the two lies within the other;
//   - an any-depth pattern meets a tree only through a literal name found
//     inside it (literalNameInside), so only when it is kindSuffix: its
//     text after "**/" holds no glob byte.
//
// Anything it does not read (a workspace anchor, a source path.Clean
// would change) may meet.
func setMayMeet(src string, homes []string, dir string, tree bool) bool {
	if src == "" {
		return true
	}
	if c := src[0]; c == '/' {
		return anchoredMayHold("", src, dir)
	} else if c != '~' && c != '$' && c != '<' {
		return !tree || anyDepthLiteral(src)
	}
	if rest, ok := cutHomePrefix(src); ok {
		for _, h := range homes {
			if anchoredMayHold(h, rest, dir) {
				return true
			}
		}
		return false
	}
	if strings.HasPrefix(src, workspaceToken) {
		return true
	}
	return !tree || anyDepthLiteral(src)
}

// anchoredMayHold is setMayMeet for the anchored glob h+rest (as in
// anchoredMayMatch).
func anchoredMayHold(h, rest, dir string) bool {
	head, ok := anchoredHead(h, rest)
	return !ok || withinJoined(dir, h, head) || joinedWithin(h, head, dir)
}

// joinedWithin is within(h+r, dir) without joining them.
func joinedWithin(h, r, dir string) bool {
	if dir == "/" {
		return true
	}
	n := len(h) + len(r)
	if n < len(dir) {
		return false
	}
	at := func(i int) byte { // (h+r)[i]
		if i < len(h) {
			return h[i]
		}
		return r[i-len(h)]
	}
	for i := 0; i < len(dir); i++ {
		if at(i) != dir[i] {
			return false
		}
	}
	return n == len(dir) || at(len(dir)) == '/'
}

// anyDepthLiteral reports whether the any-depth source src compiles to a
// kindSuffix pattern: its text without the leading "./" and "**/" and a
// trailing "/" (classifyRaw) holds no glob byte (classifyAnyDepth).
func anyDepthLiteral(src string) bool {
	rel := src
	for {
		trimmed := strings.TrimPrefix(strings.TrimPrefix(rel, "./"), "**/")
		if trimmed == rel {
			break
		}
		rel = trimmed
	}
	return isLiteral(strings.TrimSuffix(rel, "/"))
}
