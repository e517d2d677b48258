package tree

import (
	"sort"
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
