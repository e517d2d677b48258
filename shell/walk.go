package shell

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/risk"
	"mvdan.cc/sh/v3/syntax"
)

// walker holds everything one Parse call needs. It is never shared between
// goroutines.
type walker struct {
	opts        Options
	script      *Script
	parser      *syntax.Parser
	work        *Budget // the call's work budget, shared with nested parses and the caller
	steps       int
	stopped     bool
	functions   map[string]*funcDef
	order       []*funcDef      // functions in definition order
	called      map[string]bool // functions called at least once
	aliasDefs   []aliasDef      // alias definitions in order
	aliasUsed   map[string]bool // aliases expanded at least once
	impostor    string          // the password program an alias or function being walked is named after
	nestedBytes int
	active      map[string]bool // functions and aliases being expanded
	unroll      int             // product of the values of the for loops being unrolled (0: none)
	// producers holds, by the span of a word of the top-level text, the
	// one simple command whose output the word is ("$(cat f)", <(x)).
	producers map[risk.Span]*Command
	// substText holds the output of command substitutions whose output is
	// statically known ($(echo … | base64 -d)), so that eval "$(…)" and
	// bash -c "$(…)" are analysed like the code they run.
	substText map[*syntax.CmdSubst]string
	// al hands out the contexts of newCtx, the commands of allocCommand,
	// the states of cloneState and the words of wordSlice (one allocation
	// for many instead of one each): the Options' Arena, or one of the
	// walk's own, made apart so that a walker lent an Arena (a script's
	// hundreds of nested parses) does not carry an empty one.
	al *Arena
	// substVisit is visitSubst, made once; substSt and substCx the state
	// and context of the walkSubsts under way.
	substVisit func(syntax.Node) bool
	substSt    *state
	substCx    *ctx
	// The visitors of forgetAssigned, loopValues (hasSubst), scanWord and
	// indirections, each made once (a func literal handed to syntax.Walk
	// is an allocation a call), and what the walk under way works with:
	// each of them saves and restores its fields around its walk, so a
	// visitor may start another walk of its kind.
	forgetVisit func(syntax.Node) bool
	forgetSt    *state
	substFind   func(syntax.Node) bool
	substFound  bool
	scanVisit   func(syntax.Node) bool
	scanSt      *state
	scanInfo    wordInfo
	indirVisit  func(syntax.Node) bool
	indirSt     *state
	indirCx     *ctx
	// walkedText holds, by their text, the listings' sets put inside
	// longer words that may be code (sh -c 'cat {}'): noteWalkedText.
	walkedText map[string]bool
	// procsubstLast holds the last command of each <(…) of one pipeline
	// (noteProcsubst), for a loop that reads it (stdinFeed).
	procsubstLast map[*syntax.ProcSubst]*Command
	// cmdsubstLast holds the last command of each $(…) of one pipeline
	// (recordSubstOutput), for a loop that reads it as a here-string
	// (stdinFeed).
	cmdsubstLast map[*syntax.CmdSubst]*Command
	// listingFiles holds, by path, the listing a command of the line wrote
	// into a file with > (noteListingFile), for a later command fed from
	// that file (find ~ -name x > l; xargs cat < l).
	listingFiles map[string]*Command
}

// wordSlice returns an empty slice of capacity n, its array a part of a
// block no other slice shares: appending past n moves it elsewhere.
func (w *walker) wordSlice(n int) []Word {
	if n > maxWordBlock/4 {
		return make([]Word, 0, n)
	}
	return w.al.words.slice(n)
}

// blocks hands out pointers to new zero values of T, each once and never
// reused, as a heap allocation would be, from blocks of blockSize(made,
// maxBlock) values: one allocation for many. The zero value is ready.
type blocks[T any] struct {
	free []T // the unused rest of the last block
	made int // how many blocks were made
	// kept are the blocks handed out since the last reset, and spare
	// those a reset emptied, when the blocks are an Arena's (keep).
	keep        bool
	kept, spare [][]T
}

// maxBlock is the most values blocks allocates at a time.
const maxBlock = 16

// next returns a new zero T.
func (b *blocks[T]) next() *T {
	if len(b.free) == 0 {
		b.free = b.block(blockSize(b.made, maxBlock))
	}
	v := &b.free[0]
	b.free = b.free[1:]
	return v
}

