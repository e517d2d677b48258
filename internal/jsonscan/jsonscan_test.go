package jsonscan

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// payload is a hook payload as Claude Code sends it.
const payload = `{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/home/u/proj","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_01ABC","tool_input":{"command":"git status && npm test","description":"Run tests","timeout":120000}}`

// TestSkip: Skip reads one value, checked as json.Valid checks it, and
// returns its bytes; End tells what follows.
func TestSkip(t *testing.T) {
	for _, tc := range []struct {
		in, raw string
		ok, end bool
	}{
		{in: ` {"a": [1, -2.5e+3, "x\"]}", {"b": null}], "c": true} `, raw: `{"a": [1, -2.5e+3, "x\"]}", {"b": null}], "c": true}`, ok: true, end: true},
		{in: `"\u00e9\n\/"`, raw: `"\u00e9\n\/"`, ok: true, end: true},
		{in: `[] x`, raw: `[]`, ok: true, end: false},
		{in: `0`, raw: `0`, ok: true, end: true},
		{in: `01`, raw: `0`, ok: true, end: false},
		{in: "\"\xff\"", raw: "\"\xff\"", ok: true, end: true}, // json.Valid does not check UTF-8
		{in: `{"a":1,}`},
		{in: `[1 2]`},
		{in: `{"a" 1}`},
		{in: `{1:2}`},
		{in: `"\x"`},
		{in: `"\u12g4"`},
		{in: "\"a\x01\""},
		{in: `"open`},
		{in: `-`},
		{in: `1.`},
		{in: `1e`},
		{in: `.5`},
		{in: `nul`},
		{in: `True`},
		{in: ``},
		{in: strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)},
	} {
		s := New([]byte(tc.in))
		raw, ok := s.Skip()
		if ok != tc.ok || string(raw) != tc.raw {
			t.Errorf("Skip(%q) = %q, %v; want %q, %v", tc.in, raw, ok, tc.raw, tc.ok)
			continue
		}
		if ok && s.End() != tc.end {
			t.Errorf("Skip(%q): End() = %v, want %v", tc.in, !tc.end, tc.end)
		}
	}
	deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if s := New([]byte(deep)); !skipsAll(&s) {
		t.Errorf("Skip declines %d nested arrays, MaxDepth", MaxDepth)
	}
}

func skipsAll(s *Scanner) bool {
	_, ok := s.Skip()
	return ok && s.End()
}

// TestStr: strings decode as encoding/json decodes them, except the ones
// the scan declines.
func TestStr(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{`"plain"`, "plain", true},
		{` ""`, "", true},
		{`"a\"b\\c\/d\be\ff\ng\rh\ti"`, "a\"b\\c/d\be\ff\ng\rh\ti", true},
		{`"é中"`, "é中", true},
		{`"\u0041"`, "", false},
		{"\"\xff\"", "", false},
		{"\"a\tb\"", "", false},
		{`"a`, "", false},
		{`'a'`, "", false},
		{`1`, "", false},
	} {
		s := New([]byte(tc.in))
		got, ok := s.Str()
		if got != tc.want || ok != tc.ok {
			t.Errorf("Str(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	for in, ok := range map[string]bool{`"a"`: true, `"a" `: false, ` "a"`: false, `"a""b"`: false, `a`: false, ``: false} {
		if _, got := Unquote([]byte(in)); got != ok {
			t.Errorf("Unquote(%q) ok = %v, want %v", in, got, ok)
		}
	}
}

// TestNewText: a scanner made by NewText reads what New reads, its plain
// strings are slices of the text (the bytes may be overwritten once the
// scan is done), and decoded ones (escapes, non-ASCII) are copies.
func TestNewText(t *testing.T) {
	const in = ` {"tool": "Bash", "cwd":"/tmp/ws","esc":"a\nb","utf":"é","n":1, "in":{"k":"v"}}`
	b := []byte(in)
	text := string(b)
	s := NewText(b, text)
	type member struct {
		Key   string
		Value any
		Slice bool // the value is a slice of text
	}
	var got []member
	var read func(key string) bool
	read = func(key string) bool {
		if key == "in" {
			return s.Members(read)
		}
		v, ok := s.Scalar()
		str, isStr := v.(string)
		got = append(got, member{key, v, isStr && inside(str, text)})
		return ok
	}
	if !s.Members(read) || !s.End() {
		t.Fatal("scan failed")
	}
	for i := range b {
		b[i] = 'x' // the strings read must not change
	}
	want := []member{
		{"tool", "Bash", true}, {"cwd", "/tmp/ws", true}, {"esc", "a\nb", false},
		{"utf", "é", false}, {"n", 1.0, false}, {"k", "v", true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NewText scan (-want +got):\n%s", diff)
	}
}

// inside reports whether s is a slice of text's bytes.
func inside(s, text string) bool {
	if s == "" {
		return false
	}
	p, start := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(text)))
	return p >= start && p+uintptr(len(s)) <= start+uintptr(len(text))
}

