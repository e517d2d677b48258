package shell

import (
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/risk"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// staticEnv feeds expand with the variables known at one point of the
// script and records whether expansion asked for anything unknown, so that
// an unset variable never silently becomes "".
type staticEnv struct {
	st      *state
	opts    *Options
	unknown bool
}

var defaultIFS = expand.Variable{Set: true, Kind: expand.String, Str: " \t\n"}

func (e *staticEnv) Get(name string) expand.Variable {
	if user, ok := strings.CutPrefix(name, "HOME "); ok {
		// ~user: the account whose home is HOME is known (~dev when HOME is
		// /home/dev); other users are never looked up: literal and unknown.
		if home, known := e.st.lookup("HOME", e.opts); known && home.str != "" && path.Base(home.str) == user {
			return expand.Variable{Set: true, Kind: expand.String, Str: home.str}
		}
		e.unknown = true
		return expand.Variable{Set: true, Kind: expand.String, Str: "~" + user}
	}
	v, known := e.st.lookup(name, e.opts)
	if !known || v.walked || v.glob {
		// a listing's set is a word only as a whole ($f, "$f": walkedVar);
		// any other use of it (${f%/*}, "$f.bak") is not known
		return e.missing(name)
	}
	if v.isList {
		return expand.Variable{Set: true, Kind: expand.Indexed, List: v.list}
	}
	return expand.Variable{Set: true, Kind: expand.String, Str: v.str}
}

// missing handles a variable that is not known. expand itself reads PWD
// and HOME (for ~) on its own; those reads are judged by scanWord instead.
func (e *staticEnv) missing(name string) expand.Variable {
	switch name {
	case "IFS":
		// bash never imports IFS from the environment.
		return defaultIFS
	case "PWD", "HOME":
		return expand.Variable{}
	}
	e.unknown = true
	return expand.Variable{}
}

// Each is only used for ${!prefix*}; listing names is never static.
func (e *staticEnv) Each(func(string, expand.Variable) bool) { e.unknown = true }

// pwdSubst recognises $(pwd) (or `pwd -L`/`pwd -P`) when the directory is
// known, and returns it: "$(pwd)" is as static as "$PWD".
func (w *walker) pwdSubst(cs *syntax.CmdSubst, st *state) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(cs.Stmts[0].Redirs) > 0 || len(call.Args) == 0 || len(call.Args) > 2 {
		return "", false
	}
	name, ok := plainLit(call.Args[0])
	if !ok || name != "pwd" {
		return "", false
	}
	if len(call.Args) == 2 {
		if f, ok := plainLit(call.Args[1]); !ok || f != "-L" && f != "-P" {
			return "", false
		}
	}
	dir, known := st.lookup("PWD", &w.opts)
	if !known || dir.str == "" {
		return "", false
	}
	return dir.str, true
}

// staticSubst returns what a command substitution prints when that is
// known without running it: $(pwd), and $(mktemp …).
func (w *walker) staticSubst(cs *syntax.CmdSubst, st *state) (string, bool) {
	if dir, ok := w.pwdSubst(cs, st); ok {
		return dir, true
	}
	if p, ok := w.pathSubst(cs, st); ok {
		return p, true
	}
	return w.mktempSubst(cs, st)
}