// block returns a block of at least n zero values: a spare one when it
// is long enough, else a new one of n.
func (b *blocks[T]) block(n int) []T {
	if k := len(b.spare); k > 0 {
		s := b.spare[k-1]
		b.spare[k-1] = nil
		b.spare = b.spare[:k-1]
		if len(s) >= n {
			b.kept = append(b.kept, s)
			return s
		}
	}
	s := make([]T, n)
	b.made++
	if b.keep {
		b.kept = append(b.kept, s)
	}
	return s
}

// reset zeroes every block handed out and makes them spare, up to most
// values in all.
func (b *blocks[T]) reset(most int) {
	n := 0
	for _, s := range b.spare {
		n += len(s)
	}
	for i, s := range b.kept {
		b.kept[i] = nil
		if n += len(s); n <= most {
			clear(s)
			b.spare = append(b.spare, s)
		}
	}
	b.kept, b.free = b.kept[:0], nil
}

// slice returns an empty slice of capacity n whose array is a part of a
// block no other slice shares (wordSlice).
func (b *blocks[T]) slice(n int) []T {
	if len(b.free) < n {
		b.free = b.block(max(n, 4*blockSize(b.made, maxWordBlock/4)-4))
	}
	s := b.free[:0:n]
	b.free = b.free[n:]
	return s
}

// blockSize is the size of the next block after made blocks: 1, 1, 2,
// 4, … up to most, so that a command line of one or two commands
// allocates what it did one at a time, and a script few blocks.
func blockSize(made, most int) int {
	if made < 2 {
		return 1
	}
	return min(1<<min(made-1, 16), most)
}

// maxWordBlock is the most words wordSlice allocates at a time.
const maxWordBlock = 128

// allocCommand returns a new zero Command, handed out once and never
// reused, from blocks (see blocks).
func (w *walker) allocCommand() *Command { return w.al.commands.next() }

// newCtx returns a new context holding a copy of c. Each is handed out
// once and never reused, as a heap allocation would be.
func (w *walker) newCtx(c *ctx) *ctx {
	cx := w.al.ctxs.next()
	*cx = *c
	return cx
}

// funcDef is a function body and the frame it was written in.
type funcDef struct {
	name string
	body *syntax.Stmt
	fr   *frame
	st   *state
	cx   ctx
}

// frame is one piece of source text being walked: the top-level command or
// a nested string (bash -c, eval, a here-doc fed to a shell, …).
type frame struct {
	src    string
	span   *risk.Span // for nested text: the extent of the enclosing construct
	origin string
	depth  int
}

func (f *frame) spanOf(n syntax.Node) risk.Span {
	if f.span != nil {
		return *f.span
	}
	if s, ok := n.(*syntax.Stmt); ok {
		return stmtSpan(s)
	}
	return risk.Span{Start: int(n.Pos().Offset()), End: int(n.End().Offset())}
}

// stmtSpan is a statement's extent without its trailing ";" or "&".
func stmtSpan(s *syntax.Stmt) risk.Span {
	end := s.Position
	if s.Cmd != nil {
		end = s.Cmd.End()
	}
	for _, r := range s.Redirs {
		if r.End().After(end) {
			end = r.End()
		}
	}
	return risk.Span{Start: int(s.Pos().Offset()), End: int(end.Offset())}
}

// ctx is what flows down from enclosing constructs to each simple command.
type ctx struct {
	fr         *frame
	wrappers   []string
	privileged bool
	remote     string
	redirs     []Redirect
	stdin      *Stdin
	fdFeeds    []fdFeed // descriptors but stdin reading a listing (read -u 3 f 3< <(find …))
	background bool
	inputArgs  bool        // commands get words read at run time (a parallel template)
	leaves     *[]*Command // collects the commands of one pipeline element
	// leafList and leafBuf hold the commands of the pipeline element this
	// context is made for (pipeline points leaves here): in the context,
	// which the walk's blocks hold, not a list of their own. Only
	// pipeline reads them; a context copied from this one carries a stale
	// copy it never uses.
	leafList []*Command
	leafBuf  [2]*Command
}

func (w *walker) problemAt(reason string, span risk.Span) {
	for _, p := range w.script.Problems {
		if p.Reason == reason && p.Span == span {
			return
		}
	}
	w.script.Problems = append(w.script.Problems, Problem{Reason: reason, Span: span})
}

// codeProblem records that the code c runs, given as the word code, is
// not static: a Problem with reason at span, linked to the command whose
// output the word is, when it is one simple command's (Problem.From).
func (w *walker) codeProblem(c *Command, code Word, reason string, span risk.Span) {
	p := w.producers[code.Span]
	if p == nil || code.Known || code.Span.IsZero() {
		w.problemAt(reason, span)
		return
	}
	c.CodeFrom = p
	for _, q := range w.script.Problems {
		if q.Reason == reason && q.Span == span && q.From == p {
			return
		}
	}
	w.script.Problems = append(w.script.Problems, Problem{Reason: reason, Span: span, From: p})
}

