package policy

import (
	"reflect"
	"strings"

	"github.com/toolguard/toolguard/internal/tree"
)

// merge copies every key the layer set (per meta) over dst. Tables merge
// key by key; lists tagged merge:"append" are appended (so built-in and
// lower-layer denies never shrink); other lists and scalars are replaced;
// map entries (profiles, agents, tools.map, …) are replaced per key.
func merge(dst, src *Config, meta tree.Meta) {
	mergeStruct(reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem(), "", meta)
}

func mergeStruct(dst, src reflect.Value, prefix string, meta tree.Meta) {
	t := dst.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			mergeStruct(dst.Field(i), src.Field(i), prefix, meta)
			continue
		}
		key := fieldKey(f)
		if key == "" {
			continue
		}
		p := joinPath(prefix, key)
		if !meta.Has(p) {
			continue
		}
		mergeField(dst.Field(i), src.Field(i), f, p, meta)
	}
}

func mergeField(dst, src reflect.Value, f reflect.StructField, p string, meta tree.Meta) {
	switch {
	case dst.Kind() == reflect.Struct && dst.Type().String() != "time.Time":
		mergeStruct(dst, src, p, meta)
	case dst.Kind() == reflect.Slice && f.Tag.Get("merge") == "append":
		dst.Set(reflect.AppendSlice(dst, src))
	case dst.Kind() == reflect.Map:
		mergeMap(dst, src)
	default:
		dst.Set(src)
	}
}

func mergeMap(dst, src reflect.Value) {
	if dst.IsNil() {
		dst.Set(reflect.MakeMap(dst.Type()))
	}
	iter := src.MapRange()
	for iter.Next() {
		dst.SetMapIndex(iter.Key(), iter.Value())
	}
}

// fieldKey is the document key of a struct field ("" when skipped).
func fieldKey(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag := f.Tag.Get("toml")
	name, _, _ := strings.Cut(tag, ",")
	switch name {
	case "-":
		return ""
	case "":
		return tree.SnakeCase(f.Name)
	}
	return name
}

func joinPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// positioned builds a tree error at the node of path (or the document
// start when the path is not found).
// parentPath drops the last ".key" or "[i]" of a field path.
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

func positioned(file string, doc *tree.Node, path, msg string, valid ...string) *tree.Error {
	e := &tree.Error{File: file, Path: path, Msg: msg, Valid: valid}
	for at := path; at != ""; at = parentPath(at) { // a missing key is reported at its table
		if n := doc.At(at); n != nil {
			e.Line, e.Col = n.Line, n.Col
			break
		}
	}
	return e
}