// pathSubst recognises $(dirname WORD) and $(basename WORD) of a word whose
// value is known, and $(cd DIR && pwd) (cd -P, its output sent to
// /dev/null, pwd -P too) of a known DIR: what a script computes from $0
// to find the files beside it (. "$(dirname "$0")/lib.sh").
func (w *walker) pathSubst(cs *syntax.CmdSubst, st *state) (string, bool) {
	if len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 || cs.Stmts[0].Negated || cs.Stmts[0].Background {
		return "", false
	}
	switch x := cs.Stmts[0].Cmd.(type) {
	case *syntax.CallExpr:
		name, arg, ok := w.oneArgCall(x, st, cs)
		switch {
		case !ok || arg == "":
		case name == "dirname":
			return dirname(arg), true
		case name == "basename":
			return path.Base(arg), true
		}
	case *syntax.BinaryCmd:
		if x.Op != syntax.AndStmt || x.X.Negated || x.Y.Negated || len(x.Y.Redirs) > 0 {
			return "", false
		}
		for _, r := range x.X.Redirs {
			if r.Word == nil || r.Word.Lit() != "/dev/null" {
				return "", false
			}
		}
		cd, ok1 := x.X.Cmd.(*syntax.CallExpr)
		pwd, ok2 := x.Y.Cmd.(*syntax.CallExpr)
		if !ok1 || !ok2 || len(pwd.Assigns) > 0 || len(pwd.Args) == 0 || len(pwd.Args) > 2 {
			return "", false
		}
		if n, ok := plainLit(pwd.Args[0]); !ok || n != "pwd" || len(pwd.Args) == 2 && pwd.Args[1].Lit() != "-P" && pwd.Args[1].Lit() != "-L" {
			return "", false
		}
		name, dir, ok := w.oneArgCall(cd, st, cs)
		if !ok || name != "cd" || dir == "" {
			return "", false
		}
		if path.IsAbs(dir) {
			return path.Clean(dir), true
		}
		if pwdv, known := st.lookup("PWD", &w.opts); known && path.IsAbs(pwdv.str) {
			return path.Join(pwdv.str, dir), true
		}
	}
	return "", false
}

// dirname is what dirname(1) prints for p: the directory part, without
// trailing slashes, "." for a bare name, "/" for the root.
func dirname(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" {
		return "/"
	}
	return path.Dir(t)
}

// oneArgCall is the name and only operand (after -P for cd, -- for any)
// of a call without assignments whose operand's value is known.
func (w *walker) oneArgCall(x *syntax.CallExpr, st *state, cs *syntax.CmdSubst) (string, string, bool) {
	if len(x.Assigns) > 0 || len(x.Args) < 2 || len(x.Args) > 3 {
		return "", "", false
	}
	name, ok := plainLit(x.Args[0])
	if !ok {
		return "", "", false
	}
	args := x.Args[1:]
	if len(args) == 2 {
		if f := args[0].Lit(); f != "--" && !(name == "cd" && (f == "-P" || f == "-L")) {
			return "", "", false
		}
		args = args[1:]
	}
	vals, ok := w.expandStatic(args[0], modeLiteral, st, risk.Span{Start: int(cs.Pos().Offset()), End: int(cs.End().Offset())})
	if !ok || len(vals) != 1 || strings.HasPrefix(vals[0], "-") && name != "cd" {
		return "", "", false
	}
	return name, vals[0], true
}

// mktempSubst recognises $(mktemp), $(mktemp -d) and $(mktemp -d -t NAME)
// (or -dt NAME, --directory, --tmpdir): a fresh file or directory in the
// temporary directory ($TMPDIR, else /tmp) whose name is not known before
// it runs. It stands for "$TMPDIR/tmp.XXXXXXXXXX" (NAME with its X's as
// written when given): a path in the temporary directory, which is what
// matters to the path rules, rather than an unknown one that could be the
// project or /.
func (w *walker) mktempSubst(cs *syntax.CmdSubst, st *state) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(cs.Stmts[0].Redirs) > 0 || len(call.Args) == 0 || len(call.Args) > 4 {
		return "", false
	}
	if name, ok := plainLit(call.Args[0]); !ok || name != "mktemp" {
		return "", false
	}
	template := "tmp.XXXXXXXXXX"
	named := false
	for _, a := range call.Args[1:] {
		v, ok := plainLit(a)
		switch {
		case !ok:
			return "", false
		case v == "-d" || v == "--directory" || v == "-t" || v == "--tmpdir" || v == "-dt" || v == "-td" || v == "-q" || v == "--quiet":
		case !strings.HasPrefix(v, "-") && !named && strings.Contains(v, "XXX") && !strings.ContainsAny(v, "/$`*?["):
			template, named = v, true
		default:
			return "", false // -p DIR, an absolute template, --suffix: not judged here
		}
	}
	dir := "/tmp"
	if v, known := st.lookup("TMPDIR", &w.opts); known && strings.HasPrefix(v.str, "/") {
		dir = strings.TrimSuffix(v.str, "/")
	} else if known || v.str != "" {
		return "", false
	}
	return dir + "/" + template, true
}

// errNotStatic makes process substitution fail instead of panicking.
var errNotStatic = errors.New("not statically known")