// noteProducer records, for a word of the top-level text that is one
// command or process substitution of one simple command ("$(cat f)",
// <(kubectl completion bash)), that command: the commands emitted since
// before are the substitution's.
func (w *walker) noteProducer(word *syntax.Word, before int, span risk.Span, cx *ctx) {
	if cx.fr.span != nil || len(word.Parts) != 1 || len(w.script.Commands) != before+1 {
		return
	}
	var stmts []*syntax.Stmt
	switch p := word.Parts[0].(type) {
	case *syntax.CmdSubst:
		stmts = p.Stmts
	case *syntax.ProcSubst:
		stmts = p.Stmts
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			if cs, ok := p.Parts[0].(*syntax.CmdSubst); ok {
				stmts = cs.Stmts
			}
		}
	}
	if len(stmts) != 1 {
		return
	}
	c := w.script.Commands[before]
	if c.Name == "" && !c.ReadsOneFile() || c.PipeFrom != nil || c.PipeTo != nil || c.Background || c.Depth != cx.fr.depth+1 {
		return
	}
	if w.producers == nil {
		w.producers = map[risk.Span]*Command{}
	}
	w.producers[span] = c
}

// listedSubst returns the set of paths an argument made of one command
// substitution stands for when that substitution prints a listing
// (listedEntries: find's paths, ls's entries, maybe through line
// filters): cat $(find ~ -name hosts.yml) reads what find -exec cat {} +
// would. The word is that set, as xargs's operands are; ok is false for
// any other word, which stays unknown.
func (w *walker) listedSubst(word *syntax.Word, before int, span risk.Span) (Word, bool) {
	if len(word.Parts) != 1 || len(w.script.Commands) <= before {
		return Word{}, false
	}
	var cs *syntax.CmdSubst
	quoted := false
	switch p := word.Parts[0].(type) {
	case *syntax.CmdSubst:
		cs = p
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			cs, _ = p.Parts[0].(*syntax.CmdSubst)
			quoted = true
		}
	}
	if cs == nil || len(cs.Stmts) != 1 {
		return Word{}, false
	}
	last := w.script.Commands[len(w.script.Commands)-1]
	if last.PipeTo != nil || last.Origin != "cmdsubst" || last.Background {
		return Word{}, false
	}
	set, ok := listedEntries(last)
	if !ok || !set.Known && !set.Walked { // an inexact walk is still the walk
		return Word{}, false
	}
	set.Span, set.Quoted = span, quoted
	return set, true
}

func (w *walker) problemf(span risk.Span, format string, args ...any) {
	w.problemAt(fmt.Sprintf(format, args...), span)
}

// spend charges the work budget for n units of work about to be done. When
// the budget refuses, the walk stops and the script gets a Problem: the
// analysis is incomplete.
func (w *walker) spend(n int, span risk.Span) bool {
	if w.stopped {
		return false
	}
	if w.work.Spend(n) {
		return true
	}
	w.stopped = true
	w.problemAt(workLimitProblem, span)
	return false
}

// spendNode charges for walking the syntax tree under n once.
func (w *walker) spendNode(n syntax.Node, cx *ctx) bool {
	return w.spend(nodeCost(n), cx.fr.spanOf(n))
}

// step counts work and stops the walk once the budget is exhausted, so that
// no input can make the analysis slow.
func (w *walker) step(cx *ctx, n syntax.Node) bool {
	if w.stopped || !w.spend(stepCost, cx.fr.spanOf(n)) {
		return false
	}
	w.steps++
	if w.steps > w.opts.MaxCommands*4 {
		w.stopped = true
		w.problemf(cx.fr.spanOf(n), "budget exceeded: more than %d statements to analyse", w.opts.MaxCommands*4)
		return false
	}
	return true
}

