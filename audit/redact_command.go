package audit

import (
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Program-aware redaction reads the text as shell code: simple commands,
// their words with quotes removed, variable assignments, pipes, here-strings
// and here-documents. The shell parser the policy uses (mvdan.cc/sh) reads
// it when it can; text it refuses (a stray quote, zsh syntax, prose) or
// that is very long goes through a tolerant tokenizer instead, so the
// rules below apply to both. Code quoted inside a word (bash -c '…',
// ssh host '…') is read again, a few levels deep.

// maxParse is the longest text given to the shell parser; longer text (file
// contents in an argument) goes through the cheaper tolerant tokenizer.
const maxParse = 16 << 10

// maxNesting bounds how deep quoted code is read again.
const maxNesting = 3

// minRepeat is the shortest secret value also masked wherever else it
// appears in the text (docker login -p X && echo X > f).
const minRepeat = 6

// word is one shell word.
type word struct {
	start, end int    // the word's bytes in the analysed text
	val        string // its value with quotes and escapes removed; expansions kept as source
	dyn        []span // parts of val that are expansions ($X, ${X}, $(…)); nil when none
	raw        bool   // val is the source itself (an argv element), no quoting
}

// span is a half-open range of byte offsets.
type span struct{ start, end int }

// literalIn reports whether val[from:to] holds any byte that is not part of
// an expansion: a value made only of $VAR holds no secret text.
func (w *word) literalIn(from, to int) bool {
	if from >= to {
		return false
	}
	if w.dyn == nil {
		return true
	}
	for i := from; i < to; {
		inside := false
		for _, d := range w.dyn {
			if i >= d.start && i < d.end {
				i, inside = d.end, true
				break
			}
		}
		if !inside {
			return true
		}
	}
	return false
}

// simpleCmd is one simple command.
type simpleCmd struct {
	assigns []assign
	args    []word
	stdin   []word       // here-strings and here-document bodies it reads
	from    []*simpleCmd // the commands whose output is piped into it
}

type assign struct {
	name string
	val  word
}

// edit replaces text[start:end] with repl.
type edit struct {
	start, end int
	repl       string
}

// analyzer collects the edits for one text.
type analyzer struct {
	text   string
	edits  []edit
	values []string // literal secret values, to mask their other occurrences
	parse  bool     // use the shell parser when it accepts the text
	// Quoted code is read again, but each span once, and all nested
	// reading together is bounded by budget bytes: quotes nested in
	// command substitutions nested in quotes must not multiply the work.
	seen   map[span]bool
	budget int
}

// nestBudget is how many bytes of nested code may be read again, as a
// multiple of the text's length.
const nestBudget = 4

// redactCommands masks the secrets that commands in s take as option
// values, arguments, variables or standard input.
func redactCommands(s, lower string, parse bool) string {
	if !mayHoldCommandSecret(s, lower) {
		return s
	}
	a := &analyzer{text: s, parse: parse, budget: nestBudget*len(s) + 4096}
	a.analyze(0, len(s), 0)
	if len(a.edits) == 0 {
		return s
	}
	return maskRepeats(applyEdits(s, a.edits), a.values)
}

// analyze reads text[start:end] as shell code.
func (a *analyzer) analyze(start, end, depth int) {
	if a.parse && end-start <= maxParse {
		if cmds, ok := a.parsed(start, end, depth); ok {
			a.check(cmds)
			return
		}
	}
	a.check(a.tolerant(start, end, depth))
}

// nested reads quoted code inside a word, text[start:end], when it could
// hold a command, one level deeper.
func (a *analyzer) nested(start, end, depth int) {
	if depth >= maxNesting {
		return
	}
	a.reread(start, end, depth+1)
}

// reread reads text[start:end] as code at depth: each span once, within
// the budget.
func (a *analyzer) reread(start, end, depth int) {
	if end-start < 4 {
		return
	}
	sp := span{start, end}
	if a.budget < end-start || a.seen[sp] {
		return
	}
	if a.seen == nil {
		a.seen = map[span]bool{}
	}
	a.seen[sp] = true
	a.budget -= end - start
	inner := a.text[start:end]
	if !strings.ContainsAny(inner, " \t\n") || !mayHoldCommandSecret(inner, strings.ToLower(inner)) {
		return
	}
	a.analyze(start, end, depth)
}

var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// parsed reads text[start:end] with the shell parser; ok is false when it
// refuses the text.
func (a *analyzer) parsed(start, end, depth int) (cmds []*simpleCmd, ok bool) {
	defer func() {
		if recover() != nil { // the parser must never take an audit record down
			cmds, ok = nil, false
		}
	}()
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(a.text[start:end]), "")
	parsers.Put(p)
	if err != nil {
		return nil, false
	}
	b := &builder{a: a, base: start, depth: depth, byCall: map[*syntax.CallExpr]*simpleCmd{}}
	syntax.Walk(f, b.visit)
	for _, pipe := range b.pipes {
		b.link(pipe)
	}
	return b.cmds, true
}

