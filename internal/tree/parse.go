package tree

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
)

// maxDepth bounds the nesting of lists and tables in any document, so that
// hostile input cannot exhaust the stack.
const maxDepth = 200

// maxNodes bounds the number of nodes a YAML document may expand to through
// aliases, so that an alias bomb fails instead of eating memory.
const maxNodes = 1_000_000

// Formats lists the format names ParseFormat accepts.
func Formats() []string { return []string{"json", "toml", "yaml"} }

var extensions = map[string]string{".toml": "toml", ".yaml": "yaml", ".yml": "yaml", ".json": "json"}

// Extensions lists the file extensions Parse recognises.
func Extensions() []string { return []string{".json", ".toml", ".yaml", ".yml"} }

// Parse parses data in the format named by the extension of file (.toml,
// .yaml, .yml or .json). The file name is also used in error messages.
// Errors are returned as Errors with positions.
func Parse(file string, data []byte) (*Node, error) {
	format, ok := extensions[strings.ToLower(filepath.Ext(file))]
	if !ok {
		return nil, Errors{{File: file, Msg: fmt.Sprintf("unknown config file extension %q", filepath.Ext(file)), Valid: Extensions()}}
	}
	return ParseFormat(file, format, data)
}

// ParseFormat parses data in the given format ("toml", "yaml" or "json").
// The result is always a Map node for TOML; for YAML and JSON it is whatever
// the document holds (an empty YAML document is an empty Map). Errors are
// returned as Errors with positions.
func ParseFormat(file, format string, data []byte) (n *Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, Errors{{File: file, Msg: fmt.Sprintf("internal error while parsing %s: %v", format, r)}}
		}
	}()
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	switch strings.ToLower(format) {
	case "toml":
		return parseTOML(file, data)
	case "yaml", "yml":
		return parseYAML(file, data)
	case "json":
		return parseJSON(file, data)
	}
	return nil, Errors{{File: file, Msg: fmt.Sprintf("unknown config format %q", format), Valid: Formats()}}
}

// keyIndex finds keys in Map nodes under construction in constant time, for
// all maps of one document.
type keyIndex map[keyRef]int

type keyRef struct {
	m   *Node
	key string
}

// get returns the entry of m under key, or nil.
func (x keyIndex) get(m *Node, key string) *Entry {
	if i, ok := x[keyRef{m, key}]; ok {
		return &m.Entries[i]
	}
	return nil
}

// add appends an entry to m; the caller has checked the key is new.
func (x keyIndex) add(m *Node, e Entry) {
	x[keyRef{m, e.Key}] = len(m.Entries)
	m.Entries = append(m.Entries, e)
}
