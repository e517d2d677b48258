package tree

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2/unstable"
)

// tableState records how a TOML table came to exist, which decides whether
// a later header or dotted key may add to it.
type tableState uint8

const (
	stImplicit tableState = iota // created as the parent of a [header]
	stHeader                     // defined by its own [header]
	stDotted                     // created by a dotted key
	stInline                     // an inline table: closed
	stArray                      // a list created by [[header]]
)

type tomlBuilder struct {
	file  string
	data  []byte
	idx   *lineIndex
	keys  keyIndex
	state map[*Node]tableState
	slab  []Node // nodes are allocated in chunks
	root  *Node
	cur   *Node
	where string // the dotted path of cur, for messages
	errs  Errors
}

type keyPart struct {
	name      string
	line, col int
	end       int // byte offset after the key part
}

func parseTOML(file string, data []byte) (*Node, error) {
	idx := newLineIndex(data)
	b := &tomlBuilder{file: file, data: data, idx: idx, keys: make(keyIndex, len(idx.starts)), state: map[*Node]tableState{}}
	b.root = &Node{Kind: Map, Line: 1, Col: 1}
	b.cur = b.root
	var p unstable.Parser
	p.Reset(data)
	for p.NextExpression() {
		b.expression(p.Expression())
	}
	if err := p.Error(); err != nil {
		b.parserError(err)
	}
	if len(b.errs) > 0 {
		return nil, b.errs.errOrNil()
	}
	return b.root, nil
}

// node allocates a node from the current chunk.
func (b *tomlBuilder) node(k Kind, line, col int) *Node {
	if len(b.slab) == cap(b.slab) {
		b.slab = make([]Node, 0, 32)
	}
	b.slab = append(b.slab, Node{Kind: k, Line: line, Col: col})
	return &b.slab[len(b.slab)-1]
}

func (b *tomlBuilder) parserError(err error) {
	pe, ok := err.(*unstable.ParserError)
	if !ok {
		b.errs = append(b.errs, &Error{File: b.file, Msg: "invalid TOML: " + err.Error()})
		return
	}
	off := len(b.data)
	if pe.Highlight != nil {
		off = cap(b.data) - cap(pe.Highlight)
	}
	b.errorAt(off, "invalid TOML: "+pe.Message)
}

func (b *tomlBuilder) errorAt(off int, msg string) {
	line, col := b.idx.pos(off)
	b.errs = append(b.errs, &Error{File: b.file, Line: line, Col: col, Msg: msg})
}

func (b *tomlBuilder) expression(e *unstable.Node) {
	switch e.Kind {
	case unstable.Table:
		var buf [4]keyPart
		parts := b.keyParts(e.Key(), buf[:0])
		b.cur, b.where = b.table(parts), dotted("", parts)
	case unstable.ArrayTable:
		var buf [4]keyPart
		parts := b.keyParts(e.Key(), buf[:0])
		b.cur, b.where = b.arrayTable(parts), dotted("", parts)
	case unstable.KeyValue:
		b.keyValue(b.cur, b.where, e, 0)
	}
}

// keyParts appends the parts of a dotted key to parts.
func (b *tomlBuilder) keyParts(it unstable.Iterator, parts []keyPart) []keyPart {
	for it.Next() {
		k := it.Node()
		line, col := b.idx.pos(int(k.Raw.Offset))
		parts = append(parts, keyPart{name: string(k.Data), line: line, col: col, end: int(k.Raw.Offset + k.Raw.Length)})
	}
	return parts
}

// dotted joins key parts after prefix into a path such as a."b c".d.
func dotted(prefix string, parts []keyPart) string {
	names := make([]string, 0, len(parts)+1)
	if prefix != "" {
		names = append(names, prefix)
	}
	for _, p := range parts {
		names = append(names, pathKey(p.name))
	}
	return strings.Join(names, ".")
}

// addTable adds a new table under key k of node, made as st says
// (implicitly, by a header, or by a dotted key), and returns it.
func (b *tomlBuilder) addTable(node *Node, k keyPart, st tableState) *Node {
	child := b.node(Map, k.line, k.col)
	b.state[child] = st
	b.keys.add(node, Entry{Key: k.name, Line: k.line, Col: k.col, Value: child})
	return child
}