// expandMode selects how a word is expanded.
type expandMode uint8

const (
	modeFields   expandMode = iota // command arguments: splitting, braces
	modeLiteral                    // assignment values, redirect targets
	modeDocument                   // here-document bodies
)

// wordInfo is what a quick scan of a word's parts tells before expanding.
type wordInfo struct {
	dynamic bool // command or process substitution, unknown $HOME/$PWD
	quoted  bool
	glob    bool
}

func (w *walker) scanWord(word *syntax.Word, st *state) wordInfo {
	if w.scanVisit == nil {
		w.scanVisit = w.visitScan
	}
	outerSt, outerInfo := w.scanSt, w.scanInfo
	w.scanSt, w.scanInfo = st, wordInfo{}
	syntax.Walk(word, w.scanVisit)
	info := w.scanInfo
	w.scanSt, w.scanInfo = outerSt, outerInfo
	for _, p := range word.Parts {
		if lit, ok := p.(*syntax.Lit); ok {
			info.glob = info.glob || hasGlob(lit.Value)
			info.quoted = info.quoted || strings.IndexByte(lit.Value, '\\') >= 0
		}
	}
	return info
}

// plainScan is scanWord's answer for a word of the shape substFree
// accepts with no ${!x} in it (the loops' "$f", "$ROOT/build/"), read from
// its parts without a walk; ok is false for any other word. For such a word
// indirections' walk acts on nothing (it acts on ${!x} alone), so the
// caller skips it too.
func (w *walker) plainScan(word *syntax.Word, st *state) (info wordInfo, ok bool) {
	if slowPaths {
		return wordInfo{}, false
	}
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			info.glob = info.glob || hasGlob(p.Value)
			info.quoted = info.quoted || strings.IndexByte(p.Value, '\\') >= 0
		case *syntax.SglQuoted:
			info.quoted = true
		case *syntax.ParamExp:
			if !plainParam(p) || p.Excl {
				return wordInfo{}, false
			}
			info.dynamic = info.dynamic || w.unknownHomePWD(p, st)
		case *syntax.DblQuoted:
			info.quoted = true
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
				case *syntax.ParamExp:
					if !plainParam(q) || q.Excl {
						return wordInfo{}, false
					}
					info.dynamic = info.dynamic || w.unknownHomePWD(q, st)
				default:
					return wordInfo{}, false
				}
			}
		default:
			return wordInfo{}, false
		}
	}
	return info, true
}

// unknownHomePWD reports $HOME or $PWD when the state does not know its
// value: visitScan's test of a parameter.
func (w *walker) unknownHomePWD(p *syntax.ParamExp, st *state) bool {
	if p.Param != nil && (p.Param.Value == "HOME" || p.Param.Value == "PWD") {
		_, ok := st.lookup(p.Param.Value, &w.opts)
		return !ok
	}
	return false
}

// visitScan is scanWord's visitor: it notes in w.scanInfo what it sees,
// with the state w.scanSt.
func (w *walker) visitScan(n syntax.Node) bool {
	st, info := w.scanSt, &w.scanInfo
	switch n := n.(type) {
	case *syntax.CmdSubst:
		_, known := w.substText[n]
		if _, ok := w.staticSubst(n, st); !ok && !known { // a scan inside restores w.scanInfo
			info.dynamic = true
		}
		return false
	case *syntax.ProcSubst:
		info.dynamic = true
		return false
	case *syntax.ParamExp:
		if n.Param != nil && (n.Param.Value == "HOME" || n.Param.Value == "PWD") {
			if _, ok := st.lookup(n.Param.Value, &w.opts); !ok {
				info.dynamic = true
			}
		}
	case *syntax.SglQuoted, *syntax.DblQuoted:
		info.quoted = true
	case *syntax.ExtGlob:
		info.glob = true
	}
	return true
}

// hasGlob reports unescaped glob characters in an unquoted literal.
func hasGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

// fields resolves one command-line word into its fields (brace expansion and
// field splitting may yield several, an empty unquoted variable none).
func (w *walker) fields(word *syntax.Word, st *state, cx *ctx) []Word {
	return w.resolve(word, modeFields, st, cx)
}

