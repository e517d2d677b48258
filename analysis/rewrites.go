package analysis

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// Files a call writes with text that noteWrites does not know (the output
// of a program, a copy, an edit in place) are followed too: what a later
// command of the call runs is the file as the call left it, never the
// text it had before the call. rewrites records, for each such write,
// the text when it can be worked out (a copy of a here-document or of a
// file whose text is known, awk's printed literals, a sed edit applied to
// the text it edits), or else that the text is not known.

// unknownText, in written, marks a file the call writes with text not
// known before it runs; running it is unverifiable. opaqueText marks one
// replaced by a copy of a file that is no text (a compiled program):
// running it by its path runs an unknown program, as running the original
// would. Neither is text a file can hold (Files.Read gives no text with a
// NUL byte).
const (
	unknownText = "\x00unknown"
	opaqueText  = "\x00opaque"
)

// errWrittenUnknown is the error written.Read gives for a file the call
// writes with text not known before it runs.
var errWrittenUnknown = fmt.Errorf("%w: the call writes it with content not known before it runs", ErrUnreadable)

// stdoutRedirect reports a redirect of standard output into a file.
func stdoutRedirect(r shell.Redirect) bool {
	switch r.Op {
	case ">", ">>", ">|":
		return r.Fd == "" || r.Fd == "1"
	case "&>", "&>>":
		return true
	}
	return false
}

// rewrites records the files the command of sc writes whose text
// noteWrites did not record (see above).
func (f *flow) rewrites(sc Command) {
	c := sc.Cmd
	if c.Remote != "" || c.Name == "" {
		return
	}
	put := func(p, text string, appends bool) {
		cp := f.canonical(sc, p)
		if cp == "" {
			return
		}
		old, had := f.written[cp]
		switch {
		case text == unknownText || text == opaqueText:
		case appends && had && (old == unknownText || old == opaqueText):
			text = unknownText
		case appends && had:
			text = old + text
		case appends && f.a.ctx.Files == nil:
			text = unknownText
		case appends:
			if base, err := f.a.ctx.Files.Read(cp); err == nil {
				text = base + text
			} else if !errors.Is(err, ErrNotExist) {
				text = unknownText
			}
		}
		f.written.put(cp, text, false)
	}
	// the output of a program that is not known (awk '{…}' > x.sh)
	_, known := shell.Output(c)
	teeKnown := c.Name == "tee" && c.Stdin != nil && c.Stdin.Known
	if !known && !teeKnown {
		for _, r := range c.Redirects {
			if stdoutRedirect(r) && r.Target.Known && r.Target.Value != "/dev/null" {
				put(r.Target.Value, unknownText, false)
			}
		}
	}
	if in := c.Inline; in != nil && in.Known && in.Code != "" && !in.Translated {
		// code that writes files what it decodes (open('x.sh',
		// 'w').write(base64.b64decode(…))): what it writes into the files
		// its literals name is not known before it runs. Code that writes
		// its own literals is judged with them (analysis of the writing
		// code), and the file it wrote is read from the disk.
		if h := codeMarkers().scan(in.Code); h.has(mWrite) && h.has(mDecode) {
			for _, lit := range stringLiterals(pathText(c, in.Code)) {
				lit = strings.TrimLeft(lit, "+<>") // perl's open(F, ">x.sh")
				if lit != "" && len(lit) < 512 && !strings.ContainsAny(lit, " \t\n\x00") {
					put(lit, unknownText, false)
				}
			}
		}
	}
	switch name := c.Name; {
	case name == "ln":
		f.linked(sc, put)
	case name == "tee" && !teeKnown:
		for _, a := range c.Args() {
			if a.Known && !strings.HasPrefix(a.Value, "-") {
				put(a.Value, unknownText, false)
			}
		}
	case (name == "awk" || name == "gawk" || name == "mawk" || name == "nawk") && c.Inline != nil && c.Inline.Known:
		if _, files, ok := shell.AwkPrints(c.Inline.Code); ok {
			for _, af := range files {
				put(af.Name, af.Text, af.Append)
			}
		}
	case name == "sed" || name == "gsed":
		f.sedInPlace(sc, put)
	case name == "cp" || name == "install" || name == "mv":
		f.copied(sc, put)
	case strings.HasPrefix(name, "perl") || strings.HasPrefix(name, "ruby"):
		for _, w := range inPlaceFiles(c.Args()) {
			put(w.Value, unknownText, false) // perl -pi -e 's/…/…/' f: an edit not modelled
		}
	}
}

// inPlaceFiles are the files perl -i or ruby -i edits in place: the
// operands after the program (-e CODE, or the script file).
func inPlaceFiles(args []shell.Word) []shell.Word {
	inPlace, code := false, false
	var ops []shell.Word
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case !args[i].Known:
			ops = append(ops, args[i])
		case v == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			for k := 1; k < len(v); k++ {
				if strings.IndexByte("MmIlxC0dDFr", v[k]) >= 0 {
					break // -Mstrict, -Ilib, -0777: the rest is the option's value
				}
				if v[k] == 'i' {
					inPlace = true
					break // the rest is the backup's suffix
				}
				if v[k] == 'e' || v[k] == 'E' {
					code = true
					if k+1 == len(v) {
						i++ // the code
					}
					break
				}
			}
		case strings.HasPrefix(v, "-"):
		default:
			ops = append(ops, args[i])
		}
	}
	if !inPlace {
		return nil
	}
	if !code && len(ops) > 0 {
		ops = ops[1:] // the script
	}
	var out []shell.Word
	for _, w := range ops {
		if w.Known {
			out = append(out, w)
		}
	}
	return out
}

