package tree

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pos is a node's or key's position, for compact expectations.
type pos struct{ Line, Col int }

func TestParsePositions(t *testing.T) {
	tests := []struct {
		file, doc string
		path      []string // keys from the root to one entry
		key, val  pos
	}{
		{"p.toml", "a = 1\n[t]\n  b =   \"x\"\n", []string{"t", "b"}, pos{3, 3}, pos{3, 9}},
		{"p.toml", "[t.u]\nv = [1, 2]\n", []string{"t", "u", "v"}, pos{2, 1}, pos{2, 5}},
		{"p.toml", "x.y = { z = true }\n", []string{"x", "y", "z"}, pos{1, 9}, pos{1, 13}},
		{"p.toml", "\"é\" = \"ü\"\nk = 'v'", []string{"k"}, pos{2, 1}, pos{2, 5}},
		{"p.toml", "ké = 1", nil, pos{}, pos{}},
		{"p.yaml", "t:\n  b:   x\n", []string{"t", "b"}, pos{2, 3}, pos{2, 8}},
		{"p.yaml", "t: {é: 1, b: [1]}\n", []string{"t", "b"}, pos{1, 11}, pos{1, 14}},
		{"p.json", "{\"t\": {\n  \"b\": \"x\"}}", []string{"t", "b"}, pos{2, 3}, pos{2, 8}},
		{"p.json", "{\"é\": 1, \"b\": [1]}", []string{"b"}, pos{1, 10}, pos{1, 15}},
	}
	for _, tt := range tests {
		n, err := Parse(tt.file, []byte(tt.doc))
		if tt.path == nil {
			if err == nil {
				t.Errorf("%s %q: want an error", tt.file, tt.doc)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %q: %v", tt.file, tt.doc, err)
		}
		var e Entry
		for _, k := range tt.path {
			e = entry(n, k)
			n = e.Value
		}
		if got := (pos{e.Line, e.Col}); got != tt.key {
			t.Errorf("%s %q: key at %v, want %v", tt.file, tt.doc, got, tt.key)
		}
		if got := (pos{n.Line, n.Col}); got != tt.val {
			t.Errorf("%s %q: value at %v, want %v", tt.file, tt.doc, got, tt.val)
		}
	}
}

func entry(n *Node, key string) Entry {
	for _, e := range n.Entries {
		if e.Key == key {
			return e
		}
	}
	return Entry{Value: &Node{}}
}

func TestParseValues(t *testing.T) {
	tests := []struct {
		file, doc string
		want      any
	}{
		{"v.toml", "a = 0x1F\nb = 0o17\nc = 0b11\nd = 1_000\ne = -3\nf = +4", map[string]any{"a": int64(31), "b": int64(15), "c": int64(3), "d": int64(1000), "e": int64(-3), "f": int64(4)}},
		{"v.toml", "a = 1.5\nb = 1e3\nc = -inf\nd = 6_0.0_1", map[string]any{"a": 1.5, "b": 1000.0, "c": math.Inf(-1), "d": 60.01}},
		{"v.toml", "a = 1979-05-27\nb = 07:32:00\nc = 1979-05-27 07:32:00\nd = 1979-05-27T07:32:00.5-07:00", map[string]any{"a": "1979-05-27", "b": "07:32:00", "c": "1979-05-27 07:32:00", "d": "1979-05-27T07:32:00.5-07:00"}},
		{"v.toml", "s = \"a\\tb\\u00e9\"\nl = 'c:\\x'\nm = \"\"\"\nline\"\"\"", map[string]any{"s": "a\tb\u00e9", "l": `c:\x`, "m": "line"}},
		{"v.toml", "[[a]]\nx = 1\n[a.b]\ny = 2\n[[a]]\n", map[string]any{"a": []any{map[string]any{"x": int64(1), "b": map[string]any{"y": int64(2)}}, map[string]any{}}}},
		{"v.toml", "[a.b.c]\n[a]\nd = 1\n", map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{}}, "d": int64(1)}}},
		{"v.toml", "[f]\napple.color = 'red'\n[f.apple.texture]\nsmooth = true\n", map[string]any{"f": map[string]any{"apple": map[string]any{"color": "red", "texture": map[string]any{"smooth": true}}}}},
		{"v.yaml", "", map[string]any{}},
		{"v.yaml", "a: 0x1F\nb: 1.5\nc: ~\nd: 'yes'\ne: yes\nf: 2001-12-14\ng: .nan\n", map[string]any{"a": int64(31), "b": 1.5, "c": nil, "d": "yes", "e": "yes", "f": "2001-12-14", "g": math.NaN()}},
		{"v.yaml", "base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n", map[string]any{"base": map[string]any{"x": int64(1), "y": int64(2)}, "use": map[string]any{"y": int64(3), "x": int64(1)}}},
		{"v.yaml", "- a\n- [1, 2]\n", []any{"a", []any{int64(1), int64(2)}}},
		{"v.json", `{"a": 1, "b": 1.0, "c": 1e2, "d": null, "e": [true, false], "f": "\u00e9"}`, map[string]any{"a": int64(1), "b": 1.0, "c": 100.0, "d": nil, "e": []any{true, false}, "f": "é"}},
		{"v.json", "\ufeff  \"x\"  ", "x"},
	}
	for _, tt := range tests {
		n, err := Parse(tt.file, []byte(tt.doc))
		if err != nil {
			t.Errorf("%s %q: %v", tt.file, tt.doc, err)
			continue
		}
		if diff := cmp.Diff(tt.want, n.Value(), cmpNaN); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tt.file, tt.doc, diff)
		}
	}
}