func (w *walker) emit(c *Command, cx *ctx) {
	if w.stopped || w.work.refusing() && !w.spend(0, c.Span) {
		return // a charge for copying state was refused: c may be incomplete
	}
	if len(w.script.Commands) >= w.opts.MaxCommands {
		w.stopped = true
		w.problemAt(fmt.Sprintf("budget exceeded: more than %d commands", w.opts.MaxCommands), c.Span)
		return
	}
	w.appendCommand(c)
	if w.impostor != "" && (c.Name == "read" || c.Name == "readarray" || c.Name == "mapfile") {
		w.script.Impostors = append(w.script.Impostors, Impostor{Name: w.impostor, Span: c.Span})
	}
	if len(c.Redirects) > 0 {
		w.noteListingFile(c)
	}
	if cx.leaves != nil {
		*cx.leaves = append(*cx.leaves, c)
	}
}

// appendCommand adds c to the script's commands, the list grown by
// doubling in arrays the walk's Arena keeps for the next calls
// (commandLists) instead of by append: a script's hundreds of commands
// grew a new one six times a call. Only the list's first len elements are ever written: a grown
// list is a new array, the old one left as it was.
func (w *walker) appendCommand(c *Command) {
	cmds := w.script.Commands
	if len(cmds) == cap(cmds) {
		cmds = append(w.al.lists.next(max(2*cap(cmds), 4)), cmds...)
	}
	w.script.Commands = append(cmds, c)
}

func (w *walker) walkStmts(stmts []*syntax.Stmt, st *state, cx *ctx) {
	for _, s := range stmts {
		w.walkStmt(s, st, cx)
	}
}

func (w *walker) walkStmt(s *syntax.Stmt, st *state, outer *ctx) {
	if !w.step(outer, s) {
		return
	}
	cx := outer
	if len(s.Redirs) > 0 || s.Background || s.Coprocess || s.Disown || slowPaths {
		// A context of its own only for a statement that changes one: the
		// walk below never writes to cx or keeps it past the statement (a
		// function keeps a copy), so a plain statement shares its outer one.
		cx = w.newCtx(outer)
	}
	if len(s.Redirs) > 0 {
		own := w.redirects(s.Redirs, st, cx)
		cx.redirs = append(slices.Clip(outer.redirs), own...)
		if in := stdinOf(own); in != nil {
			cx.stdin = in
			if in.Via == "file" || in.Via == "herestring" {
				in.procsubst = w.stdinFeed(s.Redirs)
			}
		}
		cx.fdFeeds = w.fdFeeds(s.Redirs, outer.fdFeeds)
	}
	if s.Background || s.Coprocess || s.Disown {
		bg := w.cloneState(st)
		cx.background = true
		w.walkCmd(s, bg, cx)
		bg.release()
		return
	}
	w.walkCmd(s, st, cx)
}

func (w *walker) walkCmd(s *syntax.Stmt, st *state, cx *ctx) {
	switch x := s.Cmd.(type) {
	case nil:
		w.emitBare(s, nil, st, cx)
	case *syntax.CallExpr:
		w.call(s, x, st, cx)
	case *syntax.BinaryCmd:
		w.binary(x, st, cx)
	case *syntax.Subshell:
		sub := w.cloneState(st)
		w.walkStmts(x.Stmts, sub, cx)
		sub.release()
	case *syntax.Block:
		w.walkStmts(x.Stmts, st, cx)
	case *syntax.IfClause:
		w.ifClause(x, st, cx)
	case *syntax.WhileClause:
		w.loop(x, append(slices.Clip(x.Cond), x.Do...), st, cx)
	case *syntax.ForClause:
		w.forClause(x, st, cx)
	case *syntax.CaseClause:
		w.caseClause(x, st, cx)
	case *syntax.FuncDecl:
		w.funcDecl(x, st, cx)
	case *syntax.DeclClause:
		w.decl(s, x, st, cx)
	case *syntax.TimeClause:
		w.timeClause(x, st, cx)
	case *syntax.CoprocClause:
		inner := w.newCtx(cx)
		inner.background = true
		sub := w.cloneState(st)
		w.walkStmt(x.Stmt, sub, inner)
		sub.release()
	case *syntax.TestDecl:
		sub := w.cloneState(st)
		w.walkStmt(x.Body, sub, cx)
		sub.release()
	default: // TestClause, ArithmCmd, LetClause
		if !w.spendNode(x, cx) {
			return
		}
		w.walkSubsts(x, st, cx)
		if t, ok := x.(*syntax.TestClause); ok {
			w.testNames(t, st, cx)
		}
		w.forgetArithmNames(x, st)
	}
}

