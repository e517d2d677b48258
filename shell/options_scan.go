package shell

import "strings"

// optSpec describes a command's options in getopt style: Short lists the
// single-letter options, a letter followed by ':' takes a value, one
// followed by '?' takes an optional attached value; Long lists
// long options, a trailing '=' means it takes a value.
type optSpec struct {
	Short string
	Long  []string
	// Numeric accepts -N style options (nice -10, head -5).
	Numeric bool
	// Files are the options whose value is a file the wrapper itself reads
	// ("<") or writes (">"): strace -o, time -o, xargs -a. The wrapped
	// command gets them as redirects, so they are judged like any file the
	// command line touches. Nil means none.
	Files map[string]string
}

// opt is one option found by scan.
type opt struct {
	Name  string // "u" or "user"
	Value Word
	// Valued is true when a value was given, attached or as the next word.
	Valued bool
}

// scanResult is the outcome of reading the options in front of operands.
type scanResult struct {
	opts []opt
	rest []Word // the operands after the options (and after "--")
	bad  string // the first option that is not in the spec, or not static
}

// scan reads options until the first operand or "--".
func (o *optSpec) scan(args []Word) scanResult {
	var res scanResult
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.Known && strings.HasPrefix(a.Value, "-"):
			res.bad = a.Value
			return res
		case a.Value == "--":
			res.rest = args[i+1:]
			return res
		case !strings.HasPrefix(a.Value, "-") || a.Value == "-":
			res.rest = args[i:]
			return res
		}
		used, bad := o.one(args, i, &res)
		if bad != "" {
			res.bad = bad
			return res
		}
		i += used
	}
	return res
}

// one reads the option at args[i]; it returns how many extra words it
// consumed and the option's text if it is unknown.
func (o *optSpec) one(args []Word, i int, res *scanResult) (int, string) {
	a := args[i].Value
	if strings.HasPrefix(a, "--") {
		return o.long(args, i, res)
	}
	if o.Numeric && isDigits(a[1:]) {
		res.opts = append(res.opts, opt{Name: a[1:]})
		return 0, ""
	}
	for j := 1; j < len(a); j++ {
		k := strings.IndexByte(o.Short, a[j])
		if k < 0 || a[j] == ':' || a[j] == '?' {
			return 0, a
		}
		if k+1 < len(o.Short) && o.Short[k+1] == '?' {
			// optional value, attached only (xargs -i{}, -l1)
			val := args[i]
			val.Value = a[j+1:]
			res.opts = append(res.opts, opt{Name: a[j : j+1], Value: val, Valued: true})
			return 0, ""
		}
		if k+1 >= len(o.Short) || o.Short[k+1] != ':' {
			res.opts = append(res.opts, opt{Name: a[j : j+1]})
			continue
		}
		if j+1 < len(a) {
			val := args[i]
			val.Value = a[j+1:]
			res.opts = append(res.opts, opt{Name: a[j : j+1], Value: val, Valued: true})
			return 0, ""
		}
		if i+1 >= len(args) {
			return 0, a
		}
		res.opts = append(res.opts, opt{Name: a[j : j+1], Value: args[i+1], Valued: true})
		return 1, ""
	}
	return 0, ""
}

func (o *optSpec) long(args []Word, i int, res *scanResult) (int, string) {
	name, val, hasVal := strings.Cut(args[i].Value[2:], "=")
	for _, l := range o.Long {
		takes := strings.HasSuffix(l, "=")
		if strings.TrimSuffix(l, "=") != name {
			continue
		}
		switch {
		case hasVal:
			v := args[i]
			v.Value = val
			res.opts = append(res.opts, opt{Name: name, Value: v, Valued: true})
			return 0, ""
		case !takes:
			res.opts = append(res.opts, opt{Name: name})
			return 0, ""
		case i+1 < len(args):
			res.opts = append(res.opts, opt{Name: name, Value: args[i+1], Valued: true})
			return 1, ""
		}
		return 0, args[i].Value
	}
	return 0, args[i].Value
}

// has reports whether an option was given (by any of its names).
func (r *scanResult) has(names ...string) bool {
	_, ok := r.get(names...)
	return ok
}

// get returns the last value of an option.
func (r *scanResult) get(names ...string) (Word, bool) {
	var w Word
	found := false
	for _, o := range r.opts {
		for _, n := range names {
			if o.Name == n {
				w, found = o.Value, true
			}
		}
	}
	return w, found
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
