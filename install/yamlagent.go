package install

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// yamlAgent installs toolguard into docker-agent's user config:
// settings.hooks.pre_tool_use gets a matcher entry with preempt_yolo: true,
// so the hook runs before docker-agent's own approval pipeline, --yolo and
// permission rules.
type yamlAgent struct{}

var yamlPath = []string{"settings", "hooks", "pre_tool_use"}

func (yamlAgent) install(before []byte, command string) ([]byte, error) {
	doc, err := parseYAML(before)
	if err != nil {
		return nil, err
	}
	seq, err := ensurePath(doc.Content[0], yamlPath)
	if err != nil {
		return nil, err
	}
	if entry, h := findEntry(seq); h != nil {
		changed := setScalar(h, "command", command)
		switch hs := mapGet(entry, "hooks"); {
		case preempts(entry):
		case len(hs.Content) == 1:
			mapDel(entry, "preempt_yolo")
			entry.Content = append(entry.Content, scalar("preempt_yolo"), yesNode())
			changed = true
		default:
			// The entry holds other hooks too: leave their lane alone and
			// give toolguard an entry of its own.
			hs.Content = dropOurs(hs.Content)
			seq.Content = append(seq.Content, yamlEntry(command))
			changed = true
		}
		if changed {
			return encodeYAML(doc)
		}
		return before, nil
	}
	seq.Content = append(seq.Content, yamlEntry(command))
	return encodeYAML(doc)
}

func (yamlAgent) uninstall(current, _ []byte) ([]byte, error) {
	doc, err := parseYAML(current)
	if err != nil {
		return nil, err
	}
	if !pruneEntries(doc.Content[0], yamlPath) {
		return current, nil
	}
	if len(doc.Content[0].Content) == 0 {
		return nil, nil
	}
	return encodeYAML(doc)
}

func (yamlAgent) status(docBytes []byte) (string, []string, error) {
	doc, err := parseYAML(docBytes)
	if err != nil {
		return "", nil, err
	}
	seq := lookup(doc.Content[0], yamlPath)
	if entry, h := findEntry(seq); h != nil {
		if !preempts(entry) {
			// Without preempt_yolo the entry runs after docker-agent's own
			// approval, which --yolo, safety modes and allow rules settle
			// without it.
			return mapGet(h, "command").Value, []string{"pre_tool_use preempt_yolo: true"}, nil
		}
		return mapGet(h, "command").Value, nil, nil
	}
	return "", []string{"pre_tool_use"}, nil
}

// preempts reports whether a matcher entry has preempt_yolo: true.
func preempts(entry *yaml.Node) bool {
	v := mapGet(entry, "preempt_yolo")
	if v == nil || v.Kind != yaml.ScalarNode {
		return false
	}
	b, err := strconv.ParseBool(v.Value)
	return err == nil && b
}

func yesNode() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"} }

// parseYAML reads a YAML document whose root is a mapping; empty input is
// an empty mapping.
func parseYAML(b []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("cannot parse it as YAML (%v); fix or move the file and try again", err)
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("its top level is not a mapping")
	}
	if err := uniqueKeys(doc.Content[0], 0); err != nil {
		return nil, err
	}
	return &doc, nil
}

