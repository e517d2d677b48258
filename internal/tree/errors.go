package tree

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Error is one problem in a document: where it is, which field it concerns,
// what is wrong and, when there is a closed set of choices, what is valid.
type Error struct {
	File  string   // the file name given to Parse or Decode
	Line  int      // 1-based; 0 when the position is unknown
	Col   int      // 1-based, in characters; 0 when unknown
	Path  string   // the field path, such as "paths.denied[2]"; empty for syntax errors
	Msg   string   // what is wrong, including a "did you mean" suggestion when there is one
	Valid []string // the valid keys or values, when there is a closed set
}

// Error formats the problem as "file:line:col: path: msg (valid: a, b, c)",
// leaving out the parts that are empty.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Col))
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	if len(e.Valid) > 0 {
		b.WriteString(" (valid: ")
		b.WriteString(strings.Join(e.Valid, ", "))
		b.WriteByte(')')
	}
	return b.String()
}

// Errors is every problem found in one or more documents, sorted by file,
// line and column.
type Errors []*Error

// Error returns one problem per line.
func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Sort orders the errors by file, line, column, then path and message.
func (es Errors) Sort() {
	slices.SortStableFunc(es, func(a, b *Error) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Msg, b.Msg),
		)
	})
}

// errOrNil returns es as an error, or nil when it is empty, so that a nil
// Errors never becomes a non-nil error interface.
func (es Errors) errOrNil() error {
	if len(es) == 0 {
		return nil
	}
	es.Sort()
	return es
}

// Suggest returns the candidate closest to word, or "" when none is close
// enough to be a likely typo: a case-insensitive match, a small edit
// distance, or a shared stem ("deny" → "denied").
func Suggest(word string, candidates []string) string {
	best, bestDist := "", len(word)+len(candidates)+64
	limit := len(word)/3 + 2
	for _, c := range candidates {
		if strings.EqualFold(c, word) {
			return c
		}
		d := editDistance(word, c, max(len(word), len(c))+1)
		if (d < limit || sharesStem(word, c)) && d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// sharesStem reports whether a and b start with the same three or more
// bytes and differ only after the shorter one's second-to-last byte.
func sharesStem(a, b string) bool {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 3 && n >= min(len(a), len(b))-1
}

// editDistance is the Levenshtein distance between a and b, in bytes. It
// stops early and returns limit when the distance is at least limit.
func editDistance(a, b string, limit int) int {
	if abs(len(a)-len(b)) >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// didYouMean returns "; did you mean "x"?" for a close candidate, else "".
func didYouMean(word string, candidates []string) string {
	if s := Suggest(word, candidates); s != "" {
		return "; did you mean " + strconv.Quote(s) + "?"
	}
	return ""
}
