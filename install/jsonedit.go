package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// object is a JSON object that keeps its key order and holds its values as
// raw JSON, so members toolguard does not touch are written back unchanged
// (string escapes and number spellings included).
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func newObject() *object { return &object{vals: map[string]json.RawMessage{}} }

// parseObject reads one JSON object; empty input is an empty object.
func parseObject(b []byte) (*object, error) {
	o := newObject()
	if len(bytes.TrimSpace(b)) == 0 {
		return o, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	for dec.More() {
		if err := o.readMember(dec); err != nil {
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the JSON object")
	}
	return o, nil
}

func (o *object) readMember(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	key, ok := tok.(string)
	if !ok {
		return fmt.Errorf("unexpected %v", tok)
	}
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	o.set(key, raw)
	return nil
}

func (o *object) get(key string) (json.RawMessage, bool) {
	v, ok := o.vals[key]
	return v, ok
}

// set replaces the value of key in place, or appends key.
func (o *object) set(key string, v json.RawMessage) {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

func (o *object) del(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	o.keys = slices.DeleteFunc(o.keys, func(k string) bool { return k == key })
}

func (o *object) empty() bool { return len(o.keys) == 0 }

// raw returns the object as compact JSON.
func (o *object) raw() json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(jsonString(k))
		buf.WriteByte(':')
		buf.Write(o.vals[k])
	}
	buf.WriteByte('}')
	return compact(buf.Bytes())
}

// childObject returns the object under key; absent means a new one.
func (o *object) childObject(key string) (*object, error) {
	v, ok := o.get(key)
	if !ok {
		return newObject(), nil
	}
	c, err := parseObject(v)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", key, err)
	}
	return c, nil
}

// childArray returns the array under key; absent means an empty one.
func (o *object) childArray(key string) ([]json.RawMessage, error) {
	v, ok := o.get(key)
	if !ok {
		return nil, nil
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(v, &arr); err != nil {
		return nil, fmt.Errorf("%q is not an array", key)
	}
	return arr, nil
}

func (o *object) setArray(key string, arr []json.RawMessage) {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, e := range arr {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(e)
	}
	buf.WriteByte(']')
	o.set(key, compact(buf.Bytes()))
}

// stringField returns a string member; empty when absent or not a string.
func (o *object) stringField(key string) string {
	var s string
	if v, ok := o.get(key); ok && json.Unmarshal(v, &s) == nil {
		return s
	}
	return ""
}

func jsonString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func compact(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

// format writes o indented like the original document (two spaces when it
// had no indentation to copy), ending with a newline.
func format(o *object, original []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, o.raw(), "", indentOf(original)); err != nil {
		return append(o.raw(), '\n')
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}

// indentOf returns the indentation of the first indented line of a JSON
// document, or two spaces.
func indentOf(doc []byte) string {
	for _, line := range bytes.Split(doc, []byte("\n"))[1:] {
		trimmed := bytes.TrimLeft(line, " \t")
		if n := len(line) - len(trimmed); n > 0 && len(trimmed) > 0 {
			return string(line[:n])
		}
	}
	return "  "
}
