package analysis

import (
	"encoding/binary"
	"slices"
	"unsafe"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// The rule packs' answer for a simple command depends on the command's
// words and everything else the walk recorded about it (its redirects,
// variables, wrappers, where it runs, its input, the commands of its
// pipeline), never on where it stands in the text but for the spans its
// findings and words carry. A script repeats commands (a loop's body
// written out, the same `git status --short | grep -c .` in every step),
// so one call remembers the packs' answer for each command it classified
// (classMemo): a command equal in all of that to one before it gets the
// same answer with each span moved to the matching place in it. A span
// that does not match one place of the command (a finding over several
// words) is not moved: that command is classified afresh.
//
// A remembered answer is charged to the call's budget what classifying
// the command afresh is (the same ceiling left first, the same units
// after; see Classify): the memo saves time, not budget, so that every
// limit falls where it falls without it, and what a call may cost does
// not depend on what the memo holds.
//
// Remembering costs a key and a copy of the answer per command, which only
// a call that repeats commands earns back: an ordinary call (a command line
// of a few commands) would pay it for nothing. So the memo starts with the
// call's memoAfter-th classified command; the commands before it are
// classified afresh and not remembered (RememberEvery starts it with the
// first, for the tests that compare the memo with the packs).

// classMemo remembers the packs' answers of one call, by command key.
type classMemo struct {
	// seen indexes entries by command key. (An entry of 256 bytes held
	// in the map itself would be one allocation each: Go keeps a map
	// value over 128 bytes out of line.)
	seen    map[string]int32
	entries []classEntry
	count   int    // commands classified before the memo started
	buf     []byte // builds keys
	// keys holds the bytes of seen's keys, one after another (see keyOf).
	keys  []byte
	spans spanMap // rebase's, reused by every hit of the call
	// refs is the block rebase copies the hits' paths into (see
	// clonePaths).
	refs []rules.PathRef
}

// classEntry is a remembered answer. Its lists are those of the answer
// the call itself was given for cmd: no code of the analysis or the policy
// writes an element of a Result's list after Classify returns it (a list is
// replaced, or appended to, which leaves the first len elements as they
// were), and a hit reads the entry only to copy it (rebase), so the entry
// needs no copy of its own.
type classEntry struct {
	cmd *shell.Command // the command classified
	res rules.Result   // its answer
}

// maxMemoKey bounds the key of a command worth remembering: a command
// whose key is longer (a here-document of a kilobyte, the end of a long
// pipeline) is classified afresh, and building its key stops there.
const maxMemoKey = 1 << 10

// pipeWalk is how many producers of a command's input its key holds: the
// rule packs look at no more than 32 (rules' maxPipeWalk), and at the
// next command of its pipeline only (its name, whether it runs in the
// background).
const pipeWalk = 33

// memoAfter is how many commands a call classifies before its memo starts
// remembering: more than an ordinary command line holds, few next to a
// script's hundreds.
const memoAfter = 8

// classifyMemo is Classify through the call's memo.
func (a *Analysis) classifyMemo(cmd *shell.Command) (rules.Result, bool) {
	if a.noMemo {
		return Classify(a.ctx.Rules, cmd, a.ctx.Budget)
	}
	m := &a.memo
	if m.count < memoAfter && !a.memoEvery {
		m.count++
		return Classify(a.ctx.Rules, cmd, a.ctx.Budget)
	}
	if keyOver(cmd, maxMemoKey) {
		return Classify(a.ctx.Rules, cmd, a.ctx.Budget)
	}
	m.buf = commandKey(m.buf[:0], cmd)
	if len(m.buf) > maxMemoKey {
		return Classify(a.ctx.Rules, cmd, a.ctx.Budget)
	}
	if i, ok := m.seen[string(m.buf)]; ok {
		ent := &m.entries[i]
		if !affords(cmd, a.ctx.Budget) {
			return rules.Result{}, false
		}
		if res, moved := rebase(&m.spans, &m.refs, ent.res, ent.cmd, cmd); moved {
			return charge(res, a.ctx.Budget)
		}
		return charge(a.ctx.Rules.Classify(cmd), a.ctx.Budget)
	}
	key := m.keyOf(m.buf)
	res, ok := Classify(a.ctx.Rules, cmd, a.ctx.Budget)
	if !ok {
		return res, false
	}
	if m.seen == nil {
		m.seen = map[string]int32{}
	}
	m.seen[key] = int32(len(m.entries))
	m.entries = append(m.entries, classEntry{cmd: cmd, res: res}) // shared with the caller: see classEntry
	return res, true
}

// keyOf returns key as a string whose bytes are in m.keys: the keys of a
// script's hundreds of commands take a few allocations, not one each. The
// bytes of a key are never written again while the memo lives: keys only
// grows (a larger array leaves the keys before it in the old one), and
// KeepScratch lends it to a later call only with seen cleared or dropped.
func (m *classMemo) keyOf(key []byte) string {
	if len(key) == 0 {
		return ""
	}
	start := len(m.keys)
	m.keys = append(m.keys, key...)
	return unsafe.String(&m.keys[start], len(key))
}

// keyOver tells, in a time that does not grow past limit, whether cmd's
// own key would be longer than limit: its words, variables and redirects
// alone are. A script that exports thousands of variables hands every
// command after the export all of them (shell's Env); building a key of
// them for each command, only to find it too long to remember, cost a
// call tens of milliseconds that no budget charged.
func keyOver(cmd *shell.Command, limit int) bool {
	n := len(cmd.Name)
	for _, w := range cmd.Argv {
		if n += len(w.Value) + 2; n > limit {
			return true
		}
	}
	for _, as := range [][]shell.Assign{cmd.Assigns, cmd.Env} {
		for _, x := range as {
			if n += len(x.Name) + len(x.Value.Value) + 3; n > limit {
				return true
			}
		}
	}
	for _, r := range cmd.Redirects {
		if n += len(r.Target.Value) + len(r.Body) + 6; n > limit {
			return true
		}
	}
	return false
}

// commandKey appends to b everything about cmd the rule packs may read,
// but its spans: the command's own fields, and those of the commands of
// its pipeline, the producer of its input and the command whose output is
// its code (TestCommandKeyFields keeps the list whole).
func commandKey(b []byte, cmd *shell.Command) []byte {
	b = ownKey(b, cmd)
	for p, n := cmd.PipeFrom, 0; p != nil && len(b) <= maxMemoKey; p, n = p.PipeFrom, n+1 {
		if n == pipeWalk {
			b = append(b, "\x00…"...) // more producers than the packs look at
			break
		}
		b = append(b, "\x00<"...)
		b = ownKey(b, p)
	}
	if p := cmd.PipeTo; p != nil {
		b = append(b, "\x00>"...)
		b = ownKey(b, p)
		b = keyBool(b, p.PipeTo != nil)
	}
	if cmd.Stdin != nil && cmd.Stdin.From != nil {
		b = append(b, "\x00s"...)
		b = ownKey(b, cmd.Stdin.From)
	}
	if cmd.CodeFrom != nil && len(b) <= maxMemoKey {
		b = append(b, "\x00c"...)
		b = commandKey(b, cmd.CodeFrom)
	}
	return b
}

// ownKey appends the fields of c itself (not the commands it points to).
func ownKey(b []byte, c *shell.Command) []byte {
	b = keyString(b, c.Name)
	b = keyInt(b, len(c.Argv))
	for _, w := range c.Argv {
		b = keyWord(b, w)
	}
	for _, as := range [][]shell.Assign{c.Assigns, c.Env} {
		b = keyInt(b, len(as))
		for _, x := range as {
			b = keyString(b, x.Name)
			b = keyWord(b, x.Value)
		}
	}
	b = keyInt(b, len(c.Redirects))
	for _, r := range c.Redirects {
		b = keyString(b, r.Op)
		b = keyString(b, r.Fd)
		b = keyWord(b, r.Target)
		b = keyString(b, r.Body)
		b = keyBool(b, r.BodyKnown)
	}
	b = keyInt(b, len(c.Wrappers))
	for _, w := range c.Wrappers {
		b = keyString(b, w)
	}
	b = keyString(b, c.Remote)
	b = keyString(b, c.Origin)
	b = keyInt(b, c.Depth)
	b = keyWord(b, c.Dir)
	b = keyBool(b, c.Privileged)
	b = keyBool(b, c.Background)
	b = keyBool(b, c.ArgsFromInput)
	b = keyBool(b, c.Unbounded)
	b = keyBool(b, c.PipeFrom != nil)
	b = keyBool(b, c.PipeTo != nil)
	b = keyBool(b, c.CodeFrom != nil)
	if in := c.Inline; in != nil {
		b = append(b, 'i')
		b = keyString(b, in.Lang)
		b = keyString(b, in.Code)
		b = keyBool(b, in.Known)
		b = keyString(b, in.Via)
		b = keyBool(b, in.Translated)
	} else {
		b = append(b, '-')
	}
	if in := c.Stdin; in != nil {
		b = append(b, 's')
		b = keyString(b, in.Text)
		b = keyBool(b, in.Known)
		b = keyString(b, in.Via)
		b = keyBool(b, in.From != nil)
		b = keyBool(b, in.From != nil && in.From == c.PipeFrom)
	} else {
		b = append(b, '-')
	}
	return b
}

// A key's numbers are varints, which delimit themselves, and its strings
// a varint length and the bytes: a key is a sequence no two different
// commands share, and costs a few instructions a field (decimal numbers
// cost a division a digit).

func keyString(b []byte, s string) []byte {
	if len(s) < 0x80 { // the varint of a length below 128 is that one byte
		return append(append(b, byte(len(s))), s...)
	}
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func keyInt(b []byte, n int) []byte { return binary.AppendVarint(b, int64(n)) }

func keyBool(b []byte, v bool) []byte {
	if v {
		return append(b, 't')
	}
	return append(b, 'f')
}

// keyWord appends a word: its value, and its four flags as the bits of
// one byte (a word is most of a key: ~800 a script of 10 KB).
func keyWord(b []byte, w shell.Word) []byte {
	b = keyString(b, w.Value)
	return append(b, '0'|bit(w.Known)|bit(w.Quoted)<<1|bit(w.Glob)<<2|bit(w.Walked)<<3)
}

func bit(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// spanMap pairs the spans of two commands with equal keys, place by place.
type spanMap struct {
	from, to []risk.Span
	bad      bool // one span of from stands at two places with different spans in to
}

func (m *spanMap) add(from, to risk.Span) {
	if from.IsZero() {
		if !to.IsZero() {
			m.bad = true
		}
		return
	}
	if i := slices.Index(m.from, from); i >= 0 {
		if m.to[i] != to {
			m.bad = true
		}
		return
	}
	m.from = append(m.from, from)
	m.to = append(m.to, to)
}

// move returns where s is in the other command; false when s is at no
// one place of the first.
func (m *spanMap) move(s risk.Span) (risk.Span, bool) {
	if s.IsZero() {
		return s, true
	}
	if i := slices.Index(m.from, s); i >= 0 {
		return m.to[i], true
	}
	return risk.Span{}, false
}

// pairSpans adds the spans of old and cur, which have equal keys, in the
// order commandKey visits them.
func (m *spanMap) pairSpans(old, cur *shell.Command) {
	m.pairOwn(old, cur)
	n := 0
	for p, q := old.PipeFrom, cur.PipeFrom; p != nil && q != nil && n < pipeWalk; p, q = p.PipeFrom, q.PipeFrom {
		m.pairOwn(p, q)
		n++
	}
	if old.PipeTo != nil && cur.PipeTo != nil {
		m.pairOwn(old.PipeTo, cur.PipeTo)
	}
	if old.Stdin != nil && cur.Stdin != nil && old.Stdin.From != nil && cur.Stdin.From != nil {
		m.pairOwn(old.Stdin.From, cur.Stdin.From)
	}
	if old.CodeFrom != nil && cur.CodeFrom != nil {
		m.pairSpans(old.CodeFrom, cur.CodeFrom)
	}
}

func (m *spanMap) pairOwn(old, cur *shell.Command) {
	m.add(old.Span, cur.Span)
	for i := range old.Argv {
		m.add(old.Argv[i].Span, cur.Argv[i].Span)
	}
	for i := range old.Assigns {
		m.add(old.Assigns[i].Value.Span, cur.Assigns[i].Value.Span)
	}
	for i := range old.Env {
		m.add(old.Env[i].Value.Span, cur.Env[i].Value.Span)
	}
	for i := range old.Redirects {
		m.add(old.Redirects[i].Target.Span, cur.Redirects[i].Target.Span)
		m.add(old.Redirects[i].Span, cur.Redirects[i].Span)
	}
	m.add(old.Dir.Span, cur.Dir.Span)
	if old.Stdin != nil && cur.Stdin != nil {
		m.add(old.Stdin.Span, cur.Stdin.Span)
	}
}

// rebase returns res, the answer for old, as the answer for cur (whose key
// is old's): a copy with every span moved to its place in cur. False when
// a span of res is not at exactly one place of old. m is emptied first and
// its lists reused (one per call, not two arrays for every hit).
func rebase(m *spanMap, refs *[]rules.PathRef, res rules.Result, old, cur *shell.Command) (rules.Result, bool) {
	m.from, m.to, m.bad = m.from[:0], m.to[:0], false
	m.pairSpans(old, cur)
	if m.bad {
		return rules.Result{}, false
	}
	out := cloneResult(res)
	out.Paths = clonePaths(refs, res.Paths)
	ok := true
	move := func(s *risk.Span) {
		if t, found := m.move(*s); found {
			*s = t
		} else {
			ok = false
		}
	}
	for i := range out.Findings {
		move(&out.Findings[i].Span)
	}
	for i := range out.Paths {
		move(&out.Paths[i].Word.Span)
	}
	for i := range out.Code {
		move(&out.Code[i].Span)
	}
	for _, ws := range [][]shell.Word{out.URLs, out.Execs, out.Uploads, out.Mounts, out.Container, out.Endpoints, out.StartFiles, out.Accounted} {
		for i := range ws {
			move(&ws[i].Span)
		}
	}
	if !ok {
		return rules.Result{}, false
	}
	return out, true
}

// cloneResult copies res's lists but Paths, so that neither copy changes
// the other; rebase copies Paths with clonePaths.
// clonePaths copies ps (and its elements' lists) to the end of the
// call's block *refs, and returns the copy with its capacity clipped: an
// append to it makes a list of its own, so no hit's copy reaches into
// another's. A block that grows leaves the copies made before in the
// array they were made in, which they keep alive; the memo's block is
// cleared when the call ends (KeepScratch), when nothing of the call is
// used any more.
func clonePaths(refs *[]rules.PathRef, ps []rules.PathRef) []rules.PathRef {
	if ps == nil {
		return nil
	}
	start := len(*refs)
	*refs = append(*refs, ps...)
	out := (*refs)[start:len(*refs):len(*refs)]
	for i := range out {
		n := &out[i].Names
		n.Only, n.Skip = slices.Clone(n.Only), slices.Clone(n.Skip)
	}
	return out
}

func cloneResult(res rules.Result) rules.Result {
	res.Findings = slices.Clone(res.Findings)
	res.URLs = slices.Clone(res.URLs)
	res.Code = slices.Clone(res.Code)
	res.Execs = slices.Clone(res.Execs)
	res.Uploads = slices.Clone(res.Uploads)
	res.Mounts = slices.Clone(res.Mounts)
	res.Container = slices.Clone(res.Container)
	res.Endpoints = slices.Clone(res.Endpoints)
	res.Accounted = slices.Clone(res.Accounted)
	res.StartFiles = slices.Clone(res.StartFiles)
	return res
}