// parent walks a [header]'s key parts but the last, creating implicit
// tables and stepping into the last table of an array of tables.
func (b *tomlBuilder) parent(parts []keyPart) *Node {
	node := b.root
	for i, k := range parts[:len(parts)-1] {
		e := b.keys.get(node, k.name)
		switch {
		case e == nil:
			node = b.addTable(node, k, stImplicit)
		case b.state[e.Value] == stArray:
			node = e.Value.Items[len(e.Value.Items)-1]
		case e.Value.Kind == Map && b.state[e.Value] != stInline:
			node = e.Value
		default:
			b.redefined(k, dotted("", parts[:i+1]), e)
			return nil
		}
	}
	return node
}

func (b *tomlBuilder) redefined(k keyPart, path string, e *Entry) {
	what := "a " + e.Value.Kind.String()
	switch {
	case b.state[e.Value] == stInline:
		what = "an inline table"
	case e.Value.Kind == Int:
		what = "an integer"
	}
	b.errs = append(b.errs, &Error{File: b.file, Line: k.line, Col: k.col,
		Msg: fmt.Sprintf("key %s is already defined as %s at line %d", path, what, e.Line)})
}

func (b *tomlBuilder) table(parts []keyPart) *Node {
	node := b.parent(parts)
	if node == nil {
		return &Node{Kind: Map} // keep parsing; keys go nowhere
	}
	k := parts[len(parts)-1]
	e := b.keys.get(node, k.name)
	if e == nil {
		return b.addTable(node, k, stHeader)
	}
	if e.Value.Kind == Map && b.state[e.Value] == stImplicit {
		b.state[e.Value] = stHeader
		return e.Value
	}
	if e.Value.Kind == Map && b.state[e.Value] != stInline {
		b.errs = append(b.errs, &Error{File: b.file, Line: k.line, Col: k.col,
			Msg: fmt.Sprintf("table [%s] is already defined at line %d", dotted("", parts), e.Line)})
		return &Node{Kind: Map}
	}
	b.redefined(k, dotted("", parts), e)
	return &Node{Kind: Map}
}

func (b *tomlBuilder) arrayTable(parts []keyPart) *Node {
	node := b.parent(parts)
	if node == nil {
		return &Node{Kind: Map}
	}
	k := parts[len(parts)-1]
	e := b.keys.get(node, k.name)
	if e == nil {
		list := b.node(List, k.line, k.col)
		b.state[list] = stArray
		b.keys.add(node, Entry{Key: k.name, Line: k.line, Col: k.col, Value: list})
		e = &node.Entries[len(node.Entries)-1]
	} else if b.state[e.Value] != stArray {
		b.redefined(k, dotted("", parts), e)
		return &Node{Kind: Map}
	}
	item := b.node(Map, k.line, k.col)
	b.state[item] = stHeader
	e.Value.Items = append(e.Value.Items, item)
	return item
}

// keyValue adds "a.b.c = value" to table, creating dotted tables.
// where is the dotted path of table, for messages.
func (b *tomlBuilder) keyValue(table *Node, where string, kv *unstable.Node, depth int) {
	var buf [4]keyPart
	parts := b.keyParts(kv.Key(), buf[:0])
	if len(parts) == 0 {
		return
	}
	node := table
	for i, k := range parts[:len(parts)-1] {
		e := b.keys.get(node, k.name)
		switch {
		case e == nil:
			node = b.addTable(node, k, stDotted)
		case e.Value.Kind == Map && b.state[e.Value] == stDotted:
			node = e.Value
		default:
			b.redefined(k, dotted(where, parts[:i+1]), e)
			return
		}
	}
	k := parts[len(parts)-1]
	v := kv.Value()
	value := b.value(v, b.containerPath(v, func() string { return dotted(where, parts) }), b.valueOffset(k.end), depth)
	if e := b.keys.get(node, k.name); e != nil {
		b.errs = append(b.errs, &Error{File: b.file, Line: k.line, Col: k.col,
			Msg: fmt.Sprintf("duplicate key %s (first defined at line %d)", quote(dotted(where, parts)), e.Line)})
		return
	}
	b.keys.add(node, Entry{Key: k.name, Line: k.line, Col: k.col, Value: value})
}

