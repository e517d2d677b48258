package tree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

type jsonBuilder struct {
	file string
	data []byte
	idx  *lineIndex
	dec  *json.Decoder
	keys keyIndex
	errs Errors
}

func parseJSON(file string, data []byte) (*Node, error) {
	b := &jsonBuilder{file: file, data: data, idx: newLineIndex(data), keys: keyIndex{}}
	b.dec = json.NewDecoder(bytes.NewReader(data))
	b.dec.UseNumber()
	n, err := b.value(0)
	if err == nil {
		var off int
		if _, off, err = b.token(); err == nil {
			line, col := b.idx.pos(off)
			return nil, Errors{{File: file, Line: line, Col: col, Msg: "invalid JSON: unexpected data after the top-level value"}}
		} else if errors.Is(err, io.EOF) {
			err = nil
		}
	}
	if err != nil {
		return nil, b.syntaxError(err)
	}
	return n, b.errs.errOrNil()
}

// syntaxError positions a decoder error: at its offset for syntax errors,
// else at the decoder's position.
func (b *jsonBuilder) syntaxError(err error) error {
	off := int(b.dec.InputOffset())
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset) // in token mode, the offset of the offending byte
	}
	msg := err.Error()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		off, msg = len(b.data), "unexpected end of input"
	}
	line, col := b.idx.pos(off)
	return Errors{{File: b.file, Line: line, Col: col, Msg: "invalid JSON: " + msg}}
}

// token reads the next token and the byte offset where it starts.
func (b *jsonBuilder) token() (json.Token, int, error) {
	off := int(b.dec.InputOffset())
	for off < len(b.data) {
		c := b.data[off]
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != ':' {
			break
		}
		off++
	}
	t, err := b.dec.Token()
	return t, off, err
}

func (b *jsonBuilder) value(depth int) (*Node, error) {
	t, off, err := b.token()
	if err != nil {
		return nil, err
	}
	return b.valueFrom(t, off, depth)
}

func (b *jsonBuilder) valueFrom(t json.Token, off, depth int) (*Node, error) {
	line, col := b.idx.pos(off)
	n := &Node{Line: line, Col: col}
	if depth > maxDepth {
		return nil, fmt.Errorf("values nested more than %d levels deep", maxDepth)
	}
	switch v := t.(type) {
	case nil:
		n.Kind = Null
	case bool:
		n.Kind, n.Bool = Bool, v
	case string:
		n.Kind, n.Str = String, v
	case json.Number:
		b.number(n, v)
	case json.Delim:
		return n, b.container(n, v, depth)
	}
	return n, nil
}

func (b *jsonBuilder) number(n *Node, v json.Number) {
	if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		n.Kind, n.Int = Int, i
		return
	}
	f, err := strconv.ParseFloat(string(v), 64)
	n.Kind, n.Float = Float, f
	if err != nil {
		b.errs = append(b.errs, &Error{File: b.file, Line: n.Line, Col: n.Col, Msg: fmt.Sprintf("invalid JSON: number %s is out of range", v)})
	}
}

func (b *jsonBuilder) container(n *Node, d json.Delim, depth int) error {
	if d == '[' {
		n.Kind = List
		for b.dec.More() {
			item, err := b.value(depth + 1)
			if err != nil {
				return err
			}
			n.Items = append(n.Items, item)
		}
	} else {
		n.Kind = Map
		for b.dec.More() {
			if err := b.entry(n, depth); err != nil {
				return err
			}
		}
	}
	_, _, err := b.token() // the closing delimiter
	return err
}

func (b *jsonBuilder) entry(n *Node, depth int) error {
	t, off, err := b.token()
	if err != nil {
		return err
	}
	key, _ := t.(string)
	v, err := b.value(depth + 1)
	if err != nil {
		return err
	}
	line, col := b.idx.pos(off)
	if e := b.keys.get(n, key); e != nil {
		b.errs = append(b.errs, &Error{File: b.file, Line: line, Col: col,
			Msg: fmt.Sprintf("duplicate key %s (first defined at line %d)", strconv.Quote(key), e.Line)})
		return nil
	}
	b.keys.add(n, Entry{Key: key, Line: line, Col: col, Value: v})
	return nil
}