// builder turns a parsed file into simple commands.
type builder struct {
	a      *analyzer
	base   int
	depth  int
	cmds   []*simpleCmd
	byCall map[*syntax.CallExpr]*simpleCmd
	pipes  []*syntax.BinaryCmd
}

func (b *builder) visit(n syntax.Node) bool {
	switch x := n.(type) {
	case *syntax.Stmt:
		switch c := x.Cmd.(type) {
		case *syntax.CallExpr:
			sc := b.call(c)
			sc.stdin = b.stdin(x.Redirs)
		case *syntax.DeclClause:
			b.decl(c)
		}
		for _, r := range x.Redirs {
			if r.Hdoc != nil { // a here-document may be code (bash <<EOF)
				if w, ok := b.hdoc(r.Hdoc); ok {
					b.a.nested(w.start, w.end, b.depth)
				}
			}
		}
	case *syntax.BinaryCmd:
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			b.pipes = append(b.pipes, x)
		}
	case *syntax.Word:
		b.nestedParts(x.Parts)
	}
	return true
}

// nestedParts reads quoted code in a word again.
func (b *builder) nestedParts(parts []syntax.WordPart) {
	for _, p := range parts {
		switch q := p.(type) {
		case *syntax.SglQuoted:
			if !q.Dollar {
				b.a.nested(b.off(q.Pos())+1, b.off(q.End())-1, b.depth)
			}
		case *syntax.DblQuoted:
			if !q.Dollar {
				b.a.nested(b.off(q.Pos())+1, b.off(q.End())-1, b.depth)
			}
		}
	}
}

func (b *builder) off(p syntax.Pos) int { return b.base + int(p.Offset()) }

func (b *builder) call(c *syntax.CallExpr) *simpleCmd {
	sc := b.byCall[c]
	if sc != nil {
		return sc
	}
	sc = &simpleCmd{}
	for _, as := range c.Assigns {
		if as.Name != nil && as.Value != nil && as.Array == nil {
			sc.assigns = append(sc.assigns, assign{name: as.Name.Value, val: b.word(as.Value)})
		}
	}
	for _, w := range c.Args {
		sc.args = append(sc.args, b.word(w))
	}
	b.byCall[c] = sc
	b.cmds = append(b.cmds, sc)
	return sc
}

// decl reads export, declare, local, readonly and typeset.
func (b *builder) decl(d *syntax.DeclClause) {
	sc := &simpleCmd{}
	for _, as := range d.Args {
		if as.Name != nil && as.Value != nil && !as.Naked && as.Array == nil {
			sc.assigns = append(sc.assigns, assign{name: as.Name.Value, val: b.word(as.Value)})
		}
	}
	b.cmds = append(b.cmds, sc)
}

// stdin returns the here-strings and here-document bodies of redirs.
func (b *builder) stdin(redirs []*syntax.Redirect) []word {
	var out []word
	for _, r := range redirs {
		switch {
		case r.Op == syntax.WordHdoc && r.Word != nil:
			out = append(out, b.word(r.Word))
		case r.Hdoc != nil:
			if w, ok := b.hdoc(r.Hdoc); ok {
				out = append(out, w)
			}
		}
	}
	return out
}

// hdoc returns a here-document's body without its closing delimiter line.
func (b *builder) hdoc(w *syntax.Word) (word, bool) {
	if len(w.Parts) == 0 {
		return word{}, false
	}
	start, end := b.off(w.Parts[0].Pos()), b.off(w.End())
	body := b.a.text[start:end]
	if nl := strings.LastIndexByte(body, '\n'); nl >= 0 {
		body = body[:nl]
	} else {
		return word{}, false
	}
	body = strings.TrimSuffix(body, "\r")
	if body == "" {
		return word{}, false
	}
	return word{start: start, end: start + len(body), val: body, raw: true}, true
}

// word returns w's value: literal parts unquoted and unescaped,
// expansions kept as their source and marked.
func (b *builder) word(w *syntax.Word) word {
	out := word{start: b.off(w.Pos()), end: b.off(w.End())}
	if len(w.Parts) == 1 { // most words: no building
		switch q := w.Parts[0].(type) {
		case *syntax.Lit:
			out.val = unescape(q.Value, false)
			return out
		case *syntax.SglQuoted:
			out.val = q.Value
			return out
		case *syntax.DblQuoted:
			if len(q.Parts) == 1 {
				if l, ok := q.Parts[0].(*syntax.Lit); ok {
					out.val = unescape(l.Value, true)
					return out
				}
			}
		}
	}
	var val strings.Builder
	dynamic := func(n syntax.Node) {
		s := b.a.text[b.off(n.Pos()):b.off(n.End())]
		out.dyn = append(out.dyn, span{val.Len(), val.Len() + len(s)})
		val.WriteString(s)
	}
	for _, p := range w.Parts {
		switch q := p.(type) {
		case *syntax.Lit:
			val.WriteString(unescape(q.Value, false))
		case *syntax.SglQuoted:
			val.WriteString(q.Value)
		case *syntax.DblQuoted:
			for _, in := range q.Parts {
				if l, ok := in.(*syntax.Lit); ok {
					val.WriteString(unescape(l.Value, true))
				} else {
					dynamic(in)
				}
			}
		case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			dynamic(q)
		default:
			val.WriteString(b.a.text[b.off(p.Pos()):b.off(p.End())])
		}
	}
	out.val = val.String()
	return out
}

