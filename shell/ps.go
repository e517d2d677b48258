package shell

import "strings"

// PsListing is what a ps command selects and prints, read from its
// options in all three of procps' syntaxes: UNIX options in clusters with
// their values attached or next (-eo pid=, -e -o pid=, -Cnode, -opid=),
// long options with = or the next word (--format=pid=, --ppid 4242), and
// BSD letters without a dash (ps ax -o pid=, ps h -C node o pid). One
// reader serves every judgement of a ps listing (the numbers xargs reads
// from it, the processes a kill of them reaches), so that spellings of
// the same listing are judged alike.
type PsListing struct {
	// Names are the process names selected with -C, split at commas.
	Names []Word
	// IDs are the process ids selected with -p, -q, --pid, --quick-pid
	// and BSD p, split at commas.
	IDs []Word
	// Parents are the parent ids selected with --ppid, split at commas.
	Parents []Word
	// Many is set when the listing may hold every process or a whole
	// user's, group's, session's or terminal's: -e, -A, -a, -d, -N,
	// --deselect, BSD a, x or g, and -u, -U, -g, -G, -s, -t and their long
	// and BSD forms.
	Many bool
	// Formats are the values of -o, -O, --format and BSD o and O.
	Formats []Word
	// Columns is set when an option adds columns or text of its own (-f,
	// -l, -F, -j, BSD u, e, …): the lines are not only the -o columns.
	Columns bool
	// Unknown is set when an option word is not known before the call or
	// is an option this reader does not know: nothing is certain of the
	// listing. (A value not known is kept in Names, IDs, Parents or
	// Formats, as the word it is.)
	Unknown bool
}

// psValueShort are the UNIX short options of ps that take a value, and
// what the value selects or gives.
var psValueShort = map[byte]string{'C': "names", 'p': "ids", 'q': "ids", 'u': "many", 'U': "many", 'g': "many",
	'G': "many", 's': "many", 't': "many", 'o': "format", 'O': "format", 'k': "sort", 'n': "namelist", 'D': "date"}

// psValueLong are the long options of ps that take a value.
var psValueLong = map[string]string{"--pid": "ids", "--quick-pid": "ids", "--ppid": "parents", "--user": "many",
	"--User": "many", "--group": "many", "--Group": "many", "--sid": "many", "--tty": "many", "--format": "format",
	"--sort": "sort", "--cols": "width", "--columns": "width", "--width": "width", "--lines": "width",
	"--rows": "width", "--context": "columns"}

// psValueBSD are the BSD letters of ps that take the next word.
var psValueBSD = map[byte]string{'p': "ids", 'q': "ids", 'U': "many", 't': "many", 'o': "format", 'O': "format",
	'k': "sort", 'N': "namelist"}

// ReadPs reads the options of a ps command.
func ReadPs(c *Command) PsListing {
	var l PsListing
	args := c.Args()
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Known {
			l.Unknown = true
			continue
		}
		v := w.Value
		var kind, val string
		hasVal := false
		switch {
		case strings.HasPrefix(v, "--"):
			name, inline, eq := strings.Cut(v, "=")
			k, takes := psValueLong[name]
			switch {
			case takes && eq:
				kind, val, hasVal = k, inline, true
			case takes:
				kind = k
			case name == "--no-headers" || name == "--no-heading" || name == "--headers" || name == "--help" ||
				name == "--version" || name == "--info":
			case name == "--deselect":
				l.Many = true
			case name == "--forest" || name == "--cumulative":
				l.Columns = true
			default:
				l.Unknown = true
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			kind, val, hasVal = l.cluster(v[1:], psValueShort, "AadeN", "fFjlcyMZLmTH", "wV")
		default:
			kind, val, hasVal = l.cluster(v, psValueBSD, "axg", "uevjlsfScnm", "hwTr")
		}
		if kind == "" {
			continue
		}
		var vw Word
		switch {
		case hasVal:
			vw = Word{Value: val, Known: true, Span: w.Span}
		case i+1 < len(args):
			i++
			vw = args[i]
		default:
			l.Unknown = true
			continue
		}
		l.value(kind, vw)
	}
	return l
}

// cluster reads a cluster of single-letter options (without its dash):
// letters in many select many processes, letters in columns add output,
// letters in quiet change neither (no header, wide lines, fewer
// processes), a letter in values takes the rest of the cluster, or else
// the next word, as its value. It returns that option's kind and value.
func (l *PsListing) cluster(s string, values map[byte]string, many, columns, quiet string) (kind, val string, hasVal bool) {
	for j := 0; j < len(s); j++ {
		ch := s[j]
		if k, ok := values[ch]; ok {
			if j+1 < len(s) {
				return k, s[j+1:], true
			}
			return k, "", false
		}
		switch {
		case strings.IndexByte(many, ch) >= 0:
			l.Many = true
		case strings.IndexByte(quiet, ch) >= 0:
		case strings.IndexByte(columns, ch) >= 0:
			l.Columns = true
		default:
			l.Unknown = true
		}
	}
	return "", "", false
}

// value records an option's value by what it selects or gives.
// A value not known before the call is kept as it is (ps -p $$): what it
// selects is judged by those who read the listing.
func (l *PsListing) value(kind string, w Word) {
	switch kind {
	case "names":
		l.Names = append(l.Names, splitCommas(w)...)
	case "ids":
		l.IDs = append(l.IDs, splitCommas(w)...)
	case "parents":
		l.Parents = append(l.Parents, splitCommas(w)...)
	case "many":
		l.Many = true
	case "format":
		l.Formats = append(l.Formats, w)
	case "columns":
		l.Columns = true
	}
}

// splitCommas splits a ps list value (node,vite; 4242,77) into words.
func splitCommas(w Word) []Word {
	if !w.Known || !strings.Contains(w.Value, ",") {
		return []Word{w}
	}
	var out []Word
	for _, item := range strings.Split(w.Value, ",") {
		out = append(out, Word{Value: item, Known: true, Span: w.Span})
	}
	return out
}
