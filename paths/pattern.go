package paths

import (
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// workspaceToken starts a pattern anchored at the call's workspace.
const workspaceToken = "<workspace>"

// globMeta are the bytes that make a doublestar pattern more than a literal.
const globMeta = `*?[]{}\`

// anchor says what part of a path a pattern is matched against.
type anchor uint8

const (
	anchorAbs       anchor = iota // the absolute path
	anchorAny                     // any trailing run of components (relative patterns)
	anchorWorkspace               // the path below the workspace ("<workspace>/...")
)

// matchKind selects a matcher. The literal kinds avoid the glob engine for
// the common shapes of path patterns.
type matchKind uint8

const (
	kindExact       matchKind = iota // subject == lit
	kindTree                         // subject is lit or below it ("LIT/**")
	kindSuffix                       // subject ends with the components lit ("**/LIT")
	kindDirAnywhere                  // a run of components equals lit, anything below ("**/LIT/**")
	kindBaseSuffix                   // base name ends with lit ("**/*LIT")
	kindBasePrefix                   // base name starts with lit ("**/LIT*")
	kindBaseGlob                     // base name matches the glob lit ("**/G", G without "/")
	kindGlob                         // full doublestar match of glob (or baseGlob)
)

// pattern is one compiled glob. Subjects are absolute paths, or for
// anchorWorkspace the part of the path below the workspace ("" or "/...").
type pattern struct {
	source   string // as written in the config, for reasons
	anchor   anchor
	kind     matchKind
	lit      string
	litDir   string   // lit + "/", for kindSuffix and kindDirAnywhere
	tail     []string // kindSuffix: lit's components
	glob     string
	baseGlob string // for kindGlob ending in "/**": also match the base directory
}

// compilePattern expands and classifies src. homes are the literal and, when
// different, the resolved home directory; one pattern is made per home for
// "~" patterns.
func compilePattern(src string, homes []string) ([]pattern, error) {
	return appendPattern(nil, src, homes)
}

// appendPattern is compilePattern appending to dst (a list compiles into
// one slice); on error dst is returned as it was.
func appendPattern(dst []pattern, src string, homes []string) ([]pattern, error) {
	switch {
	case src == "":
		return dst, fmt.Errorf("empty pattern")
	case strings.IndexByte(src, 0) >= 0:
		return dst, fmt.Errorf("pattern %q contains a NUL byte", src)
	}
	if rest, ok := cutHomePrefix(src); ok {
		n := len(dst)
		for _, h := range homes {
			p, err := classify(src, anchorAbs, path.Clean(escapeGlob(h)+rest))
			if err != nil {
				return dst[:n], err
			}
			dst = append(dst, p)
		}
		return dst, nil
	}
	if strings.HasPrefix(src, "~") {
		return dst, fmt.Errorf("pattern %q uses the ~user form; only ~/ is expanded", src)
	}
	p, err := classifyRaw(src)
	if err != nil {
		return dst, err
	}
	return append(dst, p), nil
}

// classifyRaw handles patterns without "~": workspace-anchored, absolute or
// relative.
func classifyRaw(src string) (pattern, error) {
	if rest, ok := strings.CutPrefix(src, workspaceToken); ok && (rest == "" || rest[0] == '/') {
		return classify(src, anchorWorkspace, rest)
	}
	if strings.HasPrefix(src, "/") {
		return classify(src, anchorAbs, path.Clean(src))
	}
	rel := src
	for {
		trimmed := strings.TrimPrefix(strings.TrimPrefix(rel, "./"), "**/")
		if trimmed == rel {
			break
		}
		rel = trimmed
	}
	if rel == "" || rel == "**" || rel == "." {
		return pattern{}, fmt.Errorf("pattern %q matches every path; name the files to match", src)
	}
	return classify(src, anchorAny, strings.TrimSuffix(rel, "/"))
}

// classify validates glob and picks the fastest matcher for it.
func classify(src string, a anchor, glob string) (pattern, error) {
	// "**/" holds none of the bytes that make a glob invalid, so glob is
	// valid exactly when "**/"+glob is.
	if !doublestar.ValidatePattern(glob) {
		return pattern{}, fmt.Errorf("pattern %q is not a valid glob (check brackets, braces and escapes)", src)
	}
	full := glob
	if a == anchorAny {
		full = anyDepth(src, glob)
	}
	p := pattern{source: src, anchor: a, kind: kindGlob, glob: full}
	if base, ok := strings.CutSuffix(glob, "/**"); ok || glob == "**" {
		p.baseGlob = base
		if a == anchorAny && base != "" {
			p.baseGlob = full[:len(full)-len("/**")]
		}
	}
	if a == anchorAny {
		classifyAnyDepth(&p, glob)
	} else {
		classifyAnchored(&p, glob)
	}
	return p, nil
}

// anyDepth returns "**/"+glob, taken from src when src ends with it (as
// most patterns are written: "**/.env"), so compiling the defaults does not
// allocate a copy of each.
func anyDepth(src, glob string) string {
	if full := len(glob) + len("**/"); len(src) >= full && src[len(src)-full:len(src)-len(glob)] == "**/" &&
		src[len(src)-len(glob):] == glob {
		return src[len(src)-full:]
	}
	return "**/" + glob
}

// isLiteral reports whether s holds none of globMeta. A loop over a table
// rather than strings.ContainsAny, which builds its byte set on every call:
// compiling the built-in path lists asks this ~600 times per process.
func isLiteral(s string) bool {
	for i := 0; i < len(s); i++ {
		if isGlobMeta[s[i]] {
			return false
		}
	}
	return true
}

var isGlobMeta = func() (t [256]bool) {
	for i := 0; i < len(globMeta); i++ {
		t[globMeta[i]] = true
	}
	return t
}()

func classifyAnchored(p *pattern, glob string) {
	base, tree := strings.CutSuffix(glob, "/**")
	switch {
	case isLiteral(glob):
		p.kind, p.lit = kindExact, glob
	case glob == "/**" || glob == "**":
		p.kind, p.lit = kindTree, ""
	case tree && isLiteral(base):
		p.kind, p.lit = kindTree, base
	}
}

func classifyAnyDepth(p *pattern, rel string) {
	base, tree := strings.CutSuffix(rel, "/**")
	switch {
	case isLiteral(rel):
		p.kind, p.litDir = kindSuffix, "/"+rel+"/"
		p.lit = p.litDir[:len(p.litDir)-1]
		p.tail = strings.Split(rel, "/")
	case tree && isLiteral(base):
		p.kind, p.litDir = kindDirAnywhere, "/"+base+"/"
		p.lit = p.litDir[:len(p.litDir)-1]
	case strings.Contains(rel, "/"):
		// full glob
	case rel[0] == '*' && isLiteral(rel[1:]):
		p.kind, p.lit = kindBaseSuffix, rel[1:]
	case rel[len(rel)-1] == '*' && isLiteral(rel[:len(rel)-1]):
		p.kind, p.lit = kindBasePrefix, rel[:len(rel)-1]
	default:
		p.kind, p.lit = kindBaseGlob, rel
	}
}

// escapeGlob quotes glob metacharacters in a literal directory name.
func escapeGlob(s string) string {
	if isLiteral(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if isGlobMeta[s[i]] {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// matches reports whether subject (absolute, clean; or "" / "/..." below the
// workspace) matches p.
func (p *pattern) matches(subject string) bool {
	switch p.kind {
	case kindExact:
		return subject == p.lit
	case kindTree:
		return within(subject, p.lit)
	case kindSuffix:
		return strings.HasSuffix(subject, p.lit)
	case kindDirAnywhere:
		return strings.HasSuffix(subject, p.lit) || strings.Contains(subject, p.litDir)
	}
	return p.matchesBaseOrGlob(subject)
}

func (p *pattern) matchesBaseOrGlob(subject string) bool {
	base := subject[strings.LastIndexByte(subject, '/')+1:]
	switch p.kind {
	case kindBaseSuffix:
		return strings.HasSuffix(base, p.lit)
	case kindBasePrefix:
		return strings.HasPrefix(base, p.lit)
	case kindBaseGlob:
		return doublestar.MatchUnvalidated(p.lit, base)
	}
	if p.anchor == anchorAny {
		subject = strings.TrimPrefix(subject, "/")
	}
	return doublestar.MatchUnvalidated(p.glob, subject) ||
		p.baseGlob != "" && doublestar.MatchUnvalidated(p.baseGlob, subject)
}

// matchesTree reports whether p matches subject or one of its ancestor
// directories: a pattern naming a directory covers everything below it.
func (p *pattern) matchesTree(subject string) bool {
	switch p.kind {
	case kindExact, kindTree:
		return within(subject, p.lit)
	case kindSuffix, kindDirAnywhere:
		return strings.HasSuffix(subject, p.lit) || strings.Contains(subject, p.litDir)
	case kindBaseSuffix, kindBasePrefix, kindBaseGlob:
		return p.anyComponent(subject)
	}
	for i := 1; i < len(subject); i++ {
		if subject[i] == '/' && p.matchesBaseOrGlob(subject[:i]) {
			return true
		}
	}
	return p.matchesBaseOrGlob(subject)
}

// anyComponent reports whether a base-name pattern matches any component.
func (p *pattern) anyComponent(subject string) bool {
	if p.lit != "" && (p.kind == kindBasePrefix || p.kind == kindBaseSuffix) {
		return p.litComponent(subject)
	}
	return p.eachComponent(subject)
}

// eachComponent is anyComponent asking the pattern of every component.
func (p *pattern) eachComponent(subject string) bool {
	for i := 0; i < len(subject); {
		j := strings.IndexByte(subject[i:], '/')
		if j < 0 {
			j = len(subject) - i
		}
		if j > 0 && p.matchesBaseOrGlob(subject[i:i+j]) {
			return true
		}
		i += j + 1
	}
	return false
}

// litComponent is anyComponent for a base-name prefix or suffix (lit not
// empty, without "/"): a component begins with lit where lit starts
// subject or follows a "/", and ends with it where lit ends subject or is
// followed by one. One search of subject, rather than a match per
// component: a tree list asks it of every path it judges.
func (p *pattern) litComponent(subject string) bool {
	for i := 0; ; {
		k := strings.Index(subject[i:], p.lit)
		if k < 0 {
			return false
		}
		at, end := i+k, i+k+len(p.lit)
		if p.kind == kindBasePrefix && (at == 0 || subject[at-1] == '/') ||
			p.kind == kindBaseSuffix && (end == len(subject) || subject[end] == '/') {
			return true
		}
		i = at + 1
	}
}
