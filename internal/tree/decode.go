package tree

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxErrors bounds how many problems one Decode reports.
const maxErrors = 100

// Meta records which keys a document set, as field paths such as "mode",
// "paths.denied", "paths.denied[0]" or `profiles.public.mode`. Tables
// and lists are recorded as well as the leaves beneath them. Map keys that
// are not plain words are quoted: `aliases."*.pem"`.
type Meta struct {
	paths []string // sorted
}

// Has reports whether the document set path.
func (m Meta) Has(path string) bool {
	_, ok := slices.BinarySearch(m.paths, path)
	return ok
}

// Paths returns every path the document set, sorted.
func (m Meta) Paths() []string { return slices.Clone(m.paths) }

// Without returns the paths for which drop is false.
func (m Meta) Without(drop func(path string) bool) Meta {
	return Meta{paths: slices.DeleteFunc(slices.Clone(m.paths), drop)}
}

// Decode decodes n into dst, which must be a non-nil pointer. It reports
// every problem at once as Errors, with positions in file; nil means
// success. Decode only writes what the document sets: absent keys keep the
// value dst already had, lists are replaced as a whole, and maps are merged
// key by key, each value decoded over the existing entry (so a struct in a
// map keeps its fields the document does not set). Because maps are written
// in place, decode into a deep copy when dst shares maps with defaults.
//
// Conversions: strings, bools, integers (range-checked for the field's
// type; floats are not accepted), floats (integers are accepted),
// time.Duration from a Go duration string such as "30s", "2m" or "1h30m",
// or from an integer number of seconds, any encoding.TextUnmarshaler from a
// string, []T from a list, map[string]T and structs from a table, *T (nil
// when absent, so unset is distinct from zero) and any. A date or time
// literal decodes into a string field as its text. Null (YAML, JSON)
// sets pointers, lists, maps and any to nil and is an error elsewhere.
func Decode(n *Node, file string, dst any) error {
	d := &decoder{file: file}
	return d.run(n, dst)
}

// Load parses data in the format named by file's extension and decodes it
// into dst, returning which paths the file set. Parse errors and decode
// errors are both Errors.
func Load(file string, data []byte, dst any) (Meta, error) {
	n, err := Parse(file, data)
	if err != nil {
		return Meta{}, err
	}
	return DecodeMeta(n, file, dst)
}

// DecodeMeta is Decode that also returns which paths the document set, for
// layering files over each other and for checking what a file changes.
func DecodeMeta(n *Node, file string, dst any) (Meta, error) {
	d := &decoder{file: file, record: true}
	err := d.run(n, dst)
	slices.Sort(d.paths)
	return Meta{paths: slices.Compact(d.paths)}, err
}

type decoder struct {
	file   string
	errs   Errors
	record bool
	paths  []string
}

func (d *decoder) run(n *Node, dst any) (err error) {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return Errors{{File: d.file, Msg: fmt.Sprintf("internal error: Decode needs a non-nil pointer, got %T", dst)}}
	}
	if n == nil {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = Errors{{File: d.file, Msg: fmt.Sprintf("internal error while decoding: %v", r)}}
		}
	}()
	d.value(n, v.Elem(), "", nil)
	return d.errs.errOrNil()
}

// fail records a problem with node n at path.
func (d *decoder) fail(n *Node, path, msg string, valid []string) {
	switch {
	case len(d.errs) < maxErrors:
		d.errs = append(d.errs, &Error{File: d.file, Line: n.Line, Col: n.Col, Path: path, Msg: msg, Valid: valid})
	case len(d.errs) == maxErrors:
		d.errs = append(d.errs, &Error{File: d.file, Line: n.Line, Col: n.Col, Msg: "too many errors; stopped reporting"})
	}
}

func (d *decoder) wrongType(n *Node, path string, t reflect.Type) {
	d.fail(n, path, fmt.Sprintf("expected %s, got %s", TypeName(t), describe(n)), enumOf(t, nil))
}

func (d *decoder) seen(path string) {
	if d.record {
		d.paths = append(d.paths, path)
	}
}

// value decodes n into v; enum is the `enum` tag of the field, if any.
func (d *decoder) value(n *Node, v reflect.Value, path string, enum []string) {
	t := v.Type()
	switch {
	case n.Kind == Null:
		d.null(n, v, path)
	case t == durationType:
		d.duration(n, v, path)
	case t.Kind() == reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		d.value(n, v.Elem(), path, enum)
	case isText(t):
		d.text(n, v, path)
	default:
		d.kind(n, v, path, enum)
	}
}