// valueOffset finds where a value starts after its key: past blanks, '='
// and blanks. Arrays carry no position of their own in the TOML AST.
func (b *tomlBuilder) valueOffset(afterKey int) int {
	i := afterKey
	for i < len(b.data) && (b.data[i] == ' ' || b.data[i] == '\t' || b.data[i] == '=' || b.data[i] == '"' || b.data[i] == '\'') {
		if b.data[i] == '=' {
			i++
			for i < len(b.data) && (b.data[i] == ' ' || b.data[i] == '\t') {
				i++
			}
			return i
		}
		i++
	}
	return i
}

// value converts one TOML value found at path; off is its start when the
// AST has none.
func (b *tomlBuilder) value(v *unstable.Node, path string, off, depth int) *Node {
	if v.Raw.Length > 0 {
		off = int(v.Raw.Offset)
	}
	line, col := b.idx.pos(off)
	n := b.node(Null, line, col)
	if depth > maxDepth {
		b.errorAt(off, fmt.Sprintf("invalid TOML: values nested more than %d levels deep", maxDepth))
		return n
	}
	switch v.Kind {
	case unstable.String:
		n.Kind, n.Str = String, string(v.Data)
	case unstable.Bool:
		n.Kind, n.Bool = Bool, string(v.Data) == "true"
	case unstable.Integer:
		n.Kind = Int
		n.Int = b.integer(v.Data, off)
	case unstable.Float:
		n.Kind = Float
		n.Float = b.float(v.Data, off)
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		n.Kind, n.Str = Time, string(v.Data)
		b.checkTime(v.Kind, n.Str, off)
	case unstable.Array:
		n.Kind = List
		b.array(n, v, path, off, depth)
	case unstable.InlineTable:
		n.Kind = Map
		b.state[n] = stInline
		for it := v.Children(); it.Next(); {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				b.keyValue(n, path, c, depth+1)
			}
		}
	}
	return n
}

func (b *tomlBuilder) array(n *Node, v *unstable.Node, path string, off, depth int) {
	for it := v.Children(); it.Next(); {
		c := it.Node()
		if c.Kind == unstable.Comment {
			continue
		}
		i := len(n.Items)
		p := b.containerPath(c, func() string { return path + "[" + strconv.Itoa(i) + "]" })
		n.Items = append(n.Items, b.value(c, p, off, depth+1))
	}
}

// containerPath returns path() for arrays and inline tables, whose keys may
// need it in messages, and "" for scalars, to save building it.
func (b *tomlBuilder) containerPath(v *unstable.Node, path func() string) string {
	if v.Kind == unstable.Array || v.Kind == unstable.InlineTable {
		return path()
	}
	return ""
}

func (b *tomlBuilder) integer(raw []byte, off int) int64 {
	s := strings.ReplaceAll(string(raw), "_", "")
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		if base != 10 {
			s = s[2:]
		}
	}
	i, err := strconv.ParseInt(s, base, 64)
	if err != nil {
		b.errorAt(off, fmt.Sprintf("invalid TOML: integer %s is out of range (-2^63 to 2^63-1)", raw))
	}
	return i
}

func (b *tomlBuilder) float(raw []byte, off int) float64 {
	s := strings.ReplaceAll(string(raw), "_", "")
	switch strings.TrimLeft(s, "+-") {
	case "inf":
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case "nan":
		return math.NaN()
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		b.errorAt(off, fmt.Sprintf("invalid TOML: float %s is out of range", raw))
	}
	return f
}

var timeLayouts = map[unstable.Kind][]string{
	unstable.LocalDate:     {"2006-01-02"},
	unstable.LocalTime:     {"15:04:05.999999999", "15:04"},
	unstable.LocalDateTime: {"2006-01-02T15:04:05.999999999", "2006-01-02T15:04"},
	unstable.DateTime:      {"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04Z07:00"},
}

func (b *tomlBuilder) checkTime(k unstable.Kind, s string, off int) {
	norm := strings.ToUpper(s)
	if len(norm) > 10 && norm[10] == ' ' {
		norm = norm[:10] + "T" + norm[11:]
	}
	for _, layout := range timeLayouts[k] {
		if _, err := time.Parse(layout, norm); err == nil {
			return
		}
	}
	b.errorAt(off, fmt.Sprintf("invalid TOML: malformed date/time %q", s))
}
