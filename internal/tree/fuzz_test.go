package tree

import (
	"errors"
	"strings"
	"testing"
)

// checkNoInternalError fails when parsing or decoding hit a recovered panic
// or returned an error of another type than Errors.
func checkNoInternalError(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var es Errors
	if !errors.As(err, &es) || len(es) == 0 {
		t.Fatalf("error is not a non-empty Errors: %#v", err)
	}
	for _, e := range es {
		if strings.Contains(e.Msg, "internal error") || e.Line < 0 || e.Col < 0 {
			t.Fatalf("bad error: %v", e)
		}
	}
}

func fuzzParse(f *testing.F, file string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse(file, data)
		checkNoInternalError(t, err)
		if err == nil {
			var c TestConfig
			checkNoInternalError(t, Decode(n, file, &c))
		}
	})
}

func FuzzParseTOML(f *testing.F) {
	fuzzParse(f, "f.toml", fullTOML, "a = [1, [2, {x = 3}]]\n[[t]]\n[t.u]\n", "a.b.c = 1\n[a]\nb.d = 2\n")
}

func FuzzParseYAML(f *testing.F) {
	fuzzParse(f, "f.yaml", fullYAML, "a: &x [1, *x]\n", "b: &y {k: 1}\nc:\n  <<: [*y]\n")
}

func FuzzParseJSON(f *testing.F) {
	fuzzParse(f, "f.json", fullJSON, `[1, {"a": [null, 1e5, -0]}]`, `{"a": 1, "a": 2}`)
}

// FuzzDecode decodes arbitrary documents of any format into several Go
// shapes: the typed config, a generic map and an untyped value.
func FuzzDecode(f *testing.F) {
	f.Add(uint8(0), []byte(fullTOML))
	f.Add(uint8(1), []byte(fullYAML))
	f.Add(uint8(2), []byte(fullJSON))
	f.Add(uint8(1), []byte("profiles: {a: {levels: [1, low, {}]}}\nrules: [[]]\n"))
	f.Fuzz(func(t *testing.T, format uint8, data []byte) {
		file := [...]string{"f.toml", "f.yaml", "f.json"}[format%3]
		n, err := Parse(file, data)
		checkNoInternalError(t, err)
		if err != nil {
			return
		}
		var c TestConfig
		_, err = DecodeMeta(n, file, &c)
		checkNoInternalError(t, err)
		var m map[string]Profile
		checkNoInternalError(t, Decode(n, file, &m))
		var v any
		checkNoInternalError(t, Decode(n, file, &v))
	})
}