// TestScalar: strings, numbers, booleans and null decode to what
// encoding/json puts in an any; objects, arrays and numbers out of
// float64's range are declined.
func TestScalar(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any
		ok   bool
	}{
		{`"s"`, "s", true},
		{` -1.5e3`, -1500.0, true},
		{`0`, 0.0, true},
		{`120000`, 120000.0, true},
		{`true`, true, true},
		{`false`, false, true},
		{`null`, nil, true},
		{`1e400`, nil, false},
		{`-01`, math.Copysign(0, -1), true}, // reads -0; the 1 that follows is the caller's to refuse
		{`{}`, nil, false},
		{`[]`, nil, false},
		{`x`, nil, false},
	} {
		s := New([]byte(tc.in))
		got, ok := s.Scalar()
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("Scalar(%q) = %#v, %v; want %#v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// TestMembers: an object's keys in order, each value read by the caller.
func TestMembers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // key=raw value
		ok   bool
	}{
		{`{}`, nil, true},
		{` { "a" : 1 , "b":{"c":[]} , "a":"x" } `, []string{"a=1", `b={"c":[]}`, `a="x"`}, true},
		{`{"a\tb":1}`, []string{"a\tb=1"}, true},
		{`{"a":1,}`, []string{"a=1"}, false},
		{`{"a":1 "b":2}`, []string{"a=1"}, false},
		{`{"\u0061":1}`, nil, false},
		{`{"a"}`, nil, false},
		{`[]`, nil, false},
	} {
		s := New([]byte(tc.in))
		var got []string
		ok := s.Members(func(key string) bool {
			raw, ok := s.Skip()
			got = append(got, key+"="+string(raw))
			return ok
		})
		if ok != tc.ok || !cmp.Equal(got, tc.want) {
			t.Errorf("Members(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzScanner: whatever the input, what the scan accepts encoding/json
// accepts and decodes the same, and the scan accepts every valid input it
// is meant to read.
func FuzzScanner(f *testing.F) {
	for _, s := range []string{
		payload, `{"a":1,"a":"\u00e9\n"}`, `"\\u"`, `-0.5E-2`, `[true,false,null]`, "\"\xff\"", `{"x":}`, `01`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSkip(t, data)
		checkStr(t, data)
		checkObject(t, data)
	})
}

// checkSkip: Skip accepts data exactly when json.Valid does (data too
// short to nest deeper than MaxDepth), and returns all of it but space.
func checkSkip(t *testing.T, data []byte) {
	s := New(data)
	raw, ok := s.Skip()
	ok = ok && s.End()
	if want := json.Valid(data); ok != want && len(data) <= MaxDepth {
		t.Fatalf("Skip(%q) accepts %v, json.Valid %v", data, ok, want)
	}
	if ok && !bytes.Equal(raw, bytes.TrimSpace(data)) {
		t.Fatalf("Skip(%q) = %q", data, raw)
	}
}

// checkStr: Unquote decodes what json.Unmarshal decodes, and declines
// only \u escapes, bytes that are not UTF-8 and white space around the
// string.
func checkStr(t *testing.T, data []byte) {
	got, ok := Unquote(data)
	var want string
	err := json.Unmarshal(data, &want)
	if ok && (err != nil || got != want) {
		t.Fatalf("Unquote(%q) = %q, json.Unmarshal %q, %v", data, got, want, err)
	}
	mayDecline := bytes.Contains(data, []byte(`\u`)) || !utf8.Valid(data) || len(bytes.TrimSpace(data)) != len(data)
	if !ok && err == nil && !mayDecline {
		t.Fatalf("Unquote(%q) declines what json.Unmarshal decodes to %q", data, want)
	}
}

// checkObject: an object of scalars decodes to the map json.Unmarshal
// decodes it to, the last of repeated keys winning.
func checkObject(t *testing.T, data []byte) {
	s := New(data)
	got := map[string]any{}
	ok := s.Members(func(key string) bool {
		v, ok := s.Scalar()
		got[key] = v
		return ok
	}) && s.End()
	if !ok {
		return
	}
	var want map[string]any
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("Members(%q) accepts what json.Unmarshal refuses: %v", data, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Members(%q) (-json +scan):\n%s", data, diff)
	}
}

// BenchmarkScan compares the scan with encoding/json on a hook payload:
// checking it (Skip, json.Valid) and splitting it into raw members
// (Members, json.Unmarshal into a map of json.RawMessage).
func BenchmarkScan(b *testing.B) {
	data := []byte(payload)
	b.Run("skip", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if s := New(data); !skipsAll(&s) {
				b.Fatal("declined")
			}
		}
	})
	b.Run("json.Valid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !json.Valid(data) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("members", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := New(data)
			m := make(map[string][]byte, 16)
			if !s.Members(func(key string) bool {
				raw, ok := s.Skip()
				m[key] = raw
				return ok
			}) {
				b.Fatal("declined")
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(data, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
