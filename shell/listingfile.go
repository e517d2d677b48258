package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A listing passed through a file: find ~ -name hosts.yml > l; xargs cat
// < l. The file holds the lines the listing printed, so a command of the
// same command line that reads it afterwards (xargs on its stdin or -a,
// a read loop or mapfile fed from it) reads the listing, as the same
// command fed by a pipe does. What else may have reached the file (a
// command that writes it through an operand, sort -o l, cp x l) is not
// followed: its readers are judged as fed by the listing and also, as
// without it, by input not known (xargs adds both; read's binding keeps
// the unknown path beside the walk).

// noteListingFile records, after c is walked, what each file c's
// redirects write holds: the lines of a listing c prints (listedEntries:
// find, fd, ls, maybe through line filters) when its stdout alone goes
// to the file with > or >|; nothing known after any other write that
// empties it first (> of another command, 2>, &>); a write that keeps
// what it held (>>, <>) leaves the listing in it, beside text not known.
// A write to a file not known before the command runs may be any of
// them: all are forgotten.
func (w *walker) noteListingFile(c *Command) {
	for i := range c.Redirects {
		r := &c.Redirects[i]
		if !writesTarget(r.Op) {
			continue
		}
		if !r.Target.Known || r.Target.Glob {
			w.listingFiles = nil
			continue
		}
		if feed := listingWriter(c, r); feed != nil {
			if w.listingFiles == nil {
				w.listingFiles = map[string]*Command{}
			}
			w.listingFiles[r.Target.Value] = feed
			continue
		}
		if truncates(r.Op) {
			delete(w.listingFiles, r.Target.Value)
		}
	}
}

// truncates reports whether a redirect operator empties its target first
// (>>, <> keep what it held: a listing in it is still there).
func truncates(op string) bool { return op == ">" || op == ">|" || op == "&>" }

// writesTarget reports whether a redirect operator writes its target
// file.
func writesTarget(op string) bool {
	switch op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	}
	return false
}

// listingWriter is the command whose lines a redirect r of c leaves in its
// file: c without its redirects, when r sends c's stdout alone to the file
// (> or >|, no other redirect of stdout, c not piped on or in the
// background) and c lists paths; nil otherwise.
func listingWriter(c *Command, r *Redirect) *Command {
	if r.Op != ">" && r.Op != ">|" || r.Fd != "" && r.Fd != "1" || c.PipeTo != nil || c.Background {
		return nil
	}
	for i := range c.Redirects {
		o := &c.Redirects[i]
		if o != r && (o.Fd == "" || o.Fd == "1") && strings.HasPrefix(o.Op, ">") || o.Op == "&>" || o.Op == "&>>" ||
			o.Op == ">&" && o.Fd == "2" && o.Target.Value == "1" {
			return nil // stdout also elsewhere, or stderr's lines mixed in
		}
	}
	bare := *c
	bare.Redirects, bare.inFile = nil, true
	if _, ok := listedEntries(&bare); !ok {
		return nil
	}
	return &bare
}

// listingFile returns the listing a file named by word holds (see
// noteListingFile), nil when it holds none. The word must be written as a
// plain path (no quotes, variables or substitutions), ~/ meaning home.
func (w *walker) listingFile(word *syntax.Word) *Command {
	if w.listingFiles == nil || word == nil {
		return nil
	}
	lit := word.Lit()
	if rest, ok := strings.CutPrefix(lit, "~/"); ok && w.opts.Home != "" {
		lit = strings.TrimSuffix(w.opts.Home, "/") + "/" + rest
	}
	if lit == "" {
		return nil
	}
	return w.listingFiles[lit]
}

// listingFileValue is listingFile for a resolved word (xargs -a FILE).
func (w *walker) listingFileValue(v Word) *Command {
	if w.listingFiles == nil || !v.Known || v.Glob {
		return nil
	}
	return w.listingFiles[v.Value]
}
