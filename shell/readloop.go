package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A listing read line by line: find ~ -name hosts.yml | while read f; do
// cat "$f"; done, or the same loop fed by done < <(find …). Each line read
// is one of the listing's paths, so read binds its variable to the
// listing's set (value's walked), as f=$(find …) does, and cat "$f" is
// judged as the walk.

// readSet is the set of paths read binds each of its names to when its
// input is a listing (listedEntries: find, fd, locate, ls, maybe through
// line filters), read from a pipe or a <(…) redirect. A name is the set
// as it is when read takes whole lines into it unchanged: one name, no
// -n or -N, and what IFS and backslashes would strip cannot be in a name
// the set allows (-r, or no backslash, ? or [ in its name glob; IFS=, or
// no blank in it). Otherwise (several names get fields, -n a prefix) the
// value is made from a path of the walk, not known: the whole walk of the
// start directory (rewrittenSet). ok is false for any other input, and
// for read -u (another descriptor) or -a (an array).
func readSet(c *Command, st *state) (names []string, set Word, ok bool) {
	feeder := c.PipeFrom
	if feeder == nil && c.Stdin != nil {
		feeder = c.Stdin.procsubst
	}
	if feeder == nil {
		return nil, Word{}, false
	}
	names, raw, partial, ok := readArgs(c.Args())
	if !ok {
		return nil, Word{}, false
	}
	set, ok = listedEntries(feeder)
	if !ok || !set.Walked {
		return nil, Word{}, false
	}
	name := set.Value[strings.LastIndexByte(set.Value, '/')+1:]
	whole := len(names) == 1 && !partial &&
		(raw || !strings.ContainsAny(name, `\?[`)) &&
		(ifsEmpty(c, st) || !strings.ContainsAny(name, " \t\n?[") && !strings.ContainsAny(set.Value[:1], " \t\n"))
	if len(names) == 0 {
		names, whole = []string{"REPLY"}, !partial // REPLY keeps the line as it was read
		whole = whole && (raw || !strings.ContainsAny(name, `\?[`))
	}
	if !whole {
		set, ok = rewrittenSet(set)
	}
	return names, set, ok
}

// readArgs parses read's arguments: the names it assigns, whether -r keeps
// backslashes, whether -n or -N reads part of a line. ok is false for an
// argument not known, an option not known here, -u (another descriptor)
// and -a (an array).
func readArgs(args []Word) (names []string, raw, partial, ok bool) {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Known {
			return nil, false, false, false
		}
		if len(v) < 2 || v[0] != '-' || len(names) > 0 {
			if !isName(v) {
				return nil, false, false, false
			}
			names = append(names, v)
			continue
		}
		if v == "--" {
			continue
		}
	cluster:
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'r':
				raw = true
			case 'e', 's':
			case 'd', 'p', 't', 'n', 'N', 'i':
				partial = partial || v[j] == 'n' || v[j] == 'N'
				if j == len(v)-1 {
					i++ // the value is the next word (read -d '' f)
				}
				break cluster
			default: // -u FD, -a ARRAY, or unknown
				return nil, false, false, false
			}
		}
	}
	return names, raw, partial, true
}

// ifsEmpty reports whether read splits nothing: IFS= before it, or IFS
// known empty.
func ifsEmpty(c *Command, st *state) bool {
	for _, a := range c.Assigns {
		if a.Name == "IFS" {
			return a.Value.Known && a.Value.Value == ""
		}
	}
	v, ok := st.vars["IFS"]
	return ok && v.known && !v.isList && v.str == ""
}

// bindRead binds the names a read of a listing assigns (readSet) to its
// set; it reports whether it did.
func bindRead(c *Command, st *state) bool {
	names, set, ok := readSet(c, st)
	if !ok {
		return false
	}
	for _, n := range names {
		// not known: the loop's body is judged as the walk and, as
		// without it, for a path not known (never softer than that)
		st.set(n, value{str: set.Value, walked: true})
	}
	return true
}

// stdinFeed returns the listing a statement's last stdin redirect reads
// when it is one <(…) of one pipeline (done < <(find …)), as
// procsubstLast recorded it, or a here-string of one $(…) of one pipeline
// (done <<< "$(find …)": the here-string is the substitution's output, its
// lines the listing's), as cmdsubstLast recorded it; nil otherwise.
func (w *walker) stdinFeed(redirs []*syntax.Redirect) *Command {
	var feed *Command
	for _, r := range redirs {
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.RdrIn:
			feed = nil
			if r.Word != nil && len(r.Word.Parts) == 1 {
				if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
					feed = w.procsubstLast[ps]
				}
			}
		case syntax.WordHdoc:
			feed = nil
			if cs := onlySubst(r.Word); cs != nil {
				feed = w.cmdsubstLast[cs]
			}
		case syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc:
			feed = nil
		}
	}
	return feed
}

// onlySubst returns the $(…) a word is made of alone, quoted or not.
func onlySubst(word *syntax.Word) *syntax.CmdSubst {
	if word == nil || len(word.Parts) != 1 {
		return nil
	}
	switch p := word.Parts[0].(type) {
	case *syntax.CmdSubst:
		return p
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			cs, _ := p.Parts[0].(*syntax.CmdSubst)
			return cs
		}
	}
	return nil
}

// noteProcsubst records the last command of a <(…) of one pipeline, whose
// output the substitution is: stdinFeed finds it.
func (w *walker) noteProcsubst(n *syntax.ProcSubst, before int) {
	if len(n.Stmts) != 1 || len(w.script.Commands) <= before || n.Op != syntax.CmdIn {
		return
	}
	last := w.script.Commands[len(w.script.Commands)-1]
	if last.PipeTo != nil || last.Origin != "procsubst" || last.Background {
		return
	}
	if w.procsubstLast == nil {
		w.procsubstLast = map[*syntax.ProcSubst]*Command{}
	}
	w.procsubstLast[n] = last
}