// appendFields appends the fields of one command-line word to dst, as
// fields returns them, without a slice of its own for the common word.
func (w *walker) appendFields(dst []Word, word *syntax.Word, st *state, cx *ctx) []Word {
	n := len(dst)
	dst = w.appendResolved(dst, word, modeFields, st, cx)
	if w.walkedText != nil {
		w.markWalkedText(dst[n:])
	}
	return dst
}

// markWalkedText marks as Walked each word that is the text a listing's
// set was put in code as (noteWalkedText): find ~ -name x -exec sh -c
// 'cat {}' \; runs cat on each path, which the code's text names as the
// glob only.
func (w *walker) markWalkedText(words []Word) {
	for i := range words {
		if _, ok := w.walkedText[words[i].Value]; ok && words[i].Known {
			// the text stays known: its glob's judgement stands beside the walk's
			words[i].Glob, words[i].Walked = true, true
		}
	}
}

// noteWalkedText records that a listing's set was put inside longer
// words (the code of sh -c 'cat {}', of xargs -I{} or a parallel
// template), so that, wherever that code is parsed, its text stands for
// the set (markWalkedText). A word of the same text written out is then
// judged as the walk too: more than it is, never less.
func (w *walker) noteWalkedText(words []Word, placeholder string, set Word) {
	if !set.Walked || placeholder == "" {
		return
	}
	for _, a := range words {
		if a.Value != placeholder && strings.Contains(a.Value, placeholder) {
			if w.walkedText == nil {
				w.walkedText = map[string]bool{}
			}
			w.walkedText[set.Value] = true
			return
		}
	}
}

// single resolves a word that is never split (assignment value, redirect
// target, case word).
func (w *walker) single(word *syntax.Word, st *state, cx *ctx) Word {
	var one [1]Word
	ws := w.appendResolved(one[:0], word, modeLiteral, st, cx)
	if len(ws) == 0 {
		return Word{Known: true, Span: cx.fr.spanOf(word)}
	}
	return ws[0]
}

func (w *walker) resolve(word *syntax.Word, mode expandMode, st *state, cx *ctx) []Word {
	return w.appendResolved(nil, word, mode, st, cx)
}

// appendResolved appends the words word resolves to in mode to dst.
func (w *walker) appendResolved(dst []Word, word *syntax.Word, mode expandMode, st *state, cx *ctx) []Word {
	span := cx.fr.spanOf(word)
	if v, ok := plainLit(word); ok {
		if !w.spend(plainWordCost, span) {
			return append(dst, Word{Value: v, Span: span})
		}
		return append(dst, Word{Value: v, Known: true, Glob: hasGlob(v), Span: span})
	}
	if !w.spend(wordCost(word), span) {
		return append(dst, Word{Value: sourceText(cx.fr.src, word), Span: span})
	}
	if v, ok := quotedLit(word); ok && mode != modeDocument && len(v) <= w.opts.MaxBytes && !slowPaths {
		return w.appendQuotedLit(dst, word, v, mode, st, cx, span)
	}
	before := len(w.script.Commands)
	w.walkSubsts(word, st, cx)
	w.noteProducer(word, before, span, cx)
	if mode != modeDocument {
		// cat $(find …), f=$(find …): the listing's set of paths
		if set, ok := w.listedSubst(word, before, span); ok {
			return append(dst, set)
		}
	}
	info, plain := w.plainScan(word, st)
	if !plain {
		w.indirections(word, st, cx)
		info = w.scanWord(word, st)
	}
	base := Word{Known: true, Quoted: info.quoted, Glob: info.glob && mode != modeDocument, Span: span}
	if mode != modeDocument {
		if out, ok := w.walkedVar(dst, word, mode, st, span); ok {
			return out // cat "$f" after f=$(find …); cat "$@" in sh -c '…' _ {}
		}
	}
	if !info.dynamic {
		if vals, ok := w.expandStatic(word, mode, st, span); ok {
			dst = slices.Grow(dst, len(vals))
			for _, v := range vals {
				base.Value = v
				dst = append(dst, base)
			}
			return dst
		}
	}
	base.Known = false
	base.Value = w.bestEffort(word.Parts, mode != modeFields, st, cx.fr.src)
	w.spend(textCost(len(base.Value)), span)
	if !info.dynamic {
		w.noteDefaults(word, base.Value, mode, st, span)
	}
	return append(dst, base)
}

