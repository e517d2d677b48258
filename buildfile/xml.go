package buildfile

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
)

// xnode is an element of an XML build file (a pom.xml, an MSBuild
// project): its local name, attributes, text and child elements, and the
// line it starts on.
type xnode struct {
	name  string
	attrs []xml.Attr
	text  string
	kids  []*xnode
	line  int
}

// Bounds of one XML file, beside MaxFileSize.
const (
	maxXMLElements = 1 << 15
	maxXMLDepth    = 128
)

// parseXML parses text, read from file, into its root element with
// encoding/xml in strict mode: no entity but XML's five, no encoding but
// UTF-8. A file that is not well-formed, or larger than the bounds, is a
// problem (ok false).
func (r *resolver) parseXML(file, text string) (*xnode, bool) {
	root, err := parseXMLTree(text)
	if err != nil {
		r.problem(file, "the file cannot be read as XML: "+err.Error())
		return nil, false
	}
	return root, true
}

var errXMLTooLarge = errors.New("too many elements, or elements nested too deeply")

func parseXMLTree(text string) (*xnode, error) {
	d := xml.NewDecoder(strings.NewReader(text))
	d.Strict = true
	var root *xnode
	var stack []*xnode
	var texts [][]byte
	elements := 0
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			elements++
			if elements > maxXMLElements || len(stack) >= maxXMLDepth {
				return nil, errXMLTooLarge
			}
			n := &xnode{name: t.Name.Local, attrs: t.Attr, line: lineOf(text, int(off))}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				parent.kids = append(parent.kids, n)
			} else if root == nil {
				root = n
			}
			stack = append(stack, n)
			texts = append(texts, nil)
		case xml.EndElement:
			n := stack[len(stack)-1]
			n.text = string(texts[len(texts)-1])
			stack, texts = stack[:len(stack)-1], texts[:len(texts)-1]
		case xml.CharData:
			if len(texts) > 0 {
				texts[len(texts)-1] = append(texts[len(texts)-1], t...)
			}
		}
	}
	if root == nil {
		return nil, errors.New("no root element")
	}
	return root, nil
}

// child is n's first child element named name (nil when none, or n nil).
func (n *xnode) child(name string) *xnode {
	if n == nil {
		return nil
	}
	for _, k := range n.kids {
		if k.name == name {
			return k
		}
	}
	return nil
}

// all are n's child elements named name.
func (n *xnode) all(name string) []*xnode {
	if n == nil {
		return nil
	}
	var out []*xnode
	for _, k := range n.kids {
		if k.name == name {
			out = append(out, k)
		}
	}
	return out
}

// elems are n's child elements (none when n is nil).
func (n *xnode) elems() []*xnode {
	if n == nil {
		return nil
	}
	return n.kids
}

// path is the first element down the names from n.
func (n *xnode) path(names ...string) *xnode {
	for _, name := range names {
		n = n.child(name)
	}
	return n
}

// value is the trimmed text of n's child name ("" when none).
func (n *xnode) value(name string) string {
	if c := n.child(name); c != nil {
		return strings.TrimSpace(c.text)
	}
	return ""
}

// attr is the value of n's attribute name, and whether it has one.
func (n *xnode) attr(name string) (string, bool) {
	if n == nil {
		return "", false
	}
	for _, a := range n.attrs {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// walk calls f on n and every element below it, in document order, until
// f returns false for an element (whose children are then skipped).
func (n *xnode) walk(f func(*xnode) bool) {
	if n == nil || !f(n) {
		return
	}
	for _, k := range n.kids {
		k.walk(f)
	}
}
