package analysis

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// Destinations of copies, moves, installs and links. The rule packs name
// the words a command writes; what lands on disk is often another path:
//
//   - cp, mv, install and ln into a directory (a trailing slash, -t DIR,
//     --target-directory, more than one source, a directory that exists
//     or that an earlier command made) write DIR/basename(SOURCE). Whether
//     DEST is a directory is not always known before the command runs, so
//     DEST/basename(SOURCE) is judged as written whenever it could be
//     (not under -T): cp evil/settings.local.json .claude writes
//     .claude/settings.local.json;
//   - ln SOURCE alone links ./basename(SOURCE);
//   - a recursive copy or move (cp -r/-R/-a, mv of a directory, rsync
//     -r/-a) and a link to a directory write every path the source holds,
//     under DEST/basename(SOURCE) and, when DEST does not exist yet or the
//     source is copied by its contents (cp SRC/. DEST, rsync SRC/ DEST),
//     under DEST itself. The source tree is read through Context.Trees,
//     bounded; one too large to read whole is unverifiable;
//   - a source whose name is not known (cp "$f" .claude/) may land as any
//     name in the directory: DEST/* is judged as written.
//
// Each such path is reported to the judge as a write, so that reaching an
// agent's hook settings or toolguard's own files is self-protection, named.

// copySpec is how one program spells its options.
type copySpec struct {
	values     string   // short options that take a value
	longValues []string // long options that take a value (without "--")
	target     byte     // the short option naming the target directory; 0: none
	noTarget   byte     // the short option that makes DEST a file; 0: none
	recursive  string   // short options that copy directories whole
	always     bool     // every source is copied whole (mv, ln to a directory)
	single     bool     // one operand alone is a source linked into "." (ln)
	skip       string   // short options under which no source is copied (install -d)
	link       bool     // sources of symbolic links resolve from the link's directory
}

var copySpecs = map[string]copySpec{
	"cp": {values: "St", longValues: []string{"suffix", "target-directory", "no-preserve", "sparse"},
		target: 't', noTarget: 'T', recursive: "rRa"},
	"mv":      {values: "St", longValues: []string{"suffix", "target-directory"}, target: 't', noTarget: 'T', always: true},
	"install": {values: "gmoSt", longValues: []string{"group", "mode", "owner", "suffix", "target-directory", "strip-program"}, target: 't', noTarget: 'T', skip: "d"},
	"ln":      {values: "St", longValues: []string{"suffix", "target-directory"}, target: 't', noTarget: 'T', always: true, single: true, link: true},
	"rsync": {values: "@BfMeT", longValues: []string{"info", "debug", "stderr", "chmod", "suffix", "max-delete", "max-size",
		"min-size", "max-alloc", "usermap", "groupmap", "chown", "timeout", "contimeout", "modify-window", "checksum-choice",
		"cc", "block-size", "compress-choice", "zc", "compress-level", "zl", "compress-threads", "zt", "skip-compress",
		"filter", "exclude", "include", "copy-as", "address", "port", "sockopts", "outbuf", "out-format", "log-file-format",
		"password-file", "bwlimit", "stop-after", "stop-at", "protocol", "iconv", "checksum-seed", "remote-option",
		"confine-root", "rsh", "rsync-path", "exclude-from", "include-from", "files-from", "log-file", "temp-dir",
		"partial-dir", "compare-dest", "copy-dest", "link-dest", "backup-dir", "write-batch", "only-write-batch",
		"read-batch", "early-input"}, recursive: "ra"},
}

// copyArgs is a copy command's destination and options as its options
// arrange them; copySpec.parse returns the sources beside it.
type copyArgs struct {
	dest      shell.Word
	hasDest   bool
	intoDir   bool // DEST is a directory for certain (-t, several sources, ln SOURCE)
	target    bool // DEST was given by -t or --target-directory
	noTarget  bool
	recursive bool
}

// opsOnStack is how many operands the callers of copySpec.parse hold in
// an array of their own, which parse fills when the command's words fit.
const opsOnStack = 6

