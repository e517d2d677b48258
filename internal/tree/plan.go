package tree

import (
	"encoding"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Enum is implemented by types whose text form is one of a fixed set of
// names (and that implement encoding.TextUnmarshaler). Decode lists the
// names when a value is invalid, and JSONSchema and Markdown publish them.
// Implement it on the value receiver.
type Enum interface {
	EnumValues() []string
}

var (
	durationType        = reflect.TypeFor[time.Duration]()
	timeType            = reflect.TypeFor[time.Time]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	enumType            = reflect.TypeFor[Enum]()
)

// structInfo is the decoding plan of one struct type, built once per type.
type structInfo struct {
	fields []*fieldInfo          // in declaration order, embedded fields flattened
	byName map[string]*fieldInfo // by key
	names  []string              // the keys, sorted, for error messages
}

// fieldInfo describes one key of a struct.
type fieldInfo struct {
	name     string       // the key in the document
	goName   string       // the Go field name
	declType reflect.Type // the struct type that declares the field
	index    []int        // for FieldByIndex, through embedded structs
	typ      reflect.Type
	enum     []string // from the `enum:"a,b"` tag
	depth    int      // embedding depth, shallower wins on a name clash
}

var plans sync.Map // reflect.Type → *structInfo

// structOf returns the cached plan for struct type t.
func structOf(t reflect.Type) *structInfo {
	if p, ok := plans.Load(t); ok {
		return p.(*structInfo)
	}
	info := &structInfo{byName: map[string]*fieldInfo{}}
	collectFields(info, t, nil, 0)
	for _, f := range info.fields {
		info.names = append(info.names, f.name)
	}
	slices.Sort(info.names)
	p, _ := plans.LoadOrStore(t, info)
	return p.(*structInfo)
}

func collectFields(info *structInfo, t reflect.Type, index []int, depth int) {
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, _, _ := strings.Cut(sf.Tag.Get("toml"), ",")
		if tag == "-" {
			continue
		}
		idx := append(slices.Clone(index), i)
		if sf.Anonymous && tag == "" {
			if et := embeddedStruct(sf); et != nil {
				collectFields(info, et, idx, depth+1)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if tag == "" {
			tag = SnakeCase(sf.Name)
		}
		addField(info, &fieldInfo{name: tag, goName: sf.Name, declType: t, index: idx, typ: sf.Type, enum: enumTag(sf), depth: depth})
	}
}

// embeddedStruct returns the struct type of an embedded field that should
// be flattened, or nil.
func embeddedStruct(sf reflect.StructField) reflect.Type {
	t := sf.Type
	if t.Kind() == reflect.Pointer {
		if !sf.IsExported() {
			return nil // cannot allocate through an unexported pointer
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	return t
}

func enumTag(sf reflect.StructField) []string {
	tag, ok := sf.Tag.Lookup("enum")
	if !ok {
		return nil
	}
	var vals []string
	for v := range strings.SplitSeq(tag, ",") {
		vals = append(vals, strings.TrimSpace(v))
	}
	return vals
}

func addField(info *structInfo, f *fieldInfo) {
	if old, ok := info.byName[f.name]; ok {
		if old.depth <= f.depth {
			return
		}
		info.fields = slices.DeleteFunc(info.fields, func(g *fieldInfo) bool { return g == old })
	}
	info.byName[f.name] = f
	info.fields = append(info.fields, f)
}

// SnakeCase turns a Go name into the key used when a field has no toml tag:
// "MaxDepth" → "max_depth", "HTTPProxy" → "http_proxy".
func SnakeCase(name string) string {
	var b strings.Builder
	runes := []rune(name)
	for i, r := range runes {
		if unicode.IsUpper(r) {
			prevLower := i > 0 && (unicode.IsLower(runes[i-1]) || unicode.IsDigit(runes[i-1]))
			nextLower := i > 0 && i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1])
			if prevLower || nextLower {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isText reports whether values of t decode from text through
// encoding.TextUnmarshaler.
func isText(t reflect.Type) bool {
	return t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(textUnmarshalerType)
}

// enumValues returns the names an Enum type accepts, or nil.
func enumValues(t reflect.Type) []string {
	if t.Implements(enumType) {
		return reflect.Zero(t).Interface().(Enum).EnumValues()
	}
	return nil
}

// pathKey writes one key of a field path: bare when it is a plain word,
// quoted otherwise ("*.pem" → `"*.pem"`).
func pathKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, c := range []byte(k) {
		if !isBareKeyChar(c) {
			return quote(k)
		}
	}
	return k
}

func isBareKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}