func (w *walker) binary(b *syntax.BinaryCmd, st *state, cx *ctx) {
	switch b.Op {
	case syntax.Pipe, syntax.PipeAll:
		w.pipeline(b, st, cx)
	case syntax.AndStmt:
		// a && b && c (parsed (a && b) && c): each part runs only when
		// every earlier one did and succeeded, so it sees the state they
		// left (a cd among them included); after the chain, any of those
		// states may hold.
		var partsBuf [8]*syntax.Stmt // most chains are shorter: no allocation
		parts := andChain(b, partsBuf[:0])
		w.walkStmt(parts[0], st, cx)
		branch := w.cloneState(st)
		var endsBuf [8]*state
		ends := endsBuf[:0]
		for i, p := range parts[1:] {
			w.walkStmt(p, branch, cx)
			if i < len(parts)-2 {
				ends = append(ends, w.cloneState(branch))
			}
		}
		for _, e := range ends {
			st.merge(e)
		}
		st.merge(branch)
	default: // ||: the right side runs only when the left failed
		w.walkStmt(b.X, st, cx)
		branch := w.cloneState(st)
		w.walkStmt(b.Y, branch, cx)
		st.merge(branch)
	}
}

// andChain lists the parts of a chain of && in the order they run.
func andChain(b *syntax.BinaryCmd, out []*syntax.Stmt) []*syntax.Stmt {
	if x, ok := b.X.Cmd.(*syntax.BinaryCmd); ok && x.Op == syntax.AndStmt && len(b.X.Redirs) == 0 && !b.X.Negated && !b.X.Background {
		out = andChain(x, out)
	} else {
		out = append(out, b.X)
	}
	return append(out, b.Y)
}

func (w *walker) ifClause(x *syntax.IfClause, st *state, cx *ctx) {
	w.walkStmts(x.Cond, st, cx)
	then := w.cloneState(st)
	w.walkStmts(x.Then, then, cx)
	if x.Else != nil {
		els := w.cloneState(st)
		w.ifClause(x.Else, els, cx)
		st.merge(els)
	}
	st.merge(then)
}

// loop walks a loop body once, with every variable it assigns unknown from
// the start (a later iteration sees the values of an earlier one).
func (w *walker) loop(x syntax.Node, body []*syntax.Stmt, st *state, cx *ctx) {
	if !w.spendNode(x, cx) {
		return
	}
	w.forgetAssigned(x, st)
	inner := w.cloneState(st)
	w.walkStmts(body, inner, cx)
	st.merge(inner)
}

func (w *walker) forClause(x *syntax.ForClause, st *state, cx *ctx) {
	switch l := x.Loop.(type) {
	case *syntax.WordIter:
		vals, patterns, ok := w.loopValues(l, st, cx)
		ok = ok && !x.Select
		if ok && !patterns && loopBodyBytes(x)*len(vals) <= maxUnrolledBytes {
			bound := w.cloneState(st)
			w.unrolled(x, l.Name.Value, vals, bound, cx)
			defer st.merge(bound)
		}
		before := len(w.script.Commands)
		for _, item := range l.Items {
			w.walkSubsts(item, st, cx)
		}
		if vals, ok := walkedParams(l, st, &w.opts); ok && !x.Select && loopBodyBytes(x)*len(vals) <= maxUnrolledBytes &&
			len(vals)*max(w.unroll, 1) <= maxLoopValues {
			// for f; do cat "$f"; done in sh -c '…' _ {} +: f is each parameter, the set among them
			bound := w.cloneState(st)
			w.unrolled(x, l.Name.Value, vals, bound, cx)
			defer st.merge(bound)
		}
		st.forget(l.Name.Value)
		if len(l.Items) == 1 && !x.Select {
			// for f in $(find ~ -name hosts.yml): each f is one of the
			// listing's paths; one pass with f bound to the whole set
			if set, ok := w.listedSubst(l.Items[0], before, cx.fr.spanOf(l.Items[0])); ok && set.Walked {
				bound := w.cloneState(st)
				w.unrolled(x, l.Name.Value, []Word{set}, bound, cx)
				defer st.merge(bound)
			}
		}
		switch {
		case !ok || !patterns:
		case len(vals) == 1:
			// for f in src/*.go: one pattern and nothing else, so every
			// pass takes one of its matches: the loop's own pass binds f
			// to the pattern's set (what the body assigns stays unknown)
			st.set(l.Name.Value, value{str: vals[0].Value, known: true, glob: true})
			defer st.forget(l.Name.Value)
		case loopBodyBytes(x)*len(vals) <= maxUnrolledBytes:
			// for f in a.txt ~/.ssh/id_*: a pass with f bound to each
			// value, a pattern as the set it names
			bound := w.cloneState(st)
			w.unrolledPatterns(x, l.Name.Value, vals, bound, cx)
			defer st.merge(bound)
		}
	case *syntax.CStyleLoop:
		w.walkSubsts(l, st, cx)
	}
	w.loop(x, x.Do, st, cx)
}

