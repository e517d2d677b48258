package condition

import (
	"strings"
	"unicode/utf8"
)

// signature returns a function's parameter types, how many are required
// and how it is written, or ok false for an unknown function.
func signature(name string) (params []Type, required int, usage string, ok bool) {
	switch name {
	case "len":
		return []Type{0}, 1, "len(string or list)", true
	case "any", "all", "none", "one", "count", "filter":
		return []Type{StringList, Bool}, 2, name + "(list, predicate)", true
	case "hasPrefix", "hasSuffix":
		return []Type{String, String}, 2, name + "(string, string)", true
	case "lower", "upper":
		return []Type{String}, 1, name + "(string)", true
	case "trim":
		return []Type{String, String}, 1, "trim(string) or trim(string, cutset)", true
	case "split":
		return []Type{String, String}, 2, "split(string, separator)", true
	case "join":
		return []Type{StringList, String}, 1, "join(list) or join(list, separator)", true
	}
	return nil, 0, "", false
}

const functionList = "all, any, count, filter, hasPrefix, hasSuffix, join, len, lower, none, one, split, trim, upper"

func (c *compiler) call(n *node) (code, error) {
	params, required, usage, ok := signature(n.name)
	if !ok {
		return code{}, errorAt(c.src, n.pos, "unknown function %q: expected one of %s", n.name, functionList)
	}
	if len(n.args) < required || len(n.args) > len(params) {
		return code{}, errorAt(c.src, n.pos, "expected %s, found %d argument%s", usage, len(n.args), plural(len(n.args)))
	}
	args := make([]code, len(n.args))
	for i, a := range n.args {
		pred := predicateArg(n.name, i)
		if pred {
			c.preds++
			c.maxPreds = max(c.maxPreds, c.preds)
		}
		x, err := c.compile(a)
		if pred {
			c.preds--
		}
		if err != nil {
			return code{}, err
		}
		switch want := params[i]; {
		case want == 0 && (x.typ == String || x.typ == StringList):
		case want == 0:
			return code{}, c.errorf(a, "expected string or []string as the argument of len, found %s", x.typ)
		case pred && x.typ != want:
			return code{}, c.errorf(a, "expected a bool predicate in %s, found %s", usage, x.typ)
		case x.typ != want:
			return code{}, c.errorf(a, "expected %s as argument %d of %s, found %s", want, i+1, usage, x.typ)
		}
		args[i] = x
	}
	k := c.preds // slot of # inside this call's predicate
	switch n.name {
	case "len":
		if x := args[0]; x.typ == String {
			s := x.s
			return code{typ: Int, i: func(st *state) int {
				x := s(st)
				if !st.work(len(x)) {
					return 0
				}
				return utf8.RuneCountInString(x)
			}}, nil
		}
		l := args[0].l
		return code{typ: Int, i: func(st *state) int { return len(l(st)) }}, nil
	case "any", "all", "none", "one", "count", "filter":
		return predicateCall(n.name, k, args[0].l, args[1].b), nil
	case "hasPrefix":
		return code{typ: Bool, b: strPred(args[0].s, args[1].s, strings.HasPrefix)}, nil
	case "hasSuffix":
		return code{typ: Bool, b: strPred(args[0].s, args[1].s, strings.HasSuffix)}, nil
	case "lower":
		return code{typ: String, s: strMap(args[0].s, strings.ToLower)}, nil
	case "upper":
		return code{typ: String, s: strMap(args[0].s, strings.ToUpper)}, nil
	case "trim":
		if len(args) == 1 {
			return code{typ: String, s: strMap(args[0].s, strings.TrimSpace)}, nil
		}
		a, b := args[0].s, args[1].s
		return code{typ: String, s: func(st *state) string {
			x, cut := a(st), b(st)
			if !st.work(len(x) * (1 + len(cut)/64)) {
				return ""
			}
			return strings.Trim(x, cut)
		}}, nil
	case "split":
		a, b := args[0].s, args[1].s
		return code{typ: StringList, l: func(st *state) []string { return st.split(a(st), b(st)) }}, nil
	default: // join
		l := args[0].l
		sep := func(*state) string { return "" }
		if len(args) == 2 {
			sep = args[1].s
		}
		return code{typ: String, s: func(st *state) string {
			list, s := l(st), sep(st)
			if !st.charge(listBytes(list, list) + len(list)*(len(s)/64)) {
				return ""
			}
			return strings.Join(list, s)
		}}, nil
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// predicateCall runs pred over the elements of list with # in slot k.
func predicateCall(name string, k int, list func(*state) []string, pred func(*state) bool) code {
	switch name {
	case "any", "all", "none":
		// The loop stops when pred returns stop, with the result stopped;
		// otherwise the result is !stopped.
		stop, stopped := name != "all", name == "any"
		return code{typ: Bool, b: func(st *state) bool {
			for _, e := range list(st) {
				if !st.charge(1) {
					return false
				}
				st.elems[k] = e
				if pred(st) == stop {
					return stopped
				}
			}
			return !stopped
		}}
	case "one", "count":
		limit := -1
		if name == "one" {
			limit = 2
		}
		n := func(st *state) int {
			n := 0
			for _, e := range list(st) {
				if !st.charge(1) {
					return 0
				}
				st.elems[k] = e
				if pred(st) {
					if n++; n == limit {
						break
					}
				}
			}
			return n
		}
		if name == "one" {
			return code{typ: Bool, b: func(st *state) bool { return n(st) == 1 }}
		}
		return code{typ: Int, i: n}
	}
	return code{typ: StringList, l: func(st *state) []string {
		var out []string
		for _, e := range list(st) {
			if !st.charge(1) {
				return nil
			}
			st.elems[k] = e
			if pred(st) {
				out = append(out, e)
			}
		}
		return out
	}}
}