func (d *decoder) kind(n *Node, v reflect.Value, path string, enum []string) {
	switch v.Kind() {
	case reflect.String:
		d.string(n, v, path, enum)
	case reflect.Bool:
		d.bool(n, v, path)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.int(n, v, path)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		d.uint(n, v, path)
	case reflect.Float32, reflect.Float64:
		d.float(n, v, path)
	case reflect.Slice:
		d.list(n, v, path, enum)
	case reflect.Map:
		d.mapping(n, v, path, enum)
	case reflect.Struct:
		d.structure(n, v, path)
	case reflect.Interface:
		d.any(n, v, path)
	default:
		d.fail(n, path, fmt.Sprintf("internal error: cannot decode into Go type %s", v.Type()), nil)
	}
}

func (d *decoder) null(n *Node, v reflect.Value, path string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		v.SetZero()
	default:
		d.wrongType(n, path, v.Type())
	}
}

func (d *decoder) string(n *Node, v reflect.Value, path string, enum []string) {
	if n.Kind != String && n.Kind != Time {
		d.fail(n, path, fmt.Sprintf("expected string, got %s", describe(n)), enum)
		return
	}
	if enum != nil && !slices.Contains(enum, n.Str) {
		d.fail(n, path, "invalid value "+quote(n.Str)+didYouMean(n.Str, enum), enum)
		return
	}
	v.SetString(n.Str)
}

func (d *decoder) bool(n *Node, v reflect.Value, path string) {
	if n.Kind != Bool {
		d.wrongType(n, path, v.Type())
		return
	}
	v.SetBool(n.Bool)
}

func (d *decoder) int(n *Node, v reflect.Value, path string) {
	if n.Kind != Int {
		d.wrongType(n, path, v.Type())
		return
	}
	if v.OverflowInt(n.Int) {
		bits := v.Type().Bits()
		d.fail(n, path, fmt.Sprintf("%d is out of range for %s (%d to %d)", n.Int, v.Type(), int64(-1)<<(bits-1), int64(1)<<(bits-1)-1), nil)
		return
	}
	v.SetInt(n.Int)
}

func (d *decoder) uint(n *Node, v reflect.Value, path string) {
	if n.Kind != Int {
		d.wrongType(n, path, v.Type())
		return
	}
	if n.Int < 0 || v.OverflowUint(uint64(n.Int)) {
		d.fail(n, path, fmt.Sprintf("%d is out of range for %s (0 to %d)", n.Int, v.Type(), uint64(1)<<(v.Type().Bits())-1), nil)
		return
	}
	v.SetUint(uint64(n.Int))
}

func (d *decoder) float(n *Node, v reflect.Value, path string) {
	f := n.Float
	switch {
	case n.Kind == Int:
		f = float64(n.Int)
	case n.Kind != Float:
		d.wrongType(n, path, v.Type())
		return
	}
	if v.OverflowFloat(f) {
		d.fail(n, path, fmt.Sprintf("%g is out of range for %s", f, v.Type()), nil)
		return
	}
	v.SetFloat(f)
}

func (d *decoder) duration(n *Node, v reflect.Value, path string) {
	switch n.Kind {
	case Int:
		if n.Int > math.MaxInt64/int64(time.Second) || n.Int < math.MinInt64/int64(time.Second) {
			d.fail(n, path, fmt.Sprintf("%d seconds is out of range for a duration", n.Int), nil)
			return
		}
		v.SetInt(n.Int * int64(time.Second))
	case String:
		dur, err := time.ParseDuration(n.Str)
		if err != nil {
			d.fail(n, path, "invalid duration "+quote(n.Str)+`: use a number with a unit, such as "30s", "2m" or "1h30m", or an integer number of seconds`, nil)
			return
		}
		v.SetInt(int64(dur))
	default:
		d.wrongType(n, path, v.Type())
	}
}

func (d *decoder) text(n *Node, v reflect.Value, path string) {
	if n.Kind != String && n.Kind != Time {
		d.wrongType(n, path, v.Type())
		return
	}
	err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(n.Str))
	if err == nil {
		return
	}
	if valid := enumValues(v.Type()); valid != nil {
		d.fail(n, path, "invalid value "+quote(n.Str)+didYouMean(n.Str, valid), valid)
		return
	}
	d.fail(n, path, err.Error(), nil)
}