// walkedParams are the values a for loop with no "in" binds its
// variable to when the positional parameters hold a listing's set
// (setPositional): each parameter, the sets Walked. ok is false
// otherwise, and past maxLoopValues.
func walkedParams(l *syntax.WordIter, st *state, opts *Options) ([]Word, bool) {
	if l.InPos.IsValid() {
		return nil, false
	}
	v, _ := st.lookup("@", opts)
	if !v.walked || !v.isList || len(v.list) > maxLoopValues {
		return nil, false
	}
	vals := make([]Word, len(v.list))
	for i, e := range v.list {
		walked := v.walkedAt&walkedBit(i) != 0
		vals[i] = Word{Value: e, Known: v.known, Glob: walked, Walked: walked}
	}
	return vals, true
}

// maxLoopValues bounds the values a for loop over literal words is walked
// for, loops nested in one another counting the product of theirs: beyond
// it the body is only walked once with the variable unknown, as any other
// loop's.
const maxLoopValues = 8

// maxUnrolledBytes bounds the text a for loop's bound passes walk
// together (its body's length times its values): a long body is only
// walked once, with the variable unknown, so that binding values keeps
// the work of a call small.
const maxUnrolledBytes = 8 << 10

// loopBodyBytes is the length of a for loop's body in its source text.
func loopBodyBytes(x *syntax.ForClause) int {
	return max(int(x.DonePos.Offset())-int(x.DoPos.Offset()), 0)
}

// loopValues are the values a for loop binds its variable to, in order
// (select binds the one a person picks, or nothing, again and again: not
// these), when every item is a word whose fields are known before the
// loop runs (literals, quoted text, variables of known value, glob
// patterns, a listing's walked set): no substitution, no "in" omitted
// (the positional parameters), at most maxLoopValues with the loops
// around it. patterns says some are glob patterns, whose matches are only
// known when the loop runs, each a path of the set the pattern names
// (patterns and a walked set are not taken together).
func (w *walker) loopValues(l *syntax.WordIter, st *state, cx *ctx) (vals []Word, patterns, ok bool) {
	if !l.InPos.IsValid() || len(l.Items) == 0 || len(l.Items)*max(w.unroll, 1) > maxLoopValues {
		return nil, false, false
	}
	for _, item := range l.Items {
		if w.hasSubst(item) {
			return nil, false, false
		}
	}
	walked := false
	for _, item := range l.Items {
		n := len(vals)
		vals = w.appendResolved(vals, item, modeFields, st, cx) // as w.fields, into the list itself
		for _, f := range vals[n:] {
			switch {
			case f.Walked: // a listing's set ("${a[@]}" after mapfile): the walk
				walked = true
			case !f.Known:
				return nil, false, false
			case f.Glob:
				patterns = true
			}
		}
	}
	if len(vals) == 0 || len(vals)*max(w.unroll, 1) > maxLoopValues || patterns && walked {
		return nil, false, false
	}
	return vals, patterns, true
}

// unrolledPatterns walks the body of a for loop once for each of its
// values, with the variable bound to each, a pattern as the set of paths
// it matches (value.glob), as unrolled does for known values.
func (w *walker) unrolledPatterns(x *syntax.ForClause, name string, pats []Word, st *state, cx *ctx) {
	if !w.spendNode(x, cx) {
		return
	}
	outer := max(w.unroll, 1)
	w.unroll = outer * len(pats)
	defer func() { w.unroll = outer }()
	for _, p := range pats {
		pass := w.cloneState(st)
		pass.set(name, value{str: p.Value, known: true, glob: p.Glob})
		w.walkStmts(x.Do, pass, cx)
		st.merge(pass)
	}
}

// unrolled walks the body of a for loop once for each of its values, in
// order, with the variable bound to it: what a loop over .claude and
// .gemini copies into "$d"/ is judged for each directory, as if written
// out. The first pass starts from the state before the loop; each later
// one from that state merged with where the pass before ended (a continue
// or a branch may have skipped part of it), so what the passes assign
// differently is unknown; after the loop, too (a break may end it at any
// pass). The caller walks the body once more with the variable unknown, as
// for any loop: binding the values adds what they reach, and never makes
// the loop's judgement softer than without them.
func (w *walker) unrolled(x *syntax.ForClause, name string, vals []Word, st *state, cx *ctx) {
	if !w.spendNode(x, cx) {
		return
	}
	outer := max(w.unroll, 1)
	w.unroll = outer * len(vals)
	defer func() { w.unroll = outer }()
	for _, v := range vals {
		pass := w.cloneState(st)
		pass.set(name, value{str: v.Value, known: v.Known, walked: v.Walked})
		w.walkStmts(x.Do, pass, cx)
		st.merge(pass)
	}
}

