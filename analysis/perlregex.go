package analysis

import (
	"strings"

	"github.com/toolguard/toolguard/shell"
)

// Perl's quote-like regex operators — s/PATTERN/REPLACEMENT/, tr/A/B/,
// y/A/B/, m/PATTERN/ and qr/PATTERN/, with any delimiter (s#…#…#g,
// s{…}{…}) — hold a pattern and a replacement text, not paths or string
// literals of the program: perl -pi -e 's#<link href="…"\s*/>#…#g' FILE
// rewrites FILE and touches nothing named inside. blankPerlRegex blanks
// their bodies (spaces, the length kept) before the paths and literals of
// perl code are read.

// blankPerlRegex returns code with the bodies of its regex operators
// replaced by spaces.
func blankPerlRegex(code string) string {
	if !strings.ContainsAny(code, "smtyq") {
		return code
	}
	b := []byte(code)
	for i := 0; i < len(b); i++ {
		if i > 0 && !strings.ContainsRune(" \t\n;({=~!,&|", rune(b[i-1])) {
			continue
		}
		j, parts := regexOp(b, i)
		if parts == 0 || j >= len(b) {
			continue
		}
		if d := b[j]; isWordByte(d) || strings.ContainsRune(" \t\n=,;)", rune(d)) {
			continue // a name (sort, my, y2), an assignment or an argument, not an operator
		}
		if end, ok := blankBodies(b, i, j, parts); ok {
			i = end
		}
	}
	return string(b)
}

// regexOp returns the index just past a regex operator's name at i and how
// many bodies it takes (0: none there).
func regexOp(b []byte, i int) (int, int) {
	n := opLen(b, i)
	switch {
	case n == 0:
		return i, 0
	case b[i] == 's' || b[i] == 'y' || b[i] == 't':
		return i + n, 2
	}
	return i + n, 1
}

// opLen is the length of the regex operator name at i, or 0.
func opLen(b []byte, i int) int {
	rest := b[i:]
	switch {
	case len(rest) > 2 && (rest[0] == 't' && rest[1] == 'r' || rest[0] == 'q' && rest[1] == 'r'):
		return 2
	case len(rest) > 1 && (rest[0] == 's' || rest[0] == 'y' || rest[0] == 'm'):
		return 1
	}
	return 0
}

// blankBodies blanks parts bodies starting at the delimiter b[j] and
// returns the index of the last delimiter; ok is false when a body does
// not end. Bodies that hold code are left as they are: a replacement
// under the e flag (s/…/CODE/e) and a pattern with a code block ((?{…}),
// (??{…})).
func blankBodies(b []byte, op, j, parts int) (int, bool) {
	var bodies [2][2]int
	end, ok := findBodies(b, j, parts, &bodies)
	if !ok {
		return j, false
	}
	flags := end + 1
	for flags < len(b) && (b[flags] >= 'a' && b[flags] <= 'z' || b[flags] >= 'A' && b[flags] <= 'Z') {
		flags++
	}
	evals := strings.ContainsRune(string(b[end+1:flags]), 'e')
	keep := [2]bool{}
	for p := range parts {
		body := string(b[bodies[p][0]:bodies[p][1]])
		keep[p] = p == 1 && evals || strings.Contains(body, "(?{") || strings.Contains(body, "(??{")
	}
	if !keep[0] && !keep[1] {
		blank(b, op, flags) // the whole operator: its delimiters are no paths either
		return flags - 1, true
	}
	for p := range parts {
		if !keep[p] {
			blank(b, bodies[p][0], bodies[p][1])
		}
	}
	return end, true
}

// blank turns b[from:to] into spaces, newlines kept.
func blank(b []byte, from, to int) {
	for x := from; x < to; x++ {
		if b[x] != '\n' {
			b[x] = ' '
		}
	}
}

// findBodies finds parts bodies starting at the delimiter b[j], into
// bodies (start and end of each), and returns the index of the last
// delimiter.
func findBodies(b []byte, j, parts int, bodies *[2][2]int) (int, bool) {
	open := b[j]
	close := open
	switch open {
	case '{':
		close = '}'
	case '(':
		close = ')'
	case '[':
		close = ']'
	case '<':
		close = '>'
	}
	k := j + 1
	for p := 0; p < parts; p++ {
		start := k
		for k < len(b) && b[k] != close {
			if b[k] == '\\' {
				k++
			}
			k++
		}
		if k >= len(b) {
			return j, false
		}
		bodies[p] = [2]int{start, k}
		if p+1 < parts && open != close { // s{…}{…}: the second body has its own brackets
			k++
			for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n') {
				k++
			}
			if k >= len(b) || b[k] != open {
				return j, false
			}
		}
		k++
	}
	return k - 1, true
}

// pathText is the text of code read for the paths and literals it names:
// perl's with its regex bodies blanked.
func pathText(cmd *shell.Command, code string) string {
	if cmd != nil && cmd.Name == "perl" {
		return blankPerlRegex(code)
	}
	return code
}
