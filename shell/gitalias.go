package shell

import (
	"slices"
	"strings"
)

// gitAlias judges git -c alias.NAME=VALUE … NAME ARGS… as git runs it:
// an alias that is not a shell command (no leading "!") is replaced by its
// words, so the call is git … VALUE ARGS… with git's other options kept
// and the alias definitions dropped. A shell alias (!cmd), an alias whose
// name or value is not known, and a command whose sub-command is no alias
// of the command line are the command as written (its -c values are
// judged as git settings).
func (w *walker) gitAlias(c *Command, st *state, cx *ctx) {
	keep, at, value, ok := gitAliasCall(c.Argv)
	sub := ""
	if ok {
		sub = strings.ToLower(c.Argv[at].Value)
	}
	if !ok || w.active["git alias "+sub] {
		w.emit(c, cx)
		return
	}
	text := quoteWords(keep).Value + " " + value
	if rest := c.Argv[at+1:]; len(rest) > 0 {
		text += " " + quoteWords(rest).Value
	}
	w.markCalled("")
	w.active["git alias "+sub] = true
	w.nested(c, Word{Value: text, Known: true, Span: c.Span}, nest{origin: "alias", state: st}, cx)
	delete(w.active, "git alias "+sub)
}

// gitAliasCall reads git's words: the words before the sub-command without
// the -c alias definitions (keep, starting with the program's word), the
// sub-command's index, and the value of the alias that names it; ok is false when
// the sub-command is no alias given by -c, the alias runs a shell command,
// or a word before it is not known.
func gitAliasCall(argv []Word) (keep []Word, at int, value string, ok bool) {
	if !slices.ContainsFunc(argv, func(a Word) bool {
		return len(a.Value) > 6 && strings.EqualFold(a.Value[:6], "alias.")
	}) {
		return nil, 0, "", false // no alias given: most git commands stop here
	}
	aliases := map[string]string{}
	var defs [][2]Word // the alias definitions, as -c and its value
	keep = []Word{argv[0]}
	i := 1
	for ; i < len(argv); i++ {
		a := argv[i]
		if !a.Known {
			return nil, 0, "", false
		}
		if !strings.HasPrefix(a.Value, "-") {
			break
		}
		if a.Value == "-c" && i+1 < len(argv) {
			if !argv[i+1].Known {
				return nil, 0, "", false
			}
			k, v, _ := strings.Cut(argv[i+1].Value, "=")
			if name, isAlias := strings.CutPrefix(strings.ToLower(k), "alias."); isAlias {
				aliases[name] = v
				defs = append(defs, [2]Word{a, argv[i+1]})
				i++
				continue
			}
			keep = append(keep, a, argv[i+1])
			i++
			continue
		}
		keep = append(keep, a)
		if gitOptionTakesValue(a.Value) && i+1 < len(argv) {
			keep = append(keep, argv[i+1])
			i++
		}
	}
	if i >= len(argv) || !argv[i].Known {
		return nil, 0, "", false
	}
	value, found := aliases[strings.ToLower(argv[i].Value)]
	value = strings.TrimSpace(value)
	if !found || value == "" || strings.HasPrefix(value, "!") {
		return nil, 0, "", false
	}
	if first, _, _ := strings.Cut(value, " "); aliases[strings.ToLower(first)] != "" {
		// an alias of an alias: git expands it again, so the
		// definitions stay (the one just used is marked active)
		for _, d := range defs {
			keep = append(keep, d[0], d[1])
		}
	}
	return keep, i, value, true
}

// gitOptionTakesValue lists git's own options that take the next word.
func gitOptionTakesValue(v string) bool {
	switch v {
	case "-C", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix":
		return true
	}
	return false
}