// unescape removes the backslashes the shell removes: before any byte
// outside quotes, before $ ` " \ and newline inside double quotes.
func unescape(s string, inDouble bool) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			next := s[i+1]
			if !inDouble || strings.IndexByte("$`\"\\\n", next) >= 0 {
				if next != '\n' {
					sb.WriteByte(next)
				}
				i++
				continue
			}
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}

// link records the pipe x: the commands of its left side feed the first
// command of its right side.
func (b *builder) link(x *syntax.BinaryCmd) {
	left, right := x.X, x.Y
	for {
		if bc, ok := left.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) {
			left = bc.Y
			continue
		}
		break
	}
	for {
		if bc, ok := right.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) {
			right = bc.X
			continue
		}
		break
	}
	ce, ok := right.Cmd.(*syntax.CallExpr)
	if !ok {
		return
	}
	consumer := b.byCall[ce]
	if consumer == nil {
		return
	}
	lo, hi := b.off(left.Pos()), b.off(left.End())
	for c, sc := range b.byCall {
		if p := b.off(c.Pos()); p >= lo && p < hi && sc != consumer {
			consumer.from = append(consumer.from, sc)
		}
	}
	slices.SortFunc(consumer.from, func(x, y *simpleCmd) int { return firstOffset(x) - firstOffset(y) })
}

func firstOffset(c *simpleCmd) int {
	switch {
	case len(c.assigns) > 0:
		return c.assigns[0].val.start
	case len(c.args) > 0:
		return c.args[0].start
	}
	return 0
}

// mask masks val[from:to] of w, keeping the quotes around it. A value made
// only of expansions ($PASSWORD) is left alone: it holds no secret text.
func (a *analyzer) mask(w word, from, to int) {
	if from < 0 || to > len(w.val) || !w.literalIn(from, to) {
		return
	}
	if v := w.val[from:to]; len(v) >= minRepeat && w.dyn == nil {
		a.values = append(a.values, v)
	}
	src := a.text[w.start:w.end]
	if w.raw {
		a.edits = append(a.edits, edit{w.start + from, w.start + to, Mask})
		return
	}
	if ps, pe, ok := mapRange(src, w.val, from, to); ok {
		a.edits = append(a.edits, edit{w.start + ps, w.start + pe, Mask})
		return
	}
	// Quoting the offsets cannot follow: show the word unquoted.
	a.edits = append(a.edits, edit{w.start, w.end, w.val[:from] + Mask + w.val[to:]})
}

// maskFrom masks val[from:] of w.
func (a *analyzer) maskFrom(w word, from int) { a.mask(w, from, len(w.val)) }

// mapRange maps val[from:to] to src[ps:pe], src being the word's source
// and val its value. It fails when the range crosses a quote or an escape,
// or when src is not plain quoting of val.
func mapRange(src, val string, from, to int) (ps, pe int, ok bool) {
	pos := make([]int, 0, len(val)+1) // pos[i] is the source offset of val[i]
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
			continue
		case quote == 0 && c == '$' && i+1 < len(src) && src[i+1] == '\'':
			quote = '\''
			i++
			continue
		case quote != 0 && c == quote:
			quote = 0
			continue
		case c == '\\' && quote != '\'' && i+1 < len(src):
			if quote == 0 || strings.IndexByte("$`\"\\\n", src[i+1]) >= 0 {
				if src[i+1] == '\n' {
					i++
					continue
				}
				i++
			}
		}
		pos = append(pos, i)
	}
	if len(pos) != len(val) {
		return 0, 0, false
	}
	pos = append(pos, len(src))
	ps, pe = pos[from], pos[to-1]+1
	if pe-ps != to-from { // a quote or an escape inside the range
		return 0, 0, false
	}
	return ps, pe, true
}

// applyEdits applies non-overlapping edits (overlaps are merged) to s.
func applyEdits(s string, edits []edit) string {
	slices.SortFunc(edits, func(x, y edit) int {
		if x.start != y.start {
			return x.start - y.start
		}
		return y.end - x.end
	})
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for i := 0; i < len(edits); {
		e := edits[i]
		i++
		for i < len(edits) && edits[i].start < e.end { // merge overlaps
			if edits[i].end > e.end {
				e.end, e.repl = edits[i].end, Mask
			}
			i++
		}
		if e.start < at {
			continue
		}
		b.WriteString(s[at:e.start])
		b.WriteString(e.repl)
		at = e.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// maskRepeats masks the other occurrences of the secret values found.
func maskRepeats(s string, values []string) string {
	for _, v := range values {
		if strings.Contains(s, v) {
			s = strings.ReplaceAll(s, v, Mask)
		}
	}
	return s
}