// parse reads a copy's words: its operands go into ops (emptied first;
// a list of their own when args do not fit), which sources (a part of
// ops) and the destination are taken from. The sources are a result of
// their own, not a field of copyArgs, so that a caller using only the
// destination keeps ops in its own frame (escape analysis follows a
// struct as a whole).
func (s copySpec) parse(name string, args, ops []shell.Word) (out copyArgs, sources []shell.Word, ok bool) {
	if cap(ops) < len(args) {
		ops = make([]shell.Word, 0, len(args)) // one allocation, not one a growth
	}
	ops = ops[:0]
	var target *shell.Word
	longName := map[byte]string{'t': "target-directory", 'T': "no-target-directory"}
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case v == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			switch {
			case s.target != 0 && name != "" && strings.HasPrefix(longName['t'], name): // getopt takes any unambiguous prefix
				t := withValue(w, val)
				if !hasVal && i+1 < len(args) {
					i++
					t = args[i]
				}
				target = &t
			case s.noTarget != 0 && len(name) > 3 && strings.HasPrefix(longName['T'], name):
				out.noTarget = true
			case s.recursive != "" && (name == "recursive" || name == "archive"):
				out.recursive = true
			case name == "directory" && s.skip != "":
				return out, nil, false
			case !hasVal && contains(s.longValues, name):
				i++
			}
		case len(v) > 1 && v[0] == '-' && w.Known:
			for k := 1; k < len(v); k++ {
				c := v[k]
				switch {
				case strings.IndexByte(s.skip, c) >= 0:
					return out, nil, false
				case c == s.noTarget && s.noTarget != 0:
					out.noTarget = true
				case strings.IndexByte(s.recursive, c) >= 0:
					out.recursive = true
				}
				if strings.IndexByte(s.values, c) >= 0 {
					val := withValue(w, v[k+1:])
					if k+1 == len(v) {
						if i+1 >= len(args) {
							break
						}
						i++
						val = args[i]
					}
					if c == s.target && s.target != 0 {
						target = &val
					}
					break
				}
			}
		default:
			ops = append(ops, w)
		}
	}
	switch {
	case target != nil:
		out.dest, out.hasDest, out.intoDir, out.target, sources = *target, true, true, true, ops
	case len(ops) >= 2:
		out.dest, out.hasDest, sources = ops[len(ops)-1], true, ops[:len(ops)-1]
		out.intoDir = len(ops) > 2
	case len(ops) == 1 && s.single:
		out.dest, out.hasDest, out.intoDir, sources = withValue(ops[0], "."), true, true, ops
		out.dest.Known = true
	}
	if out.intoDir {
		out.noTarget = false
	}
	out.recursive = out.recursive || s.always
	return out, sources, out.hasDest
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// isRemoteOperand reports whether an rsync or scp operand names another
// machine (host:path, rsync://…): nothing of it is on this one.
func isRemoteOperand(v string) bool {
	colon := strings.IndexByte(v, ':')
	return colon > 0 && !strings.Contains(v[:colon], "/")
}

// copies reports the paths a copy, move, install or link writes besides
// the words the rule packs name.
func (a *Analysis) copies(cmd *shell.Command, dir string) {
	spec, ok := copySpecs[cmd.Name]
	if !ok {
		return
	}
	var buf [opsOnStack]shell.Word
	ca, sources, ok := spec.parse(cmd.Name, cmd.Args(), buf[:0])
	if ok && cmd.ArgsFromInput && ca.target && ca.dest.Known {
		// xargs cp -t DIR: the sources come from input, with names not
		// known; any of them may land as any name in DIR
		a.judge.Path(Path{Word: shell.Word{Value: path.Join(ca.dest.Value, "*"), Known: true, Glob: true, Span: ca.dest.Span},
			Access: paths.Write, Shape: Glob, Dir: dir})
	} else if ok && fromInput(cmd, ca.dest) {
		a.add(Unverifiable(shell.Problem{Span: ca.dest.Span, Reason: fmt.Sprintf(
			"%s writes into %s, which %s fills in from its input at run time, so where it writes is not known", cmd.Name, ca.dest.Value, inputSource(cmd))}))
		return
	}
	if !ok || !ca.dest.Known || isRemoteOperand(ca.dest.Value) {
		return
	}
	a.moveOntoOneName(cmd, ca, sources, dir)
	dest := ca.dest
	for _, src := range sources {
		if cmd.Name == "rsync" && isRemoteOperand(src.Value) {
			continue
		}
		if !src.Known {
			if !ca.noTarget {
				a.judge.Path(Path{Word: shell.Word{Value: path.Join(dest.Value, "*"), Known: true, Glob: true, Span: dest.Span},
					Access: paths.Write, Shape: Glob, Dir: dir})
			}
			continue
		}
		byContents := strings.HasSuffix(src.Value, "/.") || src.Value == "." ||
			cmd.Name == "rsync" && strings.HasSuffix(src.Value, "/")
		base := path.Base(strings.TrimRight(src.Value, "/"))
		var prefixes []string // where the source's tree lands
		if !ca.noTarget && !byContents && base != "/" && base != "." && base != ".." {
			in := a.landingName(dest.Value, base)
			shape := File
			if src.Glob && HasGlobMeta(base) {
				shape = Glob
			}
			_, noClobber, fromTemplate := templateCopy(cmd) // a directory of that name: the template lands in it
			a.judge.Path(Path{Word: shell.Word{Value: in, Known: true, Glob: shape == Glob, Span: dest.Span},
				Access: paths.Write, Shape: shape, Dir: dir, FromTemplate: fromTemplate && shape == File, IfAbsent: !noClobber})
			if shape == File && ca.recursive {
				a.judge.Path(Path{Word: withValue(dest, in), Access: paths.Write, Shape: Tree, Dir: dir})
			}
			prefixes = append(prefixes, in)
		}
		if !ca.intoDir || byContents {
			prefixes = append(prefixes, dest.Value)
		}
		if !ca.recursive || src.Glob && HasGlobMeta(src.Value) || len(prefixes) == 0 {
			continue
		}
		a.sourceTree(cmd, spec, src, dest, prefixes, dir)
	}
}