// walkedVar appends the words a word made of one variable stands for
// ($f, "$f", ${f}) when the variable holds a listing's set (value's
// walked): the set as a word that is Walked, so that what it names is
// judged as the walk, not as the literal glob text it holds. For the
// positional parameters some of which are sets ($@, "$@", $*, and "$*"
// of one), each element is a word, the sets Walked. ok is false for any
// other word.
func (w *walker) walkedVar(dst []Word, word *syntax.Word, mode expandMode, st *state, span risk.Span) ([]Word, bool) {
	if len(word.Parts) != 1 {
		return dst, false
	}
	part, quoted := word.Parts[0], false
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part, quoted = dq.Parts[0], true
	}
	pe, ok := part.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Excl || pe.Length || pe.Width || pe.Slice != nil || pe.Repl != nil ||
		pe.Names != 0 || pe.Exp != nil {
		return dst, false
	}
	v, _ := st.lookup(pe.Param.Value, &w.opts)
	if v.glob && pe.Index == nil && !v.isList {
		// for f in DIR/*.html: f is one of the pattern's matches, a path of that set
		return append(dst, Word{Value: v.str, Known: v.known, Glob: true, Quoted: quoted, Span: span}), true
	}
	if !v.walked || pe.Index != nil && (v.isList || !wholeIndex(pe.Index, quoted)) {
		return dst, false
	}
	if !v.isList {
		// an inexact set (find ~ -path … -name x) is not known, and still the walk
		return append(dst, Word{Value: v.str, Known: v.known, Glob: true, Walked: true, Quoted: quoted, Span: span}), true
	}
	name := pe.Param.Value
	if mode != modeFields || name != "@" && name != "*" || name == "*" && quoted && len(v.list) != 1 {
		return dst, false // "$*" joins its elements into one word: no path of the set
	}
	for i, e := range v.list {
		walked := v.walkedAt&walkedBit(i) != 0
		// an element not a set, unquoted, is split and globbed: known only when that leaves it as it is
		known := v.known && (walked || quoted || !strings.ContainsAny(e, " \t\n*?["))
		dst = append(dst, Word{Value: e, Known: known, Glob: walked, Walked: walked, Quoted: quoted, Span: span})
	}
	return dst, true
}

// wholeIndex reports whether ${a[INDEX]} of an array filled from a
// listing (mapfileSet) is paths of the listing: [@], [*] unquoted (split
// again into its elements), or one element by a literal number. "${a[*]}"
// joins the elements into one word, no path of the set.
func wholeIndex(index syntax.ArithmExpr, quoted bool) bool {
	word, ok := index.(*syntax.Word)
	if !ok || len(word.Parts) != 1 {
		return false
	}
	lit, ok := word.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	return lit.Value == "@" || lit.Value == "*" && !quoted || isDigits(lit.Value)
}

// appendQuotedLit appends the word a quoted literal resolves to (see
// quotedLit): what the slow path of appendResolved appends, charged the
// same, without walking the word four times and running the expander.
func (w *walker) appendQuotedLit(dst []Word, word *syntax.Word, v string, mode expandMode, st *state, cx *ctx, span risk.Span) []Word {
	w.spendNode(word, cx) // walkSubsts' charge
	base := Word{Value: v, Known: true, Quoted: true, Span: span}
	if w.spend(textCost(len(v)), span) {
		return append(dst, base)
	}
	base.Known = false
	base.Value = w.bestEffort(word.Parts, mode != modeFields, st, cx.fr.src)
	w.spend(textCost(len(base.Value)), span)
	return append(dst, base)
}

// quotedLit returns the value of a word made only of literal text with at
// least one quoted part ("built tool7", 'a b', --name="x y"): no
// expansion, no escapes, no globs, braces or tildes, so its one field is
// its parts' text joined. ok is false for any other word.
func quotedLit(word *syntax.Word) (v string, ok bool) {
	quoted := false
	var parts [4]string
	texts := parts[:0]
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\{~*?[") {
				return "", false
			}
			texts = append(texts, p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			texts, quoted = append(texts, p.Value), true
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok || strings.IndexByte(lit.Value, '\\') >= 0 {
					return "", false
				}
				texts = append(texts, lit.Value)
			}
			quoted = true
		default:
			return "", false
		}
	}
	if !quoted {
		return "", false
	}
	if len(texts) == 1 {
		return texts[0], true
	}
	return strings.Join(texts, ""), true
}