var cmpNaN = cmp.Comparer(func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) })

func TestParseErrors(t *testing.T) {
	tests := []struct {
		file, doc string
		want      Errors
	}{
		{"x.ini", "a=1", Errors{{File: "x.ini", Msg: `unknown config file extension ".ini"`, Valid: []string{".json", ".toml", ".yaml", ".yml"}}}},
		{"x.toml", "a = 1\na = 2\n", Errors{{File: "x.toml", Line: 2, Col: 1, Msg: `duplicate key "a" (first defined at line 1)`}}},
		{"x.toml", "[t]\n[t]\n[u]\n[u]\n", Errors{
			{File: "x.toml", Line: 2, Col: 2, Msg: "table [t] is already defined at line 1"},
			{File: "x.toml", Line: 4, Col: 2, Msg: "table [u] is already defined at line 3"},
		}},
		{"x.toml", "a = 1\n[a.b]\n", Errors{{File: "x.toml", Line: 2, Col: 2, Msg: "key a is already defined as an integer at line 1"}}},
		{"x.toml", "a = {x = 1}\n[a]\n", Errors{{File: "x.toml", Line: 2, Col: 2, Msg: "key a is already defined as an inline table at line 1"}}},
		{"x.toml", "a = [1]\n[[a]]\n", Errors{{File: "x.toml", Line: 2, Col: 3, Msg: "key a is already defined as a list at line 1"}}},
		{"x.toml", "[f]\napple.color = 1\n[f.apple]\n", Errors{{File: "x.toml", Line: 3, Col: 4, Msg: "table [f.apple] is already defined at line 2"}}},
		{"x.toml", "[a.b.c]\n[a]\nb.d = 1\n", Errors{{File: "x.toml", Line: 3, Col: 1, Msg: "key a.b is already defined as a table at line 1"}}},
		{"x.toml", "[t]\nx = { a = 1, a = 2 }\n", Errors{{File: "x.toml", Line: 2, Col: 14, Msg: `duplicate key "t.x.a" (first defined at line 2)`}}},
		{"x.toml", "a = \n", Errors{{File: "x.toml", Line: 1, Col: 5, Msg: "invalid TOML: unexpected character U+000A at start of value"}}},
		{"x.toml", "a = 20s\n", Errors{{File: "x.toml", Line: 1, Col: 7, Msg: "invalid TOML: strings must be quoted"}}},
		{"x.toml", "a = 9223372036854775808\n", Errors{{File: "x.toml", Line: 1, Col: 5, Msg: "invalid TOML: integer 9223372036854775808 is out of range (-2^63 to 2^63-1)"}}},
		{"x.toml", "a = 1979-13-01\n", Errors{{File: "x.toml", Line: 1, Col: 5, Msg: `invalid TOML: malformed date/time "1979-13-01"`}}},
		{"x.toml", "a = \"unterminated", Errors{{File: "x.toml", Line: 1, Col: 17, Msg: "invalid TOML: unterminated basic string"}}},
		{"x.yaml", "a: 1\na: 2\n", Errors{{File: "x.yaml", Line: 2, Col: 1, Msg: `duplicate key "a" (first defined at line 1)`}}},
		{"x.yaml", "a: b: c\n", Errors{{File: "x.yaml", Line: 1, Msg: "invalid YAML: mapping values are not allowed in this context"}}},
		{"x.yaml", "a: 1\n---\nb: 2\n", Errors{{File: "x.yaml", Line: 2, Col: 1, Msg: "a file must hold one YAML document; found another one here"}}},
		{"x.yaml", "a: !custom 1\n", Errors{{File: "x.yaml", Line: 1, Col: 4, Msg: "invalid YAML: unsupported tag !custom"}}},
		{"x.yaml", "? [a]\n: 1\n", Errors{{File: "x.yaml", Line: 1, Col: 3, Msg: "invalid YAML: keys must be plain strings"}}},
		{"x.json", "{\"a\": 1,\n \"a\": 2}", Errors{{File: "x.json", Line: 2, Col: 2, Msg: `duplicate key "a" (first defined at line 1)`}}},
		{"x.json", "{\"a\": [1, 2,]}", Errors{{File: "x.json", Line: 1, Col: 13, Msg: "invalid JSON: invalid character ']' looking for beginning of value"}}},
		{"x.json", "{\"a\": 1", Errors{{File: "x.json", Line: 1, Col: 8, Msg: "invalid JSON: unexpected end of input"}}},
		{"x.json", "{} {}", Errors{{File: "x.json", Line: 1, Col: 4, Msg: "invalid JSON: unexpected data after the top-level value"}}},
		{"x.json", "{\"a\": 1e999}", Errors{{File: "x.json", Line: 1, Col: 7, Msg: "invalid JSON: number 1e999 is out of range"}}},
	}
	for _, tt := range tests {
		_, err := Parse(tt.file, []byte(tt.doc))
		got, _ := err.(Errors)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s\ngot text: %v", tt.file, tt.doc, diff, err)
		}
	}
}