// copied records what a copy puts into its destination: the text of its
// one source, read from the command's stdin (/dev/stdin), from what the
// call wrote, or from the file as it is.
func (f *flow) copied(sc Command, put func(p, text string, appends bool)) {
	c := sc.Cmd
	spec := copySpecs[c.Name]
	ca, sources, ok := spec.parse(c.Name, c.Args(), nil)
	if !ok || !ca.dest.Known || fromInput(c, ca.dest) {
		return
	}
	for _, src := range sources {
		if !src.Known {
			return
		}
	}
	for _, src := range sources {
		dest := ca.dest.Value
		if ca.intoDir || f.isDir(sc, dest) {
			dest = strings.TrimSuffix(dest, "/") + "/" + baseName(src.Value)
		}
		put(dest, f.sourceText(sc, src.Value), false)
		if c.Name == "mv" {
			if cp := f.canonical(sc, src.Value); cp != "" {
				delete(f.written, cp)
			}
		}
	}
}

// linked records what a link puts at its name: the text of its target
// (ln TARGET LINK, ln -s TARGET LINK, ln TARGET… DIR, ln -t DIR TARGET…).
// A symbolic link's relative target is found from the link's directory,
// a hard link's from the working directory.
func (f *flow) linked(sc Command, put func(p, text string, appends bool)) {
	l, ok := parseLn(sc.Cmd.Args())
	if !ok {
		return
	}
	// ln -r writes each target relative to the link itself: the target
	// as given is found from the working directory, as a hard link's is
	ops, dir, symbolic := l.ops, l.dir, l.symbolic && !l.relative
	if dir == "" && len(ops) >= 2 {
		dir, ops = ops[len(ops)-1].Value, ops[:len(ops)-1]
		if len(ops) == 1 && !strings.HasSuffix(dir, "/") && !f.a.isDirectory(dir, sc.Dir) {
			f.link(sc, ops[0].Value, dir, symbolic, put)
			return
		}
	}
	if dir == "" {
		return
	}
	for _, t := range ops {
		f.link(sc, t.Value, strings.TrimSuffix(dir, "/")+"/"+baseName(t.Value), symbolic, put)
	}
}

// link records the link name made to target.
func (f *flow) link(sc Command, target, name string, symbolic bool, put func(p, text string, appends bool)) {
	if symbolic && !path.IsAbs(target) && !strings.HasPrefix(target, "~") {
		target = path.Join(path.Dir(name), target)
	}
	put(name, f.sourceText(sc, target), false)
}

// isDir reports whether the copy's destination is a directory that
// exists (cp x.sh bin/ puts bin/x.sh).
func (f *flow) isDir(sc Command, dest string) bool {
	if strings.HasSuffix(dest, "/") {
		return true
	}
	return f.a.isDirectory(dest, sc.Dir)
}

func baseName(p string) string {
	p = strings.TrimRight(p, "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// sourceText is the text a copy of src puts into its destination.
func (f *flow) sourceText(sc Command, src string) string {
	c := sc.Cmd
	if src == "/dev/stdin" || src == "/dev/fd/0" || src == "/proc/self/fd/0" {
		if c.Stdin != nil && c.Stdin.Known {
			return c.Stdin.Text
		}
		return unknownText
	}
	cp := f.canonical(sc, src)
	if cp == "" {
		return unknownText
	}
	if text, ok := f.written[cp]; ok {
		return text
	}
	if f.a.ctx.Files == nil {
		return opaqueText
	}
	text, err := f.a.ctx.Files.Read(cp)
	switch {
	case err == nil:
		return text
	case errors.Is(err, ErrNotText), errors.Is(err, ErrNotExist):
		return opaqueText // a program (or a file this call made some other way)
	}
	return unknownText
}

// sedInPlace records the files sed -i edits: their text after the edit
// when the program is one applySed models and their text is known,
// unknown otherwise.
func (f *flow) sedInPlace(sc Command, put func(p, text string, appends bool)) {
	args := sc.Cmd.Args()
	inPlace, ere, modelled := false, false, true
	var scripts []string
	var files []shell.Word
	opts := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case !a.Known:
			if !opts || len(scripts) > 0 {
				files = append(files, a)
			}
			modelled = false
		case opts && v == "--":
			opts = false
		case opts && strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			switch name {
			case "in-place":
				inPlace = true
			case "regexp-extended":
				ere = true
			case "expression":
				if !hasVal && i+1 < len(args) {
					i++
					val = args[i].Value
					modelled = modelled && args[i].Known
				}
				scripts = append(scripts, val)
			case "posix", "separate", "unbuffered", "follow-symlinks", "debug", "sandbox", "binary":
			case "line-length":
				if !hasVal {
					i++
				}
			default: // --quiet, --null-data, --file, …
				modelled = false
			}
		case opts && len(v) > 1 && v[0] == '-':
		cluster:
			for k := 1; k < len(v); k++ {
				switch v[k] {
				case 'i':
					inPlace = true
					if k+1 == len(v) && i+1 < len(args) && args[i+1].Known && args[i+1].Value == "" {
						i++ // BSD's -i '' (no backup)
					}
					break cluster // GNU: the rest is the backup's suffix
				case 'E', 'r':
					ere = true
				case 's', 'u':
				case 'e':
					val := v[k+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i].Value
						modelled = modelled && args[i].Known
					}
					scripts = append(scripts, val)
					break cluster
				case 'l':
					if k+1 == len(v) {
						i++
					}
					break cluster
				default: // -n, -z, -f FILE
					modelled = false
					break cluster
				}
			}
		case len(scripts) == 0:
			scripts = append(scripts, v)
		default:
			files = append(files, a)
		}
	}
	if !inPlace {
		return
	}
	cmds, ok := parseSed(strings.Join(scripts, "\n"), ere)
	modelled = modelled && ok
	for _, w := range files {
		if !w.Known {
			continue
		}
		text := unknownText
		if modelled {
			// each command is a pass of a regular expression over the text
			if old := f.sourceText(sc, w.Value); old != unknownText && old != opaqueText && f.a.spend(len(cmds)*ScanCost(len(old))) {
				text = applySed(cmds, old)
			}
		}
		put(w.Value, text, false)
	}
}

