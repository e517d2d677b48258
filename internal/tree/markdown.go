package tree

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// Markdown returns a reference page for documents that decode into struct
// type t: one section per table (headed by its TOML header, such as
// `[paths]`, `[profiles.NAME]` or `[[rules]]`), and in each a table of its
// keys with type, default, valid values and description. Docs and defaults
// are as for JSONSchema. Headings start at level 2 so the caller can put a
// title and an introduction above.
func Markdown(t reflect.Type, docs map[string]string, defaults any) string {
	t, def, err := schemaRoot(t, defaults)
	if err != nil {
		return "<!-- " + err.Error() + " -->\n"
	}
	m := &markdownGen{docs: docs}
	m.section("Top-level keys", t, def, "", t.Name(), 0)
	if m.durations {
		m.b.WriteString(durationNote)
	}
	return m.b.String()
}

// durationNote ends a page that has duration keys.
const durationNote = "## Durations\n\nA duration is a string of numbers with units, such as `\"30s\"`, `\"2m\"`, `\"1h30m\"` or `\"250ms\"` (units: ns, us, ms, s, m, h), or an integer number of seconds.\n"

type markdownGen struct {
	docs      map[string]string
	b         strings.Builder
	durations bool // a duration key was listed
}

// subTable is a key whose value is itself a section.
type subTable struct {
	header string
	typ    reflect.Type
	def    reflect.Value
	path   string
	owner  string
}

func (m *markdownGen) section(title string, t reflect.Type, def reflect.Value, path, owner string, depth int) {
	if depth > maxDepth {
		return
	}
	m.b.WriteString("## " + title + "\n\n")
	if t.Name() != "" {
		owner = t.Name()
		if d := oneLine(m.docs[owner]); d != "" {
			m.b.WriteString(d + "\n\n")
		}
	}
	m.b.WriteString("| Key | Type | Default | Valid values | Description |\n| --- | --- | --- | --- | --- |\n")
	var subs []subTable
	for _, f := range structOf(t).fields {
		fo := fieldOwner(f, owner)
		fv := fieldValue(def, f.index)
		m.row(f, fv, fo)
		if s, ok := subSection(f, fv, join(path, f.name), fo); ok {
			subs = append(subs, s)
		}
	}
	m.b.WriteString("\n")
	for _, s := range subs {
		m.section(s.header, s.typ, s.def, s.path, s.owner, depth+1)
	}
}

func (m *markdownGen) row(f *fieldInfo, def reflect.Value, owner string) {
	if derefType(f.typ) == durationType {
		m.durations = true
	}
	cells := []string{
		"`" + f.name + "`",
		TypeName(f.typ),
		"",
		codeList(validValues(f)),
		cell(oneLine(m.docs[owner+"."+f.goName])),
	}
	if v, ok := defaultOf(def); ok {
		cells[2] = "`" + cell(compactJSON(v)) + "`"
	}
	m.b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
}

// subSection reports whether field f opens a section of its own: a table,
// a table of tables or a list of tables.
func subSection(f *fieldInfo, def reflect.Value, path, owner string) (subTable, bool) {
	t := derefType(f.typ)
	sub := subTable{typ: t, def: deref(def), path: path, owner: owner + "." + f.goName}
	switch {
	case isTable(t):
		sub.header = "`[" + path + "]`"
	case t.Kind() == reflect.Map && isTable(derefType(t.Elem())):
		sub.typ, sub.def, sub.path = derefType(t.Elem()), reflect.Value{}, path+".NAME"
		sub.header = "`[" + sub.path + "]`"
	case t.Kind() == reflect.Slice && isTable(derefType(t.Elem())):
		sub.typ, sub.def, sub.path = derefType(t.Elem()), reflect.Value{}, path+"[N]"
		sub.header = "`[[" + path + "]]`"
	default:
		return sub, false
	}
	return sub, true
}

func isTable(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t != timeType && !isText(t)
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// validValues lists an enum field's values, from its tag or its type (or
// its element type, for lists and tables of enums).
func validValues(f *fieldInfo) []string {
	if f.enum != nil {
		return f.enum
	}
	t := derefType(f.typ)
	if k := t.Kind(); k == reflect.Slice || k == reflect.Map {
		t = derefType(t.Elem())
	}
	return enumValues(t)
}

func codeList(vals []string) string {
	quoted := make([]string, len(vals))
	for i, v := range vals {
		quoted[i] = "`" + cell(v) + "`"
	}
	return strings.Join(quoted, ", ")
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

func compactJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