func (w *walker) caseClause(x *syntax.CaseClause, st *state, cx *ctx) {
	w.walkSubsts(x.Word, st, cx)
	for _, item := range x.Items {
		for _, p := range item.Patterns {
			w.walkSubsts(p, st, cx)
		}
		branch := w.cloneState(st)
		w.walkStmts(item.Stmts, branch, cx)
		st.merge(branch)
	}
}

func (w *walker) timeClause(x *syntax.TimeClause, st *state, cx *ctx) {
	if x.Stmt == nil {
		return
	}
	inner := w.newCtx(cx)
	inner.wrappers = append(slices.Clip(cx.wrappers), "time")
	w.walkStmt(x.Stmt, st, inner)
}

// hasSubst reports whether a command or process substitution or an
// extended glob is anywhere under n.
func (w *walker) hasSubst(n syntax.Node) bool {
	if w.substFind == nil {
		w.substFind = w.visitHasSubst
	}
	outer := w.substFound
	w.substFound = false
	syntax.Walk(n, w.substFind)
	found := w.substFound
	w.substFound = outer
	return found
}

// visitHasSubst is hasSubst's visitor: it stops at the first one.
func (w *walker) visitHasSubst(n syntax.Node) bool {
	switch n.(type) {
	case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ExtGlob:
		w.substFound = true
	}
	return !w.substFound
}

// forgetAssigned marks every variable a loop assigns (and the directory, if
// it cds) as unknown.
func (w *walker) forgetAssigned(n syntax.Node, st *state) {
	if w.forgetVisit == nil {
		w.forgetVisit = w.visitForget
	}
	if assignFree(n) {
		return // the walk would find nothing to forget
	}
	outer := w.forgetSt
	w.forgetSt = st
	syntax.Walk(n, w.forgetVisit)
	w.forgetSt = outer
}

// assignFree reports, for the loop most scripts write (for f in WORDS;
// do simple commands; done), that nothing under n is an assignment or a
// cd, pushd or popd, the nodes visitForget acts on: a word-list for loop
// whose words are substFree and whose body is simple commands without
// assignments, named by another word, with substFree arguments and
// redirect words (a here-document's body is its redirect's word). False
// means there may be one.
func assignFree(n syntax.Node) bool {
	x, ok := n.(*syntax.ForClause)
	if !ok {
		return false
	}
	iter, ok := x.Loop.(*syntax.WordIter)
	if !ok || !wordsSubstFree(iter.Items) {
		return false
	}
	for _, s := range x.Do {
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 || !wordsSubstFree(call.Args) {
			return false
		}
		if name := call.Args[0].Lit(); name == "cd" || name == "pushd" || name == "popd" {
			return false
		}
		for _, r := range s.Redirs {
			if r.Word != nil && !substFree(r.Word) || r.Hdoc != nil && !substFree(r.Hdoc) {
				return false
			}
		}
	}
	return true
}

func wordsSubstFree(ws []*syntax.Word) bool {
	for _, w := range ws {
		if !substFree(w) {
			return false
		}
	}
	return true
}

// visitForget is forgetAssigned's visitor, with its state.
func (w *walker) visitForget(n syntax.Node) bool {
	st := w.forgetSt
	switch n := n.(type) {
	case *syntax.Assign:
		if n.Name != nil {
			st.forget(n.Name.Value)
		}
	case *syntax.CallExpr:
		if len(n.Args) > 0 && (n.Args[0].Lit() == "cd" || n.Args[0].Lit() == "pushd" || n.Args[0].Lit() == "popd") {
			st.dir, st.dirSet = Word{Value: st.dir.Value}, true
			st.forget("PWD")
			st.loseDirs()
		}
	}
	return true
}

// forgetArithmNames forgets variables an arithmetic command may assign.
func (w *walker) forgetArithmNames(n syntax.Node, st *state) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryArithm:
			if word, ok := n.X.(*syntax.Word); ok && isAssignOp(n.Op) {
				st.forget(word.Lit())
			}
		case *syntax.UnaryArithm:
			if word, ok := n.X.(*syntax.Word); ok && (n.Op == syntax.Inc || n.Op == syntax.Dec) {
				st.forget(word.Lit())
			}
		}
		return true
	})
}

