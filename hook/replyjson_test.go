package hook

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/jsonquote/jsonquotetest"
)

// stdMarshal is the encoding the hand-written one replaced: json.Encoder
// without HTML escaping, one line. The tests hold marshal to it.
func stdMarshal(t testing.TB, v any) string {
	t.Helper()
	b, err := oldMarshal(v)
	if err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return string(b)
}

// oldMarshal is marshal as it was before, kept for the tests and the
// benchmarks.
func oldMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	return buf.Bytes(), err
}

// TestMarshalReplies pins the exact replies of the shapes the adapters send.
func TestMarshalReplies(t *testing.T) {
	tests := []struct {
		name string
		v    jsonAppender
		want string
	}{
		{"claude pre allow", claudeOutput{claudePreToolUse{HookEventName: "PreToolUse", PermissionDecision: "allow", PermissionDecisionReason: "toolguard allowed this call (rule r)."}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"toolguard allowed this call (rule r)."}}`},
		{"claude pre no reason", claudeOutput{claudePreToolUse{HookEventName: "PreToolUse", PermissionDecision: "deny"}},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`},
		{"claude permission allow", claudeOutput{claudePermissionRequest{HookEventName: "PermissionRequest", Decision: claudePermDecision{Behavior: "allow"}}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}`},
		{"claude permission deny", claudeOutput{claudePermissionRequest{HookEventName: "PermissionRequest", Decision: claudePermDecision{Behavior: "deny", Message: `no "x" <&>`}}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no \"x\" <&>"}}}`},
		{"claude nil", claudeOutput{}, `{"hookSpecificOutput":null}`},
		{"cursor allow", cursorOutput{Permission: "allow"}, `{"permission":"allow"}`},
		{"cursor deny", cursorOutput{Permission: "deny", UserMessage: "u\n", AgentMessage: "a\t"}, `{"permission":"deny","user_message":"u\n","agent_message":"a\t"}`},
		{"cursor agent only", cursorOutput{Permission: "ask", AgentMessage: "a"}, `{"permission":"ask","agent_message":"a"}`},
		{"cursor empty", cursorOutput{}, `{"permission":""}`},
		{"docker bare", dockerOutput{dockerSpecific{HookEventName: "permission_request"}},
			`{"hook_specific_output":{"hook_event_name":"permission_request"}}`},
		{"docker empty map", dockerOutput{dockerSpecific{HookEventName: "e", Metadata: map[string]string{}}},
			`{"hook_specific_output":{"hook_event_name":"e"}}`},
		{"docker full", dockerOutput{dockerSpecific{HookEventName: "tool_guard", PermissionDecision: "ask", PermissionDecisionReason: "why\u2028", Metadata: map[string]string{"rule": "r", "blast_radius": "local", "category": "", "\x01": "\xff"}}},
			`{"hook_specific_output":{"hook_event_name":"tool_guard","permission_decision":"ask","permission_decision_reason":"why\u2028","metadata":{"\u0001":"\ufffd","blast_radius":"local","category":"","rule":"r"}}}`},
		{"gemini allow", geminiOutput{Decision: "allow"}, `{"decision":"allow"}`},
		{"gemini deny", geminiOutput{Decision: "deny", Reason: "é…"}, `{"decision":"deny","reason":"é…"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(marshal(tt.v))
			if diff := cmp.Diff(tt.want+"\n", got); diff != "" {
				t.Errorf("marshal (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(stdMarshal(t, tt.v), got); diff != "" {
				t.Errorf("marshal (-encoding/json +marshal):\n%s", diff)
			}
		})
	}
}

// replyTypes is every type with an appendJSON method, each with the values
// its interface fields are filled with (claudeOutput's hookSpecificOutput).
var replyTypes = []struct {
	v     jsonAppender
	picks []jsonAppender
}{
	{claudeOutput{}, []jsonAppender{claudePreToolUse{}, claudePermissionRequest{}}},
	{claudePreToolUse{}, nil},
	{claudePermissionRequest{}, nil},
	{claudePermDecision{}, nil},
	{cursorOutput{}, nil},
	{dockerOutput{}, nil},
	{dockerSpecific{}, nil},
	{geminiOutput{}, nil},
	{copilotPre{}, nil},
	{copilotPerm{}, nil},
	{pluginOutput{}, nil},
	{clineOutput{}, nil},
	{geminiSpecific{}, nil},
}

// TestMarshalMatchesEncodingJSON fills every reply type by reflection, all
// of its fields at once and each alone, with every sample string, and holds
// marshal to encoding/json. A field added to a reply without teaching
// appendJSON about it makes this fail: encoding/json writes it, marshal
// does not.
func TestMarshalMatchesEncodingJSON(t *testing.T) {
	for _, rt := range replyTypes {
		for _, pick := range append(rt.picks, nil) {
			typ := reflect.TypeOf(rt.v)
			n := countLeaves(t, typ, pick)
			checkFilled(t, typ, n, pick)
		}
	}
}

// checkFilled reports the first mismatch of a type, not all of them.
func checkFilled(t *testing.T, typ reflect.Type, leaves int, pick jsonAppender) {
	t.Helper()
	for _, s := range jsonquotetest.Samples {
		for only := -1; only < leaves; only++ {
			v := reflect.New(typ).Elem()
			f := filler{t: t, s: s, only: only, pick: pick}
			f.fill(v)
			if !sameAsStd(t, v.Interface().(jsonAppender)) {
				return
			}
		}
	}
}

func sameAsStd(t *testing.T, v jsonAppender) bool {
	t.Helper()
	diff := cmp.Diff(stdMarshal(t, v), string(marshal(v)))
	if diff != "" {
		t.Errorf("%T %+v (-encoding/json +marshal):\n%s", v, v, diff)
	}
	return diff == ""
}

func countLeaves(t *testing.T, typ reflect.Type, pick jsonAppender) int {
	f := filler{t: t, only: -2, pick: pick}
	f.fill(reflect.New(typ).Elem())
	return f.leaf
}

// filler sets the leaves (non-struct fields) of a value: all of them when
// only is -1, else just leaf number only. Strings get s, maps a few entries
// built from s, other scalars a non-zero value, interfaces a filled pick.
type filler struct {
	t    *testing.T
	s    string
	only int
	leaf int // leaves seen so far
	pick jsonAppender
}

func (f *filler) fill(v reflect.Value) {
	if v.Kind() == reflect.Struct {
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() { // encoding/json skips the others
				f.fill(v.Field(i))
			}
		}
		return
	}
	if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Struct {
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(v.Elem())
		return
	}
	if v.Kind() == reflect.Interface && f.pick != nil {
		inner := reflect.New(reflect.TypeOf(f.pick)).Elem()
		f.fill(inner)
		v.Set(inner)
		return
	}
	set := f.only == -1 || f.only == f.leaf
	f.leaf++
	if set {
		f.setLeaf(v)
	}
}

func (f *filler) setLeaf(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(f.s)
	case reflect.Map:
		m := map[string]string{f.s: f.s, "k" + f.s: "v", "a": f.s, "\x00" + f.s: ""}
		v.Set(reflect.ValueOf(m))
	case reflect.Slice: // a json.RawMessage: an object holding the sample
		raw, err := json.Marshal(map[string]any{"command": f.s, "k" + f.s: []string{f.s}, "n": 1})
		if err != nil {
			f.t.Fatal(err)
		}
		v.SetBytes(raw)
	case reflect.Interface: // left nil: writes null
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(-7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	default:
		f.t.Fatalf("filler cannot fill a %s; teach it, and appendJSON", v.Type())
	}
}

// TestReplyTypesListed makes sure replyTypes names every type with an
// appendJSON method, so a new reply is held to encoding/json too.
func TestReplyTypesListed(t *testing.T) {
	var listed []string
	for _, rt := range replyTypes {
		listed = append(listed, reflect.TypeOf(rt.v).Name())
	}
	if diff := cmp.Diff(appendJSONReceivers(t), listed, cmpSorted); diff != "" {
		t.Errorf("replyTypes (-declared +listed):\n%s", diff)
	}
}

var cmpSorted = cmp.Transformer("sorted", func(s []string) []string {
	return slices.Sorted(slices.Values(s))
})

// appendJSONReceivers reads the package's source for appendJSON methods.
func appendJSONReceivers(t *testing.T) []string {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name == "appendJSON" {
				names = append(names, receiverName(fn.Recv.List[0].Type))
			}
		}
	}
	return names
}

func receiverName(e ast.Expr) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}
