package tree

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of value a Node holds.
type Kind uint8

// The node kinds. Time holds a date, time or date-time literal as its
// original text in Node.Str (TOML date-times and YAML timestamps).
const (
	Null Kind = iota
	Bool
	Int
	Float
	String
	Time
	List
	Map
)

var kindNames = [...]string{"null", "bool", "integer", "float", "string", "datetime", "list", "table"}

// String returns the user-facing name of the kind ("table" for Map, since
// the same word is used in error messages for every format).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Node is one value of a parsed document with the position where it starts.
// Line and Col are 1-based; Col counts characters, not bytes. A Node is
// never modified after Parse returns it.
type Node struct {
	Kind    Kind    // what the node holds; the zero value is Null
	Line    int     // 1-based line where the value starts; 0 for a node built in code
	Col     int     // 1-based column in characters; 0 for a node built in code
	Entries []Entry // Map: key/value pairs in document order, keys unique
	Items   []*Node // List: the elements in order
	Str     string  // String and Time: the text
	Int     int64   // Int: the value
	Float   float64 // Float: the value
	Bool    bool    // Bool: the value
}

// Entry is one key of a Map node with the position of the key itself.
type Entry struct {
	Key   string // the key, unquoted
	Line  int    // 1-based line of the key
	Col   int    // 1-based column of the key, in characters
	Value *Node  // the value; never nil in a parsed document
}

// Lookup returns the value stored under key in a Map node, or nil when the
// node is not a Map or has no such key.
func (n *Node) Lookup(key string) *Node {
	if n == nil || n.Kind != Map {
		return nil
	}
	for i := range n.Entries {
		if n.Entries[i].Key == key {
			return n.Entries[i].Value
		}
	}
	return nil
}

// Value returns the node as plain Go values: map[string]any, []any,
// string, int64, float64, bool or nil. Time nodes become their text.
func (n *Node) Value() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Bool:
		return n.Bool
	case Int:
		return n.Int
	case Float:
		return n.Float
	case String, Time:
		return n.Str
	case List:
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = it.Value()
		}
		return out
	case Map:
		out := make(map[string]any, len(n.Entries))
		for _, e := range n.Entries {
			out[e.Key] = e.Value.Value()
		}
		return out
	}
	return nil
}

// lineIndex turns byte offsets into 1-based line and character columns.
type lineIndex struct {
	data   []byte
	starts []int // byte offset of the start of each line
}

func newLineIndex(data []byte) *lineIndex {
	starts := make([]int, 1, 64)
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{data: data, starts: starts}
}

// pos returns the line and column of a byte offset, clamped to the data.
func (x *lineIndex) pos(off int) (line, col int) {
	off = min(max(off, 0), len(x.data))
	i := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	return i + 1, utf8.RuneCount(x.data[x.starts[i]:off]) + 1
}

// At returns the node at a field path in the form Error.Path and Meta use
// ("paths.denied[2]", `aliases."*.pem"`), or nil when the document has no
// such node or the path is malformed. The empty path is n itself.
func (n *Node) At(path string) *Node {
	for rest := path; rest != "" && n != nil; {
		var ok bool
		switch rest[0] {
		case '[':
			n, rest, ok = n.atIndex(rest)
		case '.':
			if rest == path {
				return nil // a path does not start with a dot
			}
			n, rest, ok = n.atKey(rest[1:])
		default:
			if rest != path {
				return nil // keys after the first follow a dot
			}
			n, rest, ok = n.atKey(rest)
		}
		if !ok {
			return nil
		}
	}
	return n
}

// atIndex steps into "[i]" at the start of rest.
func (n *Node) atIndex(rest string) (*Node, string, bool) {
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return nil, "", false
	}
	i, err := strconv.Atoi(rest[1:end])
	if err != nil || n.Kind != List || i < 0 || i >= len(n.Items) {
		return nil, "", false
	}
	return n.Items[i], rest[end+1:], true
}

// atKey steps into the bare or quoted key at the start of rest.
func (n *Node) atKey(rest string) (*Node, string, bool) {
	if strings.HasPrefix(rest, `"`) {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return nil, "", false
		}
		key, _ := strconv.Unquote(q)
		return n.Lookup(key), rest[len(q):], true
	}
	end := strings.IndexAny(rest, ".[")
	if end < 0 {
		end = len(rest)
	}
	if end == 0 {
		return nil, "", false
	}
	return n.Lookup(rest[:end]), rest[end:], true
}
