package paths

import (
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/risk"
)

// Rule is an explicit verdict for the paths matching Pattern, as Aar's
// path_rules: the first matching rule decides, after the Denied and
// Protected lists and before every other check.
type Rule struct {
	// Pattern is a glob with the syntax of Config.Denied.
	Pattern string
	// Read is the verdict for reads; the zero value is Allow.
	Read risk.Verdict
	// Write is the verdict for writes and deletes; the zero value is Allow.
	Write risk.Verdict
}

// Config is the path part of a policy. Patterns are doublestar globs
// (https://github.com/bmatcuk/doublestar): "*" stays inside one component,
// "**" spans any number. A pattern may start with "~/" (the home directory),
// "<workspace>/" (the call's workspace, or "<workspace>" alone), "/"
// (absolute), or be relative, in which case it matches a trailing run of
// components at any depth: "**/.env", ".env" and ".aws/credentials" all do.
// A pattern ending in "/**" also matches its base directory. In Denied,
// Protected, Sensitive and SensitiveWrite a pattern that matches a directory
// also covers everything below it, as in .gitignore ("~/.my_secret" covers
// "~/.my_secret/key"); in Allowed and Rules a pattern matches only what it
// names. Matching is case-sensitive, as Linux file systems are.
type Config struct {
	// Home expands "~" in patterns and paths; "" means os.UserHomeDir() at
	// Compile.
	Home string
	// Denied paths are refused for every access, except the paths
	// NotSecret names. Nil means none; the policy normally passes
	// DefaultDenied().
	Denied []string
	// UserDenied paths are refused for every access and nothing overrides
	// them, NotSecret included: the user's own denied list and toolguard's
	// secrets. Nil means none.
	UserDenied []string
	// NotSecret names files that Denied's patterns would catch by their
	// name but that are not secrets by what they are: templates
	// (.env.example) and source and documentation files (credentials.go,
	// secrets.md). Denied does not apply to them. The policy passes
	// DefaultNotSecret() plus the exceptions of the user's own policy file.
	// Nil means none.
	NotSecret []string
	// PublicFiles are files Denied's patterns catch whose content is not
	// secret but which are still not the agent's to change: public keys,
	// host lists, connection settings (~/.ssh/*.pub, known_hosts,
	// authorized_keys). Denied does not apply to reading them. The policy
	// passes DefaultPublicFiles(). Nil means none.
	PublicFiles []string
	// Allowed, when non-empty, are the only places outside the workspace and
	// roots that may be touched at all (Aar's allowed_paths); a path there
	// counts as a read-write root. Nil means no such restriction.
	Allowed []string
	// Sensitive paths need a human for every access (verdict Ask). Nil means
	// none; the policy normally passes DefaultSensitive().
	Sensitive []string
	// UserSensitive paths need a human for every access, and nothing
	// overrides them (SensitiveReadable included): the user's own
	// sensitive list. Nil means none.
	UserSensitive []string
	// SensitiveReadable are files Sensitive's patterns catch whose reading
	// needs no person: toolguard's own policy files, which hold no secret
	// and which toolguard policy show prints to any caller. Sensitive does
	// not apply to reading them; writing them is judged as before (the
	// policy's files are Protected). The policy passes
	// DefaultSensitiveReadable(). Nil means none.
	SensitiveReadable []string
	// SensitiveWrite paths need a human for writes and deletes. Nil means
	// none; the policy normally passes DefaultSensitiveWrite().
	SensitiveWrite []string
	// Protected paths are toolguard's own configuration and state and the
	// agent settings that install its hook: writes and deletes are denied
	// (self-protection), reads are judged as usual. Nil means none.
	Protected []string
	// Unprotected are paths below a Protected pattern that hold neither
	// an agent's hooks nor its permissions: instructions it loads from
	// inside its settings directory (OpenCode's .opencode/skills/). Protected
	// does not apply to them; a write there is judged as any other (the
	// escape hatches ask). A glob or a tree is exempt only when it starts in
	// such a directory. Nil means none; the policy normally passes
	// DefaultUnprotected().
	Unprotected []string
	// EscapeHatches are files through which an agent can run code or widen
	// its permissions outside the hook: writes and deletes ask, with a
	// reason that names the risk (rule paths.escape-hatch). Nil means none;
	// the policy normally passes DefaultEscapeHatches().
	EscapeHatches []string
	// Rules give explicit verdicts, first match wins. Nil means none.
	Rules []Rule
	// Roots are extra read-write directories besides the workspace. "~" is
	// expanded; a relative root is joined to the workspace at check time.
	// Nil means none.
	Roots []string
	// ReadOnlyRoots may be read but never written. Nil means none.
	ReadOnlyRoots []string
	// WriteOnlyRoots may be written but never read. Nil means none.
	WriteOnlyRoots []string
	// WorkspaceOnly denies writes and deletes outside the workspace and
	// roots. The zero value (false) leaves them to WriteOutside.
	WorkspaceOnly bool
	// WriteOutside is the verdict for writes outside the workspace and roots
	// when WorkspaceOnly is false; the zero value is Allow.
	WriteOutside risk.Verdict
	// ReadOutside is the verdict for reads outside the workspace and roots;
	// the zero value is Allow.
	ReadOutside risk.Verdict
}

