package server

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fastBodies are request bodies with whether the scan decodes them (the
// others go to decodeStrict).
var fastBodies = []struct {
	body string
	fast bool
}{
	{`{"tool":"Bash","input":{"command":"git status && ls -la src"},"cwd":"/tmp/ws","agent":"claude-code","session":"s1"}`, true},
	{`{"tool":"Write","input":{"file_path":"/tmp/ws/a.txt","content":"hello"},"cwd":"/tmp/ws"}`, true},
	{` { "tool" : "Bash" , "input" : { "command" : "echo \"a\\tb\"\n\/x" , "timeout" : 120000 , "run_in_background" : false , "x" : null , "y" : -1.5e3 } , "will_run" : true , "try" : false } ` + "\n", true},
	{`{"tool":"Edit","input":{"file_path":"/tmp/é.txt","old_string":"ü","new_string":"中","replace_all":true}}`, true},
	{`{}`, true},
	{`{"input":{}}`, true},
	{`{"tool":"Bash","input":{"command":"ls","command":"pwd"}}`, true}, // the last wins, as in encoding/json
	{`{"tool":"Bash","input":{"command":"\u0041"}}`, false},
	{`{"tool":"Bash","input":{"command":["a"]}}`, false},
	{`{"tool":"Bash","input":{"o":{"a":1}}}`, false},
	{`{"tool":"Bash","policy":{"mode":"strict"}}`, false},
	{`{"Tool":"Bash"}`, false},
	{`{"tool":"Bash","tool":"Write"}`, false},
	{`{"tool":"Bash","input":{},"input":{}}`, false},
	{`{"tool":null}`, false},
	{`{"tool":"a` + "\xff" + `"}`, false},
	{`{"tool":"a` + "\x01" + `"}`, false},
	{`{"tool":"Bash"} x`, false},
	{`{"tool":"Bash",}`, false},
	{`{"input":{"n":01}}`, false},
	{`{"input":{"n":1e400}}`, false},
	{`{"input":{"n":-}}`, false},
	{`{"input":{"n":1.}}`, false},
	{`{"bogus":1}`, false},
	{`[]`, false},
	{``, false},
}

// TestDecodeCallFast: the scan decodes the usual bodies, declines the
// others, and what it decodes is what decodeStrict decodes.
func TestDecodeCallFast(t *testing.T) {
	for _, tc := range fastBodies {
		var got CallRequest
		if ok := decodeCallFast([]byte(tc.body), &got); ok != tc.fast {
			t.Errorf("%s: fast %v, want %v", tc.body, ok, tc.fast)
			continue
		}
		if tc.fast {
			checkSameAsStrict(t, []byte(tc.body), got)
		}
	}
	var req CallRequest
	if !decodeCallFast([]byte(fastBodies[2].body), &req) {
		t.Fatal("declined")
	}
	want := CallRequest{Tool: "Bash", WillRun: true, Input: map[string]any{
		"command": "echo \"a\\tb\"\n/x", "timeout": 120000.0, "run_in_background": false, "x": nil, "y": -1500.0,
	}}
	if diff := cmp.Diff(want, req); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestReadCallReusesBody: readCall gives its body buffer back for the
// next request, so what it decoded from one body (by the scan or by
// decodeStrict) must not change when the next is read into the same
// buffer: every request decoded is compared after all were read.
func TestReadCallReusesBody(t *testing.T) {
	s := &Server{}
	var got []CallRequest
	var want []CallRequest
	for _, tc := range fastBodies {
		var w CallRequest
		if decodeStrict([]byte(tc.body), &w, callFields) != nil {
			continue
		}
		r := httptest.NewRequest("POST", "/v1/decide", strings.NewReader(tc.body))
		r.Header.Set("Content-Type", "application/json")
		req, err := s.readCall(httptest.NewRecorder(), r)
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		got, want = append(got, req), append(want, w)
	}
	if len(got) < 10 {
		t.Fatalf("only %d bodies decoded", len(got))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded requests after the buffer's reuse (-want +got):\n%s", diff)
	}
}

// checkSameAsStrict fails unless decodeStrict decodes body to got.
func checkSameAsStrict(t *testing.T, body []byte, got CallRequest) {
	t.Helper()
	var want CallRequest
	if err := decodeStrict(body, &want, callFields); err != nil {
		t.Fatalf("%q: decoded by the scan, refused by decodeStrict: %v", body, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%q: (-strict +scan):\n%s", body, diff)
	}
}

// BenchmarkDecodeCall compares the scan with decodeStrict on a body as
// agents send it.
func BenchmarkDecodeCall(b *testing.B) {
	body := []byte(fastBodies[0].body)
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var req CallRequest
			if !decodeCallFast(body, &req) {
				b.Fatal("declined")
			}
		}
	})
	b.Run("strict", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var req CallRequest
			if err := decodeStrict(body, &req, callFields); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzDecodeCallFast: whatever the body, what the scan decodes is what
// decodeStrict decodes, without error.
func FuzzDecodeCallFast(f *testing.F) {
	for _, tc := range fastBodies {
		f.Add([]byte(tc.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var got CallRequest
		if decodeCallFast(body, &got) {
			checkSameAsStrict(t, body, got)
		}
	})
}