// uniqueKeys refuses a mapping that repeats a key: which of the two the
// agent reads is not ours to guess, and editing one would leave the other.
func uniqueKeys(n *yaml.Node, depth int) error {
	if n == nil || depth > 64 {
		return nil
	}
	if n.Kind == yaml.MappingNode {
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if line, dup := seen[k.Value]; dup && k.Kind == yaml.ScalarNode {
				return fmt.Errorf("the key %q appears twice in one mapping (lines %d and %d); remove one and try again", k.Value, line, k.Line)
			}
			seen[k.Value] = k.Line
		}
	}
	for _, c := range n.Content {
		if err := uniqueKeys(c, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func encodeYAML(doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

// yamlEntry is toolguard's pre_tool_use matcher entry.
func yamlEntry(command string) *yaml.Node {
	handler := mapping("type", scalar("command"), "command", scalar(command), "timeout", intScalar(strconv.Itoa(agentTimeout)))
	return mapping(
		"matcher", &yaml.Node{Kind: yaml.ScalarNode, Value: "*", Style: yaml.DoubleQuotedStyle},
		"preempt_yolo", yesNode(),
		"hooks", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{handler}},
	)
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
func intScalar(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: v}
}

func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, scalar(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return m
}

func mapGet(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func mapDel(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

// setScalar sets a scalar value; reports whether it changed.
func setScalar(m *yaml.Node, key, value string) bool {
	v := mapGet(m, key)
	if v == nil || v.Value == value {
		return false
	}
	v.Value, v.Tag, v.Style = value, "!!str", 0
	return true
}

// ensurePath walks mappings along path, creating them, and returns the
// sequence at its end.
func ensurePath(m *yaml.Node, path []string) (*yaml.Node, error) {
	for i, key := range path {
		kind := yaml.MappingNode
		if i == len(path)-1 {
			kind = yaml.SequenceNode
		}
		next := mapGet(m, key)
		if next == nil || (next.Kind == yaml.ScalarNode && next.Tag == "!!null") {
			mapDel(m, key)
			next = &yaml.Node{Kind: kind}
			m.Content = append(m.Content, scalar(key), next)
		}
		if next.Kind != kind {
			return nil, fmt.Errorf("%s is not a %s", joinPath(path[:i+1]), kindName(kind))
		}
		m = next
	}
	return m, nil
}

func lookup(m *yaml.Node, path []string) *yaml.Node {
	for _, key := range path {
		m = mapGet(m, key)
	}
	return m
}

// findEntry returns the matcher entry of a pre_tool_use list that holds
// toolguard's handler, and that handler mapping.
func findEntry(seq *yaml.Node) (entry, handler *yaml.Node) {
	if seq == nil {
		return nil, nil
	}
	for _, entry := range seq.Content {
		if hs := mapGet(entry, "hooks"); hs != nil {
			for _, h := range hs.Content {
				if c := mapGet(h, "command"); c != nil && isOurs(c.Value) {
					return entry, h
				}
			}
		}
	}
	return nil, nil
}

// pruneEntries removes toolguard's handlers under path, then every entry,
// list and mapping left empty by that. It reports whether it removed any.
func pruneEntries(root *yaml.Node, path []string) bool {
	parents := []*yaml.Node{root}
	for _, key := range path[:len(path)-1] {
		parents = append(parents, mapGet(parents[len(parents)-1], key))
	}
	seq := mapGet(parents[len(parents)-1], path[len(path)-1])
	if seq == nil || !removeHandlers(seq) {
		return false
	}
	for i := len(path) - 1; i >= 0; i-- {
		child := mapGet(parents[i], path[i])
		if child != nil && len(child.Content) == 0 {
			mapDel(parents[i], path[i])
		}
	}
	return true
}

func removeHandlers(seq *yaml.Node) bool {
	removed := false
	var kept []*yaml.Node
	for _, entry := range seq.Content {
		hs := mapGet(entry, "hooks")
		if hs == nil {
			kept = append(kept, entry)
			continue
		}
		n := len(hs.Content)
		hs.Content = dropOurs(hs.Content)
		removed = removed || len(hs.Content) < n
		if len(hs.Content) > 0 || n == 0 {
			kept = append(kept, entry)
		}
	}
	seq.Content = kept
	return removed
}

func dropOurs(handlers []*yaml.Node) []*yaml.Node {
	var kept []*yaml.Node
	for _, h := range handlers {
		if c := mapGet(h, "command"); c == nil || !isOurs(c.Value) {
			kept = append(kept, h)
		}
	}
	return kept
}

func kindName(k yaml.Kind) string {
	if k == yaml.SequenceNode {
		return "list"
	}
	return "mapping"
}

func joinPath(p []string) string {
	var b bytes.Buffer
	for i, s := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}
