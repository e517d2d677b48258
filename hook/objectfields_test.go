package hook

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestObjectFields(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		noRepeats bool
		want      map[string]string
		err       string
	}{
		{name: "members", in: ` {"a": 1, "b" :"x\"y", "c":{"d":[1,{"e":"]}"}]},"f":null,"g":true} `,
			want: map[string]string{"a": `1`, "b": `"x\"y"`, "c": `{"d":[1,{"e":"]}"}]}`, "f": `null`, "g": `true`}},
		{name: "empty", in: `{}`, want: map[string]string{}},
		{name: "escaped and non-ASCII keys", in: `{"a\u0062":1,"é":2,"\ud800":3}`,
			want: map[string]string{"ab": `1`, "é": `2`, "\ufffd": `3`}},
		{name: "last wins", in: `{"a":1,"a":-2.5e3}`, want: map[string]string{"a": `-2.5e3`}},
		{name: "no repeats", in: `{"a":1,"a":2}`, noRepeats: true, err: `the key "a" appears twice`},
		{name: "not an object", in: `[1]`, err: "the payload is not a JSON object"},
		{name: "trailing data", in: `{"a":1} {}`, want: map[string]string{"a": `1`}, err: "there is data after its JSON object"},
		{name: "malformed", in: `{"a":}`, err: "invalid character '}' looking for beginning of value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := objectFields([]byte(tc.in), tc.noRepeats)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			var gotMap map[string]string
			if got != nil {
				gotMap = map[string]string{}
				for k, v := range got {
					gotMap[k] = string(v)
				}
			}
			if diff := cmp.Diff(tc.want, gotMap); diff != "" {
				t.Errorf("members (-want +got):\n%s", diff)
			}
			if gotErr != tc.err {
				t.Errorf("error = %q, want %q", gotErr, tc.err)
			}
		})
	}
}

// FuzzObjectFields: the scan of a valid object gives what Go's decoder
// gives, and plainString what json.Unmarshal gives.
func FuzzObjectFields(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"s","tool_name":"Read","tool_input":{"file_path":"/tmp/a b"},"n":[1,2,{"x":"}"}]}`,
		`{"a\\":"\u00e9\n","a\\":1}`, `{}`, ` { "k" : [ ] } `, `{"x":"\xff"}`, `[1,2]`, `"str"`, `{"a":1}x`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, noRepeats bool) {
		want, wantErr := objectFieldsDecoder(data, noRepeats)
		got, ok, gotErr := splitObject(data, noRepeats)
		if ok {
			if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
				t.Fatalf("%q: error %v, the decoder's %v", data, gotErr, wantErr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%q: members (-decoder +scan):\n%s", data, diff)
			}
		}
		for _, raw := range want {
			if v, ok := plainString(raw); ok {
				var u string
				if err := json.Unmarshal(raw, &u); err != nil || u != v {
					t.Fatalf("plainString(%q) = %q, json.Unmarshal: %q, %v", raw, v, u, err)
				}
			}
		}
	})
}