func TestParseFormatUnknown(t *testing.T) {
	_, err := ParseFormat("x", "ini", nil)
	want := `x: unknown config format "ini" (valid: json, toml, yaml)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestParseLimits(t *testing.T) {
	deep := make([]byte, 0, 2*maxDepth+10)
	for range maxDepth + 5 {
		deep = append(deep, '[')
	}
	for range maxDepth + 5 {
		deep = append(deep, ']')
	}
	for _, f := range []string{"d.json", "d.yaml"} {
		if _, err := Parse(f, deep); err == nil {
			t.Errorf("%s: nesting beyond %d levels should fail", f, maxDepth)
		}
	}
	if _, err := Parse("d.toml", append([]byte("a = "), deep...)); err == nil {
		t.Errorf("toml: nesting beyond %d levels should fail", maxDepth)
	}
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i, prev := 0, "a"; i < 8; i++ {
		name := string(rune('b' + i))
		bomb += name + ": &" + name + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = name
	}
	if _, err := Parse("bomb.yaml", []byte(bomb)); err == nil {
		t.Error("an alias bomb should fail")
	}
}

func TestNodeAt(t *testing.T) {
	doc := "a = 1\n[t]\nlist = [[1, 2], [3]]\n\"x.y\" = { z = \"q\" }\n[[r]]\nk = true\n"
	n, err := Parse("at.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]any{
		"":               n.Value(),
		"a":              int64(1),
		"t.list[0][1]":   int64(2),
		"t.list[1]":      []any{int64(3)},
		`t."x.y".z`:      "q",
		"r[0].k":         true,
		"missing":        nil,
		"t.list[2]":      nil,
		"t.list[x]":      nil,
		"t.list[0":       nil,
		".a":             nil,
		"a.b":            nil,
		`t."x.y`:         nil,
		"t..list":        nil,
		"t[0]":           nil,
		"r[0]k":          nil,
		"r[-1].k":        nil,
		`t."x.y".z.deep`: nil,
	}
	for path, want := range tests {
		if got := n.At(path).Value(); !cmp.Equal(want, got) {
			t.Errorf("At(%q) = %#v, want %#v", path, got, want)
		}
	}
}