// Checker judges paths against a compiled Config. It is immutable and safe
// for concurrent use.
type Checker struct {
	home           string
	denied         patternSet
	userDenied     patternSet
	notSecret      patternSet
	publicFiles    patternSet
	allowed        patternSet
	sensitive      patternSet
	userSensitive  patternSet
	readable       patternSet
	sensitiveWrite patternSet
	protected      patternSet
	unprotected    patternSet
	escapeHatches  patternSet
	rules          []compiledRule
	roots          []root
	workspaceOnly  bool
	writeOutside   risk.Verdict
	readOutside    risk.Verdict
	// globs caches parsed patterns (string → parsedAlts) for set checks.
	globs sync.Map
}

type compiledRule struct {
	pattern     pattern
	read, write risk.Verdict
}

// rootTier is what a root admits.
type rootTier uint8

const (
	tierReadWrite rootTier = iota
	tierReadOnly
	tierWriteOnly
)

// root is an extra directory. A relative root is joined to the workspace at
// check time; an absolute one carries its resolved form too.
type root struct {
	source   string
	tier     rootTier
	literal  string
	resolved string
	relative bool
}

// compiler gathers every configuration error so Compile can report them all.
type compiler struct {
	homes []string
	// literalHomes: no home holds a glob byte, so the built-in patterns'
	// validity does not depend on them (lists of them may be deferred).
	literalHomes bool
	errs         []error
}

// Compile validates c and builds a Checker. Every invalid pattern, root or
// verdict is reported, each naming its field, index and value.
func Compile(c Config) (*Checker, error) {
	home, err := homeDir(c.Home)
	if err != nil {
		return nil, err
	}
	b := &compiler{homes: []string{home}}
	if r, err := resolve(home); err == nil && r != home {
		b.homes = append(b.homes, r)
	}
	b.literalHomes = true
	for _, h := range b.homes {
		b.literalHomes = b.literalHomes && isLiteral(h) && strings.IndexByte(h, 0) < 0
	}
	ch := &Checker{
		home:           home,
		denied:         b.patterns("Denied", c.Denied, true),
		userDenied:     b.patterns("UserDenied", c.UserDenied, true),
		notSecret:      b.patterns("NotSecret", c.NotSecret, false),
		publicFiles:    b.patterns("PublicFiles", c.PublicFiles, false),
		allowed:        b.patterns("Allowed", c.Allowed, false),
		sensitive:      b.patterns("Sensitive", c.Sensitive, true),
		userSensitive:  b.patterns("UserSensitive", c.UserSensitive, true),
		readable:       b.patterns("SensitiveReadable", c.SensitiveReadable, false),
		sensitiveWrite: b.patterns("SensitiveWrite", c.SensitiveWrite, true),
		protected:      b.patterns("Protected", c.Protected, true),
		unprotected:    b.patterns("Unprotected", c.Unprotected, true),
		escapeHatches:  b.patterns("EscapeHatches", c.EscapeHatches, true),
		rules:          b.rules(c.Rules),
		workspaceOnly:  c.WorkspaceOnly,
		writeOutside:   b.verdict("WriteOutside", c.WriteOutside),
		readOutside:    b.verdict("ReadOutside", c.ReadOutside),
	}
	ch.roots = append(b.roots("Roots", tierReadWrite, c.Roots), b.roots("ReadOnlyRoots", tierReadOnly, c.ReadOnlyRoots)...)
	ch.roots = append(ch.roots, b.roots("WriteOnlyRoots", tierWriteOnly, c.WriteOnlyRoots)...)
	if err := errors.Join(b.errs...); err != nil {
		return nil, fmt.Errorf("paths config: %w", err)
	}
	return ch, nil
}

