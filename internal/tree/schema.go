package tree

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// durationPattern matches the strings time.ParseDuration accepts.
const durationPattern = `^[-+]?(0|([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`

// JSONSchema returns a JSON Schema (draft 2020-12) for documents that
// Decode accepts into a value of struct type t. Every table is closed
// (additionalProperties: false); descriptions come from docs as returned by
// internal/fielddoc's Read; enums from `enum` tags and from types implementing Enum;
// defaults from the non-zero fields of defaults (a t, a *t or nil).
// Durations accept a duration string or an integer number of seconds.
func JSONSchema(t reflect.Type, docs map[string]string, defaults any) ([]byte, error) {
	t, def, err := schemaRoot(t, defaults)
	if err != nil {
		return nil, err
	}
	g := &schemaGen{docs: docs}
	root := g.structSchema(t, def, t.Name())
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["title"] = t.Name()
	if d := oneLine(docs[t.Name()]); d != "" {
		root["description"] = d
	}
	if g.err != nil {
		return nil, g.err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// schemaRoot checks t is a struct (or pointer to one) and returns the
// defaults as a value of that struct type, or an invalid Value.
func schemaRoot(t reflect.Type, defaults any) (reflect.Type, reflect.Value, error) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil, reflect.Value{}, fmt.Errorf("tree: a schema needs a struct type, got %v", t)
	}
	def := reflect.ValueOf(defaults)
	for def.IsValid() && def.Kind() == reflect.Pointer {
		def = def.Elem()
	}
	if def.IsValid() && def.Type() != t {
		return nil, reflect.Value{}, fmt.Errorf("tree: defaults have type %v, want %v", def.Type(), t)
	}
	return t, def, nil
}

type schemaGen struct {
	docs  map[string]string
	stack []reflect.Type // structs being generated, to reject recursion
	err   error
}

func (g *schemaGen) structSchema(t reflect.Type, def reflect.Value, owner string) map[string]any {
	for _, s := range g.stack {
		if s == t && g.err == nil {
			g.err = fmt.Errorf("tree: recursive type %v cannot be described as a table tree", t)
		}
	}
	if g.err != nil {
		return map[string]any{}
	}
	g.stack = append(g.stack, t)
	defer func() { g.stack = g.stack[:len(g.stack)-1] }()
	props := map[string]any{}
	for _, f := range structOf(t).fields {
		props[f.name] = g.fieldSchema(f, fieldValue(def, f.index), fieldOwner(f, owner))
	}
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}

func (g *schemaGen) fieldSchema(f *fieldInfo, def reflect.Value, owner string) map[string]any {
	s := g.typeSchema(f.typ, def, owner+"."+f.goName)
	if f.enum != nil {
		target := s
		if items, ok := s["items"].(map[string]any); ok {
			target = items
		}
		target["enum"] = f.enum
	}
	if d := oneLine(g.docs[owner+"."+f.goName]); d != "" {
		s["description"] = d
	}
	if v, ok := defaultOf(def); ok {
		s["default"] = v
	}
	return s
}

// typeSchema describes type t; owner names anonymous struct types for docs.
func (g *schemaGen) typeSchema(t reflect.Type, def reflect.Value, owner string) map[string]any {
	if t.Kind() == reflect.Pointer {
		return g.typeSchema(t.Elem(), deref(def), owner)
	}
	switch {
	case t == durationType:
		return map[string]any{"type": []string{"string", "integer"}, "pattern": durationPattern}
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case isText(t):
		s := map[string]any{"type": "string"}
		if vals := enumValues(t); vals != nil {
			s["enum"] = vals
		}
		return s
	}
	return g.kindSchema(t, def, owner)
}

func (g *schemaGen) kindSchema(t reflect.Type, def reflect.Value, owner string) map[string]any {
	switch t.Kind() {
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return intSchema(t)
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": g.typeSchema(t.Elem(), reflect.Value{}, owner)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.typeSchema(t.Elem(), reflect.Value{}, owner)}
	case reflect.Struct:
		if t.Name() != "" {
			owner = t.Name()
		}
		return g.structSchema(t, def, owner)
	case reflect.Interface:
		return map[string]any{}
	}
	if g.err == nil {
		g.err = fmt.Errorf("tree: cannot describe Go type %v", t)
	}
	return map[string]any{}
}

// intSchema bounds sized and unsigned integer types.
func intSchema(t reflect.Type) map[string]any {
	s := map[string]any{"type": "integer"}
	bits := t.Bits()
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32:
		s["minimum"] = int64(-1) << (bits - 1)
		s["maximum"] = int64(1)<<(bits-1) - 1
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		s["minimum"] = 0
		s["maximum"] = uint64(1)<<bits - 1
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		s["minimum"] = 0
	}
	return s
}

// fieldOwner is the docs key prefix of f: its declaring type's name, or the
// owner passed down for fields of anonymous struct types.
func fieldOwner(f *fieldInfo, owner string) string {
	if f.declType.Name() != "" {
		return f.declType.Name()
	}
	return owner
}

// fieldValue is the field at index in struct value v, or an invalid Value
// when v is invalid or a nil pointer is on the way.
func fieldValue(v reflect.Value, index []int) reflect.Value {
	if !v.IsValid() {
		return v
	}
	f, err := v.FieldByIndexErr(index)
	if err != nil {
		return reflect.Value{}
	}
	return f
}

func deref(v reflect.Value) reflect.Value {
	if v.IsValid() && v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}
		}
		return v.Elem()
	}
	return v
}

// defaultOf returns the document form of a non-zero default, except for
// tables, whose defaults are shown key by key.
func defaultOf(v reflect.Value) (any, bool) {
	if !v.IsValid() || v.IsZero() {
		return nil, false
	}
	if t := deref(v); t.IsValid() && t.Kind() == reflect.Struct && t.Type() != timeType && !isText(t.Type()) {
		return nil, false
	}
	return plainValue(v), true
}

// plainValue converts a Go value into the form a document holds: strings,
// numbers, bools, lists and tables keyed by field name.
func plainValue(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	t := v.Type()
	switch {
	case t == durationType:
		return fmt.Sprint(v.Interface())
	case t.Implements(reflect.TypeFor[encoding.TextMarshaler]()) && t.Kind() != reflect.Pointer:
		text, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return fmt.Sprint(v.Interface())
		}
		return string(text)
	}
	return plainKind(v)
}

func plainKind(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return plainValue(v.Elem())
	case reflect.Slice, reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = plainValue(v.Index(i))
		}
		return out
	case reflect.Map:
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			out[fmt.Sprint(it.Key().Interface())] = plainValue(it.Value())
		}
		return out
	case reflect.Struct:
		out := map[string]any{}
		for _, f := range structOf(v.Type()).fields {
			if fv := fieldValue(v, f.index); fv.IsValid() && !fv.IsZero() {
				out[f.name] = plainValue(fv)
			}
		}
		return out
	}
	return v.Interface()
}

// oneLine joins a doc comment's lines into one paragraph.
func oneLine(doc string) string {
	return strings.Join(strings.Fields(doc), " ")
}
