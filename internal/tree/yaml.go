package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
)

type yamlBuilder struct {
	file  string
	keys  keyIndex
	nodes int
	errs  Errors
}

// yamlErrLine pulls the line number out of go-yaml's error text. It is
// compiled on first use: only a process reading a broken YAML file needs it.
var yamlErrLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: (?:line (\d+): )?`) })

func parseYAML(file string, data []byte) (*Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &Node{Kind: Map, Line: 1, Col: 1}, nil
		}
		return nil, Errors{yamlError(file, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		e := &Error{File: file, Line: extra.Line, Col: extra.Column, Msg: "a file must hold one YAML document; found another one here"}
		if err != nil {
			e = yamlError(file, err)
		}
		return nil, Errors{e}
	}
	b := &yamlBuilder{file: file, keys: keyIndex{}}
	n := b.node(&doc, 0)
	return n, b.errs.errOrNil()
}

func yamlError(file string, err error) *Error {
	msg := err.Error()
	m := yamlErrLine().FindStringSubmatch(msg)
	line := 1 // go-yaml leaves the line out when it is the first
	if m != nil {
		if m[1] != "" {
			line, _ = strconv.Atoi(m[1])
		}
		msg = msg[len(m[0]):]
	}
	if m != nil && m[1] != "" && strings.HasPrefix(msg, "did not find expected") {
		line++ // go-yaml reports parser errors with 0-based lines, scanner errors 1-based
	}
	return &Error{File: file, Line: line, Msg: "invalid YAML: " + msg}
}

func (b *yamlBuilder) errorAt(y *yaml.Node, msg string) {
	b.errs = append(b.errs, &Error{File: b.file, Line: y.Line, Col: y.Column, Msg: msg})
}

func (b *yamlBuilder) node(y *yaml.Node, depth int) *Node {
	n := &Node{Line: y.Line, Col: y.Column}
	b.nodes++
	if depth > maxDepth || b.nodes > maxNodes {
		if len(b.errs) == 0 {
			b.errorAt(y, fmt.Sprintf("invalid YAML: document nested more than %d levels deep or larger than %d values after expanding aliases", maxDepth, maxNodes))
		}
		return n
	}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return &Node{Kind: Map, Line: 1, Col: 1}
		}
		return b.node(y.Content[0], depth)
	case yaml.AliasNode:
		if y.Alias == nil {
			b.errorAt(y, "invalid YAML: unknown alias")
			return n
		}
		return b.node(y.Alias, depth+1)
	case yaml.SequenceNode:
		n.Kind = List
		n.Items = make([]*Node, 0, len(y.Content))
		for _, c := range y.Content {
			n.Items = append(n.Items, b.node(c, depth+1))
		}
	case yaml.MappingNode:
		n.Kind = Map
		b.mapping(n, y, depth)
	case yaml.ScalarNode:
		b.scalar(n, y)
	}
	return n
}

func (b *yamlBuilder) mapping(n *Node, y *yaml.Node, depth int) {
	var merges []*yaml.Node
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			b.errorAt(k, "invalid YAML: keys must be plain strings")
			continue
		}
		if k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if e := b.keys.get(n, k.Value); e != nil {
			b.errs = append(b.errs, &Error{File: b.file, Line: k.Line, Col: k.Column,
				Msg: fmt.Sprintf("duplicate key %s (first defined at line %d)", strconv.Quote(k.Value), e.Line)})
			continue
		}
		b.keys.add(n, Entry{Key: k.Value, Line: k.Line, Col: k.Column, Value: b.node(v, depth+1)})
	}
	for _, m := range merges {
		b.merge(n, m, depth)
	}
}

// merge adds the keys of a "<<: *anchor" source that n does not set itself.
func (b *yamlBuilder) merge(n *Node, src *yaml.Node, depth int) {
	for src.Kind == yaml.AliasNode && src.Alias != nil {
		src = src.Alias
	}
	if src.Kind == yaml.SequenceNode {
		for _, s := range src.Content {
			b.merge(n, s, depth+1)
		}
		return
	}
	if src.Kind != yaml.MappingNode || depth > maxDepth {
		b.errorAt(src, "invalid YAML: a merge key (<<) needs a mapping or a list of mappings")
		return
	}
	from := b.node(src, depth+1)
	for _, e := range from.Entries {
		if b.keys.get(n, e.Key) == nil {
			b.keys.add(n, e)
		}
	}
}

func (b *yamlBuilder) scalar(n *Node, y *yaml.Node) {
	var err error
	switch y.ShortTag() {
	case "!!null":
		n.Kind = Null
	case "!!bool":
		n.Kind = Bool
		err = y.Decode(&n.Bool)
	case "!!int":
		n.Kind = Int
		err = y.Decode(&n.Int)
	case "!!float":
		n.Kind = Float
		err = y.Decode(&n.Float)
		if err != nil && strings.Contains(strings.ToLower(y.Value), "nan") {
			n.Float, err = math.NaN(), nil
		}
	case "!!timestamp":
		n.Kind, n.Str = Time, y.Value
	case "!!str":
		n.Kind, n.Str = String, y.Value
	default:
		b.errorAt(y, fmt.Sprintf("invalid YAML: unsupported tag %s", y.Tag))
		return
	}
	if err != nil {
		b.errorAt(y, fmt.Sprintf("invalid YAML: %s is not a valid %s", strconv.Quote(y.Value), n.Kind))
	}
}
