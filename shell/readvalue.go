package shell

import "strings"

// read NAME… <<< TEXT (or a here-document) assigns the first line of TEXT,
// split at blanks, to the names: a variable rebound this way and then
// deleted (d=build; read -r d <<< "$HOME"; rm -rf "$d") is known to be the
// home directory. Only the plain form is followed: read with no option but
// -r, the default IFS, text known before the command runs; any other
// leaves the names unknown (forgetArgs).

// readValues are the values read NAME… assigns from its known input, or
// false.
func readValues(c *Command, st *state) (names, vals []string, ok bool) {
	if c.Stdin == nil || !c.Stdin.Known || c.Stdin.Via != "heredoc" && c.Stdin.Via != "herestring" {
		return nil, nil, false
	}
	if _, set := st.vars["IFS"]; set {
		return nil, nil, false
	}
	for _, a := range c.Assigns {
		if a.Name == "IFS" {
			return nil, nil, false
		}
	}
	raw := false
	for _, a := range c.Args() {
		switch {
		case !a.Known:
			return nil, nil, false
		case a.Value == "-r":
			raw = true
		case strings.HasPrefix(a.Value, "-"):
			return nil, nil, false
		case isName(a.Value):
			names = append(names, a.Value)
		default:
			return nil, nil, false
		}
	}
	if len(names) == 0 {
		names = []string{"REPLY"}
	}
	line, _, _ := strings.Cut(c.Stdin.Text, "\n")
	if !raw && strings.Contains(line, `\`) {
		return nil, nil, false
	}
	const blanks = " \t"
	if names[0] == "REPLY" && len(names) == 1 {
		return names, []string{line}, true // REPLY keeps the line as it was
	}
	rest := strings.Trim(line, blanks)
	for i := range names {
		if i == len(names)-1 {
			vals = append(vals, rest)
			break
		}
		var field, after string
		if j := strings.IndexAny(rest, blanks); j >= 0 {
			field, after = rest[:j], rest[j+1:]
		} else {
			field, after = rest, ""
		}
		vals = append(vals, field)
		rest = strings.TrimLeft(after, blanks)
	}
	return names, vals, true
}

// mapfile [-t] [NAME] <<< TEXT (readarray too) assigns the lines of TEXT to
// the elements of NAME (MAPFILE by default), each with its newline unless
// -t: mapfile -t d <<< "$HOME"; rm -rf "${d[0]}" deletes the home. Any
// other option, or text not known before the command runs, leaves the
// array unknown (forgetArgs).
func mapfileValues(c *Command) (name string, lines []string, ok bool) {
	if c.Stdin == nil || !c.Stdin.Known || c.Stdin.Via != "heredoc" && c.Stdin.Via != "herestring" {
		return "", nil, false
	}
	trim := false
	for _, a := range c.Args() {
		switch {
		case !a.Known:
			return "", nil, false
		case a.Value == "-t":
			trim = true
		case strings.HasPrefix(a.Value, "-") || name != "" || !isName(a.Value):
			return "", nil, false
		default:
			name = a.Value
		}
	}
	if name == "" {
		name = "MAPFILE"
	}
	for _, l := range strings.SplitAfter(c.Stdin.Text, "\n") {
		if l == "" {
			continue
		}
		if trim {
			l = strings.TrimSuffix(l, "\n")
		}
		lines = append(lines, l)
	}
	return name, lines, true
}