// slowPaths turns the shortcuts of the walk off (quotedLit, the text
// filter of arithmeticCode, a plain statement sharing its outer context),
// for the tests that compare them with the
// slow paths they stand for.
var slowPaths bool

// plainLit returns the text of a word that is one literal with nothing to
// expand (the common case, kept allocation-free).
func plainLit(word *syntax.Word) (string, bool) {
	if len(word.Parts) != 1 {
		return "", false
	}
	lit, ok := word.Parts[0].(*syntax.Lit)
	if !ok || expandsAny(lit.Value) {
		return "", false
	}
	return lit.Value, true
}

// expandsAny is strings.ContainsAny(s, "\\{~") (an escape, a brace or a
// tilde the expander must see), as a loop over the bytes: plainLit runs for
// every word of a script, and ContainsAny builds its set of bytes anew on
// every call. The three are ASCII, which no byte of a longer UTF-8
// sequence is, so comparing bytes finds what comparing runes does.
func expandsAny(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\', '{', '~':
			return true
		}
	}
	return false
}

// expandStatic runs mvdan's expander with a fresh configuration that can
// neither run commands nor read the filesystem.
func (w *walker) expandStatic(word *syntax.Word, mode expandMode, st *state, span risk.Span) (vals []string, ok bool) {
	if v, static, ok := quotedVar(word, mode, st, &w.opts); ok {
		if !static {
			return nil, false
		}
		return w.staticVals([]string{v}, span)
	}
	env := &staticEnv{st: st, opts: &w.opts}
	cfg := &expand.Config{
		Env:       env,
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "", errNotStatic },
		CmdSubst: func(out io.Writer, cs *syntax.CmdSubst) error {
			if dir, ok := w.staticSubst(cs, st); ok {
				_, err := io.WriteString(out, dir)
				return err
			}
			if text, ok := w.substText[cs]; ok {
				_, err := io.WriteString(out, text)
				return err
			}
			return errNotStatic
		},
	}
	var err error
	switch mode {
	case modeFields:
		n := braceFields(word)
		if n > maxBraceFields {
			w.problemAt(fmt.Sprintf("budget exceeded: brace expansion makes more than %d words", maxBraceFields), span)
			return nil, false
		}
		if n > 1 && !w.spend(n*fieldCost, span) {
			return nil, false
		}
		vals, err = expand.Fields(cfg, word)
	case modeLiteral:
		var s string
		s, err = expand.Literal(cfg, word)
		vals = []string{s}
	default:
		var s string
		s, err = expand.Document(cfg, word)
		vals = []string{s}
	}
	if err != nil || env.unknown {
		return nil, false
	}
	return w.staticVals(vals, span)
}

// staticVals checks and charges the values a word expanded to.
func (w *walker) staticVals(vals []string, span risk.Span) ([]string, bool) {
	if total(vals) > w.opts.MaxBytes {
		w.problemAt(fmt.Sprintf("budget exceeded: a word expands to more than %d bytes", w.opts.MaxBytes), span)
		return nil, false
	}
	if !w.spend(textCost(total(vals)), span) {
		return nil, false
	}
	return vals, true
}

// quotedVar tells, for a word that is one plain variable in double quotes
// ("$f", "${f}"), what the expander makes of it in fields and literal
// mode without its configuration and closures (cp "$f" ./build/ in a loop
// of every step of a script): of a variable whose value is known and one
// string, that value (static), as it is (one field, no splitting, no
// glob); of one whose value is not known (a listing's set is not either,
// as a part of a word: staticEnv.Get), that the word is not static. ok is
// false for every other word, and for the names the expander or
// staticEnv treat themselves ($1, $@, $#, …; IFS, PWD and HOME when not
// known): the expander decides those.
func quotedVar(word *syntax.Word, mode expandMode, st *state, opts *Options) (val string, static, ok bool) {
	if slowPaths || mode == modeDocument || len(word.Parts) != 1 {
		return "", false, false
	}
	dq, ok := word.Parts[0].(*syntax.DblQuoted)
	if !ok || dq.Dollar || len(dq.Parts) != 1 {
		return "", false, false
	}
	pe, ok := dq.Parts[0].(*syntax.ParamExp)
	if !ok || !simpleParam(pe) || !isIdentifier(pe.Param.Value) {
		return "", false, false
	}
	name := pe.Param.Value
	v, known := st.lookup(name, opts)
	switch {
	case v.isList && known && !v.walked:
		return "", false, false // "$a" is the first element: the expander's
	case known && !v.walked:
		return v.str, true, true
	case name == "IFS" || name == "PWD" || name == "HOME":
		return "", false, false // staticEnv.missing gives these a value
	}
	return "", false, true
}