func (d *decoder) list(n *Node, v reflect.Value, path string, enum []string) {
	if n.Kind != List {
		d.wrongType(n, path, v.Type())
		return
	}
	out := reflect.MakeSlice(v.Type(), len(n.Items), len(n.Items))
	for i, item := range n.Items {
		p := path + "[" + strconv.Itoa(i) + "]"
		d.seen(p)
		d.value(item, out.Index(i), p, enum)
	}
	v.Set(out)
}

func (d *decoder) mapping(n *Node, v reflect.Value, path string, enum []string) {
	t := v.Type()
	if t.Key().Kind() != reflect.String {
		d.fail(n, path, fmt.Sprintf("internal error: cannot decode into Go type %s: map keys must be strings", t), nil)
		return
	}
	if n.Kind != Map {
		d.wrongType(n, path, t)
		return
	}
	if v.IsNil() {
		v.Set(reflect.MakeMapWithSize(t, len(n.Entries)))
	}
	for _, e := range n.Entries {
		key := reflect.ValueOf(e.Key).Convert(t.Key())
		elem := reflect.New(t.Elem()).Elem()
		if old := v.MapIndex(key); old.IsValid() {
			elem.Set(old)
		}
		p := join(path, e.Key)
		d.seen(p)
		d.value(e.Value, elem, p, enum)
		v.SetMapIndex(key, elem)
	}
}

func (d *decoder) structure(n *Node, v reflect.Value, path string) {
	if n.Kind != Map {
		d.wrongType(n, path, v.Type())
		return
	}
	info := structOf(v.Type())
	for _, e := range n.Entries {
		p := join(path, e.Key)
		f := info.byName[e.Key]
		if f == nil {
			at := &Node{Line: e.Line, Col: e.Col}
			d.fail(at, p, "unknown key"+didYouMean(e.Key, info.names), info.names)
			continue
		}
		d.seen(p)
		d.value(e.Value, fieldByIndex(v, f.index), p, f.enum)
	}
}

// fieldByIndex is reflect.Value.FieldByIndex that allocates nil embedded
// struct pointers on the way.
func fieldByIndex(v reflect.Value, index []int) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

func (d *decoder) any(n *Node, v reflect.Value, path string) {
	if v.NumMethod() != 0 {
		d.fail(n, path, fmt.Sprintf("internal error: cannot decode into Go interface type %s", v.Type()), nil)
		return
	}
	if x := n.Value(); x != nil {
		v.Set(reflect.ValueOf(x))
	}
}

// describe names a node's kind and, for scalars, its value:
// `string "4"`, "integer 1", "table".
func describe(n *Node) string {
	switch n.Kind {
	case String, Time:
		s := n.Str
		if r := []rune(s); len(r) > 40 {
			s = string(r[:37]) + "..."
		}
		return n.Kind.String() + " " + quote(s)
	case Int:
		return "integer " + strconv.FormatInt(n.Int, 10)
	case Float:
		return "float " + strconv.FormatFloat(n.Float, 'g', -1, 64)
	case Bool:
		return "bool " + strconv.FormatBool(n.Bool)
	}
	return n.Kind.String()
}

// join appends a key to a field path.
func join(path, key string) string {
	if path == "" {
		return pathKey(key)
	}
	return path + "." + pathKey(key)
}

func quote(s string) string { return strconv.Quote(s) }

// enumOf returns the valid values of an enum-like type or tag, or nil.
func enumOf(t reflect.Type, tag []string) []string {
	if tag != nil {
		return tag
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return enumValues(t)
}

// TypeName is the user-facing name of the kind of value a Go type takes in
// a document: "string", "bool", "integer", "float", "duration",
// "datetime", "list of string", "table of integer", "table".
func TypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == durationType:
		return "duration"
	case t == timeType:
		return "datetime"
	case isText(t):
		return "string"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "float"
	case reflect.Slice, reflect.Array:
		return "list of " + TypeName(t.Elem())
	case reflect.Map:
		return "table of " + TypeName(t.Elem())
	case reflect.Struct:
		return "table"
	case reflect.Interface:
		return "any value"
	}
	return strings.ToLower(t.Kind().String())
}