// landingName is path.Join(dest, base), remembered for the last pair: a
// script's loop copies one pattern into one directory at every step
// (for f in ./testdata/*.golden; do cp "$f" ./build/; done), and the join
// and its clean made three strings each time.
func (a *Analysis) landingName(dest, base string) string {
	if l := &a.landing; l.joined == "" || l.dest != dest || l.base != base {
		*l = struct{ dest, base, joined string }{dest, base, path.Join(dest, base)}
	}
	return a.landing.joined
}

// moveOntoOneName judges mv given one path of a set at a time — "$f" of a
// loop over a pattern, for f in *.md — with one destination that is not a
// directory: each pass renames its file onto the same name, replacing the
// one the pass before left there, so all but the last are lost (the mv
// loop of the Gemini CLI incident, into a directory it had not made).
func (a *Analysis) moveOntoOneName(cmd *shell.Command, ca copyArgs, sources []shell.Word, dir string) {
	if cmd.Name != "mv" || len(sources) != 1 || ca.intoDir {
		return
	}
	src, dest := sources[0], ca.dest
	if !src.Glob || !src.Quoted || strings.HasSuffix(dest.Value, "/") || a.isDirectory(dest.Value, dir) ||
		a.madeDirectory(dest.Value, dir) {
		return
	}
	a.add(risk.Finding{Rule: "effects.move-onto-one-name", Category: risk.CatFSDelete, Tier: risk.Destructive,
		Blast: risk.BlastMedium, Verdict: risk.Ask, Span: cmd.Span, Subject: dest.Value,
		Reason: fmt.Sprintf("mv moves each file of %s, one at a time, onto the same name %s, which is not a directory: "+
			"each move replaces the file the one before left there, and all but the last are lost.", src.Value, dest.Value),
		Suggestion: fmt.Sprintf("make the directory first (mkdir -p %s) and move into %s/", dest.Value, dest.Value)})
}

// madeDirectory reports whether an earlier command of the call makes p
// (relative to dir) a directory (mkdir archive && for f in *.md; do mv
// "$f" archive; done), and nothing is in its way now: when mkdir fails
// because a file of that name exists, the moves would land on the file.
func (a *Analysis) madeDirectory(p, dir string) bool {
	want := path.Join(dir, p)
	if !a.missing(p, dir) {
		return false // there, and not a directory (isDirectory said so): mkdir fails
	}
	for si := range a.seen {
		sc := &a.seen[si]
		if sc.Cmd.Name != "mkdir" || sc.Cmd.Remote != "" {
			continue
		}
		for _, w := range mkdirOperands(sc.Cmd) {
			if w.Known && path.Join(sc.Dir, w.Value) == want {
				return true
			}
		}
	}
	return false
}

// missing reports whether nothing is at p (relative to dir) now; false
// when that cannot be told.
func (a *Analysis) missing(p, dir string) bool {
	if a.ctx.Files == nil {
		return false
	}
	cp, err := paths.Canonicalize(p, a.PathEnv(dir), a.ctx.Home)
	if err != nil {
		return false
	}
	_, err = a.ctx.Files.Read(cp.Resolved)
	return errors.Is(err, ErrNotExist)
}

// mkdirOperands are the directories a mkdir names (its options, -m MODE
// and --mode=MODE, -p, -v, left out).
func mkdirOperands(c *shell.Command) []shell.Word {
	var out []shell.Word
	args := c.Args()
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			return append(out, args[i+1:]...)
		case v == "-m" || v == "--mode":
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
		default:
			out = append(out, args[i])
		}
	}
	return out
}

// isDirectory reports whether p (relative to dir) is a directory now.
func (a *Analysis) isDirectory(p, dir string) bool {
	if a.ctx.Trees == nil {
		return false
	}
	cp, err := paths.Canonicalize(p, a.PathEnv(dir), a.ctx.Home)
	if err != nil {
		return false
	}
	_, err = a.ctx.Trees.List(cp.Resolved, 1)
	return err == nil || errors.Is(err, ErrTooLarge)
}