// simpleParam reports whether pe is $name or ${name}: a name and nothing
// done to its value (mvdan's own test, the other languages' fields
// included).
func simpleParam(pe *syntax.ParamExp) bool {
	return pe.Param != nil && pe.Flags == nil && !pe.Excl && !pe.Length && !pe.Width && !pe.IsSet &&
		pe.Split == syntax.OptUnset && pe.GlobSubst == syntax.OptUnset && pe.RcExpand == syntax.OptUnset &&
		pe.NestedParam == nil && pe.Index == nil && len(pe.Modifiers) == 0 && pe.Slice == nil &&
		pe.Repl == nil && pe.Names == 0 && pe.Exp == nil
}

// isIdentifier reports whether name is a shell variable name: a letter or
// _, then letters, digits and _.
func isIdentifier(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

func total(vals []string) int {
	n := 0
	for _, v := range vals {
		n += len(v)
	}
	return n
}

// bestEffort renders a word that could not be fully resolved: known parts
// resolved, unknown parts in their source form.
func (w *walker) bestEffort(parts []syntax.WordPart, quoted bool, st *state, src string) string {
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(w.partText(p, quoted, st, src))
		if sb.Len() > w.opts.MaxBytes && len(parts) > 0 {
			return sourceText(src, &syntax.Word{Parts: parts})
		}
	}
	return sb.String()
}

func (w *walker) partText(p syntax.WordPart, quoted bool, st *state, src string) string {
	switch p := p.(type) {
	case *syntax.Lit:
		return unescapeLit(p.Value, quoted)
	case *syntax.SglQuoted:
		if p.Dollar {
			if vals, ok := w.expandStatic(&syntax.Word{Parts: []syntax.WordPart{p}}, modeLiteral, st, risk.Span{}); ok {
				return vals[0]
			}
		}
		return p.Value
	case *syntax.DblQuoted:
		return w.bestEffort(p.Parts, true, st, src)
	case *syntax.ParamExp:
		if p.Short || isSimpleParam(p) {
			if v, ok := st.lookup(p.Param.Value, &w.opts); ok && !v.isList {
				return v.str
			}
		}
	}
	return sourceText(src, p)
}

func isSimpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && p.Index == nil && p.Slice == nil &&
		p.Repl == nil && p.Exp == nil && p.Names == 0
}

// unescapeLit removes backslash quoting from a literal; inside double quotes
// only \$ \` \" \\ and \newline are escapes.
func unescapeLit(s string, inDouble bool) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			sb.WriteByte(s[i])
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
		case !inDouble || strings.IndexByte("$`\"\\", next) >= 0:
			sb.WriteByte(next)
		default:
			sb.WriteByte('\\')
			sb.WriteByte(next)
		}
		i++
	}
	return sb.String()
}

// sourceText returns the source of a node, or "" when its offsets do not
// fall inside src.
func sourceText(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return src[start:end]
}

// joinValues joins the values of words with spaces and reports whether all
// of them were known.
func joinValues(ws []Word) (string, bool) {
	known := true
	vals := make([]string, len(ws))
	for i, w := range ws {
		vals[i] = w.Value
		known = known && w.Known
	}
	return strings.Join(vals, " "), known
}

// spanOfWords is the extent from the first to the last word.
func spanOfWords(ws []Word) risk.Span {
	if len(ws) == 0 {
		return risk.Span{}
	}
	return risk.Span{Start: ws[0].Span.Start, End: ws[len(ws)-1].Span.End}
}
