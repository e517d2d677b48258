package shell

import (
	"slices"
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
// start directory (rewrittenSet). read -u N reads descriptor N instead:
// a listing when the innermost redirect of N around it is a <(…) of one
// (read -u 3 f 3< <(find …), while read -u 3 f; … done 3< <(find …)). ok
// is false for any other input, and for read -a (an array).
func readSet(c *Command, st *state) (names []string, set Word, ok bool) {
	names, raw, partial, fd, ok := readArgs(c.Args())
	if !ok {
		return nil, Word{}, false
	}
	feeder := c.inputFeed(fd)
	if feeder == nil {
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
// backslashes, whether -n or -N reads part of a line, the descriptor -u
// reads ("" for stdin). ok is false for an argument not known, an option
// not known here, a -u that is not a number and -a (an array).
func readArgs(args []Word) (names []string, raw, partial bool, fd string, ok bool) {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if !args[i].Known {
			return nil, false, false, "", false
		}
		if len(v) < 2 || v[0] != '-' || len(names) > 0 {
			if !isName(v) {
				return nil, false, false, "", false
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
			case 'd', 'p', 't', 'n', 'N', 'i', 'u':
				partial = partial || v[j] == 'n' || v[j] == 'N'
				val := v[j+1:]
				if j == len(v)-1 {
					i++ // the value is the next word (read -d '' f)
					if i >= len(args) || !args[i].Known {
						return nil, false, false, "", false
					}
					val = args[i].Value
				}
				if v[j] == 'u' {
					if fd = val; !isDigits(fd) {
						return nil, false, false, "", false
					}
				}
				break cluster
			default: // -a ARRAY, or unknown
				return nil, false, false, "", false
			}
		}
	}
	return names, raw, partial, fd, true
}

// inputFeed returns the listing command c reads on descriptor fd ("" or
// "0": stdin, from a pipe, a <(…) or a here-string of one $(…); another:
// the <(…) or here-string its innermost redirect of fd is), nil when
// that is not one command's output.
func (c *Command) inputFeed(fd string) *Command {
	if fd == "" || fd == "0" {
		if c.PipeFrom != nil {
			return c.PipeFrom
		}
		if c.Stdin != nil {
			return c.Stdin.procsubst
		}
		return nil
	}
	for _, f := range c.fdFeeds {
		if f.fd == fd {
			return f.feed
		}
	}
	return nil
}

// mapfileSet is the set of paths mapfile (readarray) fills its array with
// when its input is a listing (inputFeed: a pipe, a <(…), -u N), each
// element one line: the listing's set when the lines are whole paths (-t,
// and no -d but an empty one), otherwise the whole walk of the start directory
// (rewrittenSet). The array holds the set as one value; "${a[@]}" and
// ${a[0]} are the walk (walkedVar). ok is false for any other input, an
// argument not known, -C (a callback that runs code) or an option not
// known here.
func mapfileSet(c *Command) (name string, set Word, ok bool) {
	args := c.Args()
	trim, whole, fd := false, true, ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			return "", Word{}, false
		}
		v := a.Value
		if len(v) < 2 || v[0] != '-' || name != "" {
			if name != "" || !isName(v) {
				return "", Word{}, false
			}
			name = v
			continue
		}
		if len(v) != 2 {
			return "", Word{}, false // -tu3, --: not taken apart here
		}
		switch v[1] {
		case 't':
			trim = true
		case 'd', 'n', 'O', 's', 'u':
			if i++; i >= len(args) || !args[i].Known {
				return "", Word{}, false
			}
			switch v[1] {
			case 'd':
				whole = args[i].Value == ""
			case 'u':
				if fd = args[i].Value; !isDigits(fd) {
					return "", Word{}, false
				}
			}
		default: // -C, -c: a callback; anything else
			return "", Word{}, false
		}
	}
	feeder := c.inputFeed(fd)
	if feeder == nil {
		return "", Word{}, false
	}
	set, ok = listedEntries(feeder)
	if !ok || !set.Walked {
		return "", Word{}, false
	}
	if !trim || !whole {
		if set, ok = rewrittenSet(set); !ok {
			return "", Word{}, false
		}
	}
	if name == "" {
		name = "MAPFILE"
	}
	return name, set, true
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
		feed = w.redirectFeed(r, feed)
	}
	return feed
}

// redirectFeed returns what a redirect of one descriptor leaves it reading:
// the listing of a <(…) or a here-string of one $(…) (procsubstLast,
// cmdsubstLast), nil for any other redirect that replaces it, and feed,
// what it read before, for one that does not (> file on stdin's line).
func (w *walker) redirectFeed(r *syntax.Redirect, feed *Command) *Command {
	switch r.Op {
	case syntax.RdrIn:
		feed = nil
		if r.Word != nil && len(r.Word.Parts) == 1 {
			if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
				feed = w.procsubstLast[ps]
			} else {
				feed = w.listingFile(r.Word) // find … > l; … < l
			}
		}
	case syntax.WordHdoc:
		feed = nil
		if cs := onlySubst(r.Word); cs != nil {
			feed = w.cmdsubstLast[cs]
		}
	case syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc:
		feed = nil
	default:
		if r.N != nil { // 3> out, 3>&-: not the listing any more
			feed = nil
		}
	}
	return feed
}

// fdFeed is a descriptor other than stdin and the listing a redirect
// around the command left it reading (nil: not one).
type fdFeed struct {
	fd   string
	feed *Command
}

// fdFeeds returns the descriptor feeds inside a statement with redirs:
// outer's, with each numbered descriptor but 0 the statement redirects
// replaced by what its redirects leave it reading. outer is returned
// as it is when nothing changes.
func (w *walker) fdFeeds(redirs []*syntax.Redirect, outer []fdFeed) []fdFeed {
	feeds := outer
	for _, r := range redirs {
		if r.N == nil || r.N.Value == "0" || !isDigits(r.N.Value) {
			continue
		}
		i := slices.IndexFunc(feeds, func(f fdFeed) bool { return f.fd == r.N.Value })
		var before *Command
		if i >= 0 {
			before = feeds[i].feed
		}
		feed := w.redirectFeed(r, before)
		if feed == before {
			continue
		}
		feeds = slices.Clone(feeds) // outer's is shared with the statements around
		if i >= 0 {
			feeds[i].feed = feed
		} else {
			feeds = append(feeds, fdFeed{fd: r.N.Value, feed: feed})
		}
	}
	return feeds
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
