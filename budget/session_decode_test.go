package budget

import (
	"encoding/json"
	"testing"
	"time"
)

// startCases are session start files: what this package writes, and
// shapes near it that the fast path must leave to encoding/json.
var startCases = []string{
	"{\"start\":\"2026-11-29T01:40:05.511223344Z\"}\n",
	"{\"start\":\"2026-11-29T01:40:05.511223344Z\"}",
	"{\"start\":\"2026-11-29T01:40:05+02:00\"}\n",
	"{\"start\":\"2026-11-29T01:40:05-07:30\"}\n",
	"{\"start\":\"0001-01-01T00:00:00Z\"}\n",
	"{\"start\":\"\"}\n",
	"{\"start\":\"2026-11-29\"}\n",
	"{\"start\":\"2026-13-29T01:40:05Z\"}\n",
	"{\"start\":\"2026-11-29T01:40:05z\"}\n",
	"{\"start\":\"2026-11-29t01:40:05Z\"}\n",
	"{\"start\":\"2026-11-29T01:40:05Z\"}\n\n",
	"{\"start\":\"2026-11-29T01:40:05Z\"} \n",
	"{\"start\":\"2026-11-29T01:40:05Z\"}x",
	"{\"start\": \"2026-11-29T01:40:05Z\"}\n",
	"{\"Start\":\"2026-11-29T01:40:05Z\"}\n",
	"{\"start\":\"2026-11-29T01:40:05\\u005a\"}\n",
	"{\"start\":\"2026-11-29T01:40:05Z\",\"x\":1}\n",
	"{\"start\":null}\n",
	"{\"start\":\"2026-11-29T01:40:05Z\"",
	"{}",
	"",
	"not json",
}

// TestDecodeStart checks the fast path against json.Unmarshal, and that it
// is taken for what json.Marshal writes.
func TestDecodeStart(t *testing.T) {
	for _, in := range startCases {
		checkDecodeStart(t, []byte(in))
	}
	want := time.Date(2026, 11, 29, 1, 40, 5, 511223344, time.FixedZone("", 2*3600))
	data, err := json.Marshal(sessionStartFile{Start: want})
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if _, ok := plainStart(data); !ok {
		t.Errorf("plainStart(%q) refused what json.Marshal writes", data)
	}
	if got, ok := decodeStart(data); !ok || !got.Equal(want) {
		t.Errorf("decodeStart(%q) = %v, %v; want %v", data, got, ok, want)
	}
}

func checkDecodeStart(t *testing.T, data []byte) {
	t.Helper()
	got, ok := decodeStart(data)
	var f sessionStartFile
	wantOK := json.Unmarshal(data, &f) == nil
	if ok != wantOK || got.Format(time.RFC3339Nano) != f.Start.Format(time.RFC3339Nano) || !got.Equal(f.Start) {
		t.Errorf("decodeStart(%q) = %v, %v; json.Unmarshal gives %v, %v", data, got, ok, f.Start, wantOK)
	}
}

// FuzzDecodeStart compares decodeStart with json.Unmarshal on any file.
func FuzzDecodeStart(f *testing.F) {
	for _, in := range startCases {
		f.Add([]byte(in))
	}
	f.Fuzz(checkDecodeStart)
}