// homeDir returns the configured or the process's home directory, clean.
func homeDir(h string) (string, error) {
	if h == "" {
		var err error
		if h, err = os.UserHomeDir(); err != nil {
			return "", fmt.Errorf("paths config: Home is empty and the home directory is unknown (%v); set Home", err)
		}
	}
	if !strings.HasPrefix(h, "/") {
		return "", fmt.Errorf("paths config: Home %q is not an absolute path", h)
	}
	return path.Clean(h), nil
}

func (b *compiler) fail(field string, i int, value string, err error) {
	b.errs = append(b.errs, fmt.Errorf("%s[%d] %q: %w", field, i, value, err))
}

func (b *compiler) patterns(field string, srcs []string, tree bool) patternSet {
	if len(srcs) > 0 && b.literalHomes {
		if keys, ok := builtinKeys(srcs); ok {
			set := patternSet{tree: tree, deferred: &deferredList{srcs: srcs, keys: keys, homes: b.homes}}
			set.prepare(listLen(srcs, b.homes))
			return set
		}
	}
	set := patternSet{tree: tree, list: make([]pattern, 0, listLen(srcs, b.homes))}
	for i, s := range srcs {
		var err error
		if set.list, err = appendPattern(set.list, s, b.homes); err != nil {
			b.fail(field, i, s, err)
		}
	}
	set.prepare(len(set.list))
	return set
}

// homePatterns counts the "~/" patterns of srcs: each makes one pattern
// per home.
func homePatterns(srcs []string) int {
	n := 0
	for _, s := range srcs {
		if _, ok := cutHomePrefix(s); ok {
			n++
		}
	}
	return n
}

func (b *compiler) rules(rs []Rule) []compiledRule {
	var out []compiledRule
	for i, r := range rs {
		b.verdictAt("Rules", i, "Read", r.Read)
		b.verdictAt("Rules", i, "Write", r.Write)
		ps, err := compilePattern(r.Pattern, b.homes)
		if err != nil {
			b.fail("Rules", i, r.Pattern, err)
			continue
		}
		for _, p := range ps {
			out = append(out, compiledRule{pattern: p, read: r.Read, write: r.Write})
		}
	}
	return out
}

func (b *compiler) verdict(field string, v risk.Verdict) risk.Verdict {
	if v > risk.Deny {
		b.errs = append(b.errs, fmt.Errorf("%s is %v (valid: %s)", field, v, strings.Join(risk.VerdictNames(), ", ")))
	}
	return v
}

func (b *compiler) verdictAt(field string, i int, sub string, v risk.Verdict) {
	if v > risk.Deny {
		b.errs = append(b.errs, fmt.Errorf("%s[%d].%s is %v (valid: %s)", field, i, sub, v, strings.Join(risk.VerdictNames(), ", ")))
	}
}

func (b *compiler) roots(field string, tier rootTier, dirs []string) []root {
	var out []root
	for i, d := range dirs {
		r, err := b.root(d, tier)
		if err != nil {
			b.fail(field, i, d, err)
			continue
		}
		out = append(out, r)
	}
	return out
}

// root expands and resolves one root directory.
func (b *compiler) root(d string, tier rootTier) (root, error) {
	if err := validateText(d); err != nil {
		return root{}, err
	}
	expanded, err := expandHome(d, b.homes[0])
	if err != nil {
		return root{}, err
	}
	if expanded == "*" || path.Clean(expanded) == "/" {
		return root{}, fmt.Errorf("a root must be a directory, not everything")
	}
	r := root{source: d, tier: tier, literal: path.Clean(expanded)}
	if !strings.HasPrefix(expanded, "/") {
		r.relative = true
		return r, nil
	}
	r.resolved, err = resolve(r.literal)
	return r, err
}