// sourceTree judges every path below the directory src as written under
// each prefix.
func (a *Analysis) sourceTree(cmd *shell.Command, spec copySpec, src, dest shell.Word, prefixes []string, dir string) {
	if a.ctx.Trees == nil {
		return
	}
	env := a.PathEnv(dir)
	candidates := []string{src.Value}
	if spec.link && !path.IsAbs(src.Value) {
		// a symbolic link's target resolves from the link's directory:
		// DEST itself (a link made inside it) or DEST's parent
		candidates = append(candidates, path.Join(dest.Value, src.Value), path.Join(path.Dir(dest.Value), src.Value))
	}
	for _, c := range candidates {
		cp, err := paths.Canonicalize(c, env, a.ctx.Home)
		if err != nil {
			continue
		}
		list, err := a.ctx.Trees.List(cp.Resolved, maxTreeEntries)
		switch {
		case errors.Is(err, ErrNotExist):
			continue
		case err != nil:
			a.add(Unverifiable(shell.Problem{Span: src.Span, Reason: fmt.Sprintf(
				"%s copies the tree %s, which cannot be read whole (%v), so the paths it writes are not known", cmd.Name, src.Value, err)}))
			return
		}
		if !a.spend(1 + len(list)*len(prefixes)/16) {
			return
		}
		var judged []string
		for _, rel := range list {
			for _, p := range prefixes {
				if q := path.Join(p, rel); configNames(q) {
					judged = append(judged, q)
				}
			}
		}
		if len(judged) > maxJudgedEntries {
			a.add(Unverifiable(shell.Problem{Span: src.Span, Reason: fmt.Sprintf(
				"%s copies the tree %s, which would write more than %d configuration files, so the paths it writes are not all checked", cmd.Name, src.Value, maxJudgedEntries)}))
			return
		}
		for _, q := range judged {
			if !a.spend(1) {
				return
			}
			a.judge.Path(Path{Word: shell.Word{Value: q, Known: true, Span: dest.Span},
				Access: paths.Write, Shape: File, Dir: dir})
		}
	}
}

// fromInput reports whether xargs or parallel decides a copy's
// destination at run time: words appended from input (the last of them is
// the destination) or a {} the input replaces.
func fromInput(cmd *shell.Command, dest shell.Word) bool {
	if cmd.ArgsFromInput {
		return true
	}
	switch cmd.Origin {
	case "xargs", "parallel":
		return strings.Contains(dest.Value, "{}") || strings.Contains(dest.Value, "{/}") || strings.Contains(dest.Value, "{.}")
	}
	return false
}

// templateCopy returns the destination of cp TEMPLATE NAME, a copy of the
// project's template of a file (.env.example, config.sample.yml,
// settings.json.dist) to the file's own name beside it, and whether it
// has -n (--no-clobber, --update=none). What it writes is the template's
// text; it reads no secret, so the destination is judged as a file made
// from a template (Path.FromTemplate), not as a write of the secret it is
// named like. With -n it never replaces a file already at NAME; without,
// it is a file made from the template only when nothing is there
// (Path.IfAbsent).
func templateCopy(cmd *shell.Command) (shell.Word, bool, bool) {
	if cmd.Name != "cp" || cmd.Remote != "" {
		return shell.Word{}, false, false
	}
	var ops []shell.Word
	noClobber := false
	for _, w := range cmd.Args() {
		v := w.Value
		switch {
		case !w.Known || w.Glob && HasGlobMeta(v):
			return shell.Word{}, false, false
		case v == "--no-clobber" || v == "--update=none" || v == "--update=none-fail":
			noClobber = true
		case strings.HasPrefix(v, "--"):
			if v != "--" {
				return shell.Word{}, false, false // -t, --backup, --remove-destination, …: another shape
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for _, c := range v[1:] {
				switch c {
				case 'n':
					noClobber = true
				case 'v', 'p':
				default:
					return shell.Word{}, false, false
				}
			}
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) != 2 {
		return shell.Word{}, false, false
	}
	src, dst := path.Clean(ops[0].Value), path.Clean(ops[1].Value)
	if path.Dir(src) != path.Dir(dst) || strings.HasPrefix(src, "/") || strings.HasPrefix(src, "~") || strings.HasPrefix(src, "..") {
		return shell.Word{}, false, false
	}
	name, base := path.Base(dst), path.Base(src)
	for _, m := range []string{"example", "sample", "template", "tmpl", "dist", "defaults"} {
		for _, sep := range []string{".", "-", "_"} {
			if i := strings.Index(base, sep+m); i > 0 {
				rest := base[i+len(sep)+len(m):]
				if (rest == "" || rest[0] == '.') && base[:i]+rest == name {
					return ops[1], noClobber, true
				}
			}
		}
	}
	return shell.Word{}, false, false
}