func isAssignOp(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
		return true
	}
	return false
}

// walkSubsts walks the commands inside $(…), `…`, <(…) and >(…) anywhere
// under n (not descending into them twice).
func (w *walker) walkSubsts(n syntax.Node, st *state, cx *ctx) {
	if !w.spendNode(n, cx) {
		return
	}
	if substFree(n) {
		return // the walk would find nothing to visit: "$f", plain words
	}
	if w.substVisit == nil {
		w.substVisit = w.visitSubst // one closure for the walk, not one a call
	}
	outerSt, outerCx := w.substSt, w.substCx // a substitution's own walk nests
	w.substSt, w.substCx = st, cx
	syntax.Walk(n, w.substVisit)
	w.substSt, w.substCx = outerSt, outerCx
}

// substFree reports, for the shapes most words have, that no $(…), `…`,
// <(…) or >(…) lies under n, so that walkSubsts' walk would visit none: a
// word of literal and single-quoted text and plain parameters ($a, ${a}),
// bare or within double quotes. False means there may be one.
func substFree(n syntax.Node) bool {
	word, ok := n.(*syntax.Word)
	if !ok {
		return false
	}
	for _, p := range word.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.ParamExp:
			if !plainParam(p) {
				return false
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
				case *syntax.ParamExp:
					if !plainParam(q) {
						return false
					}
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// plainParam reports whether a parameter expansion has no node under it
// but its name: no index, slice, replacement, default or nested form.
func plainParam(p *syntax.ParamExp) bool {
	return p.Flags == nil && p.NestedParam == nil && p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil
}

// visitSubst is walkSubsts' visitor of the nodes under its node, with the
// state and context walkSubsts was given.
func (w *walker) visitSubst(n syntax.Node) bool {
	st, cx := w.substSt, w.substCx
	switch n := n.(type) {
	case *syntax.CmdSubst:
		before := len(w.script.Commands)
		sub := w.cloneState(st)
		w.walkNestedStmts(n.Stmts, n, "cmdsubst", sub, cx)
		sub.release()
		w.recordSubstOutput(n, before)
		return false
	case *syntax.ProcSubst:
		before := len(w.script.Commands)
		sub := w.cloneState(st)
		w.walkNestedStmts(n.Stmts, n, "procsubst", sub, cx)
		sub.release()
		w.noteProcsubst(n, before)
		return false
	}
	return true
}

// recordSubstOutput keeps the output of a $(…) made of one pipeline whose
// last command's output is statically known, trailing newlines removed as
// the shell removes them.
func (w *walker) recordSubstOutput(n *syntax.CmdSubst, before int) {
	if len(n.Stmts) != 1 || len(w.script.Commands) <= before {
		return
	}
	last := w.script.Commands[len(w.script.Commands)-1]
	if last.PipeTo != nil || last.Origin != "cmdsubst" {
		return
	}
	if !last.Background && last.Name != "" {
		if w.cmdsubstLast == nil {
			w.cmdsubstLast = map[*syntax.CmdSubst]*Command{}
		}
		w.cmdsubstLast[n] = last
	}
	text, ok := producedText(last)
	if !ok || len(text) > w.opts.MaxBytes {
		return
	}
	if w.substText == nil {
		w.substText = map[*syntax.CmdSubst]string{}
	}
	w.substText[n] = strings.TrimRight(text, "\n")
}

// walkNestedStmts walks statements of the same source text one level deeper.
func (w *walker) walkNestedStmts(stmts []*syntax.Stmt, n syntax.Node, origin string, st *state, cx *ctx) {
	fr := &frame{src: cx.fr.src, span: cx.fr.span, origin: origin, depth: cx.fr.depth + 1}
	if !w.depthOK(fr.depth, cx.fr.spanOf(n)) {
		return
	}
	inner := w.al.ctxs.next() // from the walk's blocks, as newCtx's
	*inner = ctx{fr: fr, wrappers: cx.wrappers, privileged: cx.privileged, remote: cx.remote}
	w.walkStmts(stmts, st, inner)
}

func (w *walker) depthOK(depth int, span risk.Span) bool {
	if depth <= w.opts.MaxDepth {
		return true
	}
	w.problemf(span, "budget exceeded: code nested more than %d levels deep", w.opts.MaxDepth)
	return false
}