// linkTargets re-roots the relative targets of ln -s among refs: a
// symbolic link's target resolves from the link's own directory, not the
// working directory (ln -s ../config/x.json notes/x.json points at
// config/x.json), so that is the path judged as exposed. refs is returned
// as it is when nothing changes, else a copy.
func (a *Analysis) linkTargets(cmd *shell.Command, refs []rules.PathRef, dir string) []rules.PathRef {
	if cmd.Name != "ln" || len(refs) == 0 {
		return refs
	}
	targets, linkDir := symlinkOperands(cmd.Args())
	if len(targets) == 0 {
		return refs
	}
	if linkDir == "" { // ln -s TARGET… LAST: LAST is the link, or the directory the links go into
		last := targets[len(targets)-1]
		targets = targets[:len(targets)-1]
		linkDir = path.Dir(last.Value)
		if strings.HasSuffix(last.Value, "/") || len(targets) > 1 || a.isDirectory(last.Value, dir) {
			linkDir = strings.TrimSuffix(last.Value, "/")
		}
	}
	if linkDir == "." || linkDir == "" {
		return refs
	}
	var out []rules.PathRef
	for i, ref := range refs {
		for _, t := range targets {
			v := t.Value
			if ref.Word.Span != t.Span || path.IsAbs(v) || strings.HasPrefix(v, "~") || strings.Contains(v, "$") {
				continue
			}
			if out == nil {
				out = slices.Clone(refs)
			}
			out[i].Word.Value = path.Join(linkDir, v)
		}
	}
	if out == nil {
		return refs
	}
	return out
}

// symlinkOperands are the operands of ln when it makes symbolic links
// (-s, --symbolic), all known, and the directory -t names ("" when none);
// nil when it makes hard links, when -r (--relative) has ln itself make
// each target relative to the link, or when a word is not known.
func symlinkOperands(args []shell.Word) (ops []shell.Word, dir string) {
	l, ok := parseLn(args)
	if !ok || !l.symbolic || l.relative || l.dir == "" && len(l.ops) < 2 {
		return nil, ""
	}
	return l.ops, strings.TrimSuffix(l.dir, "/")
}

// lnArgs are ln's arguments read: its operands, the directory -t names
// ("" when none), and whether it makes symbolic links (-s) with targets
// it makes relative itself (-r).
type lnArgs struct {
	ops                []shell.Word
	dir                string
	symbolic, relative bool
}

// parseLn reads ln's arguments; ok is false when a word is not known.
func parseLn(args []shell.Word) (l lnArgs, ok bool) {
	for i := 0; i < len(args); i++ {
		switch v := args[i].Value; {
		case !args[i].Known:
			return lnArgs{}, false
		case v == "--":
			l.ops = append(l.ops, args[i+1:]...)
			i = len(args)
		case v == "-t" || v == "--target-directory":
			if i+1 < len(args) {
				l.dir = args[i+1].Value
				i++
			}
		case strings.HasPrefix(v, "--target-directory="):
			l.dir = strings.TrimPrefix(v, "--target-directory=")
		case v == "--symbolic":
			l.symbolic = true
		case v == "--relative":
			l.relative = true
		case v == "-S" || v == "--suffix":
			i++ // the backup suffix, no operand
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") && len(v) > 1:
			l.symbolic = l.symbolic || strings.Contains(v, "s")
			l.relative = l.relative || strings.Contains(v, "r")
		default:
			l.ops = append(l.ops, args[i])
		}
	}
	return l, true
}
