package audit

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolguard/toolguard/risk"
)

// lineTimeAgrees checks lineTime against parseLine, the whole-record
// decode firstTime used before: on every line a whole record parses from,
// lineTime gives the same time. (lineTime may also take the time of a valid
// JSON line whose other fields do not parse as a Record: a record of a
// later version, say; parseLine would skip it.)
func lineTimeAgrees(t *testing.T, line []byte) {
	t.Helper()
	r, err := parseLine(line)
	if err != nil {
		return
	}
	got, err2 := lineTime(line)
	if err2 != nil || !got.Equal(r.Time) || got.Location() != r.Time.Location() {
		t.Errorf("line %q: lineTime = %v, %v; parseLine = %v", line, got, err2, r.Time)
	}
}

// randomRecordLines are lines as the writer writes them, with random
// times, verdicts and strings, and cut or altered copies of them.
func randomRecordLines(rng *rand.Rand, n int) [][]byte {
	verdicts := []risk.Verdict{risk.Allow, risk.Ask, risk.Deny}
	words := []string{"", "git status", "rm -rf ~", `"quoted"`, "a\nb", "\xff", `{"time":"2020-01-01T00:00:00Z"}`, "é"}
	var out [][]byte
	for range n {
		r := Record{
			Time:    time.Unix(rng.Int64N(1<<34), rng.Int64N(1e9)).UTC(),
			Tool:    words[rng.IntN(len(words))],
			Args:    words[rng.IntN(len(words))],
			Reason:  words[rng.IntN(len(words))],
			Verdict: verdicts[rng.IntN(len(verdicts))],
			Rule:    "r",
		}
		if rng.IntN(8) == 0 {
			r.Time = time.Time{}
		}
		line := r.AppendJSON(nil)
		out = append(out, line)
		cut := line[:rng.IntN(len(line)+1)]
		out = append(out, cut)
		alt := []byte(strings.Replace(string(line), `"verdict":"`, `"verdict":"x`, 1))
		out = append(out, alt)
		dup := []byte(strings.Replace(string(line), `{`, `{"time":"2001-02-03T04:05:06Z",`, 1))
		out = append(out, dup)
	}
	return out
}

func TestLineTimeMatchesParseLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, line := range randomRecordLines(rng, 2000) {
		lineTimeAgrees(t, line)
	}
}

// firstTime over a file of writer-written lines (some cut or blank) is the
// time of the first whole record.
func TestFirstTimeIsFirstWholeRecord(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	for i := range 200 {
		lines := randomRecordLines(rng, 1+rng.IntN(4))
		var want time.Time
		for _, l := range lines {
			if r, err := parseLine(l); err == nil && !r.Time.IsZero() {
				want = r.Time
				break
			}
		}
		var data []byte
		for _, l := range lines {
			data = append(append(data, l...), '\n')
		}
		if len(data) > 16<<10 {
			continue
		}
		name := filepath.Join(dir, "log")
		if err := os.WriteFile(name, data, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		got := firstTime(f)
		f.Close()
		// A line parseLine rejects only for its verdict may come first and
		// give its time; every other line is judged alike.
		if !got.Equal(want) && !strings.Contains(string(data), `"verdict":"x`) {
			t.Errorf("case %d: firstTime = %v, want %v; file:\n%s", i, got, want, data)
		}
	}
}

// lineTimeIsJSON checks lineTime, whose fast path skips encoding/json's
// decoder, against json.Unmarshal of the whole line, which it stands for.
func lineTimeIsJSON(t *testing.T, line []byte) {
	t.Helper()
	var r struct {
		Time time.Time `json:"time"`
	}
	err := json.Unmarshal(bytes.TrimSpace(line), &r)
	got, err2 := lineTime(line)
	if (err == nil) != (err2 == nil) || !got.Equal(r.Time) || got.Format(time.RFC3339Nano) != r.Time.Format(time.RFC3339Nano) {
		t.Errorf("line %q: lineTime = %v, %v; json.Unmarshal = %v, %v", line, got, err2, r.Time, err)
	}
}

// leadingTimeCases are lines near the fast path's edges: a later member
// json.Unmarshal would take as the time (another case, an escape, a
// Unicode fold), invalid JSON after the time, odd time text.
var leadingTimeCases = []string{
	`{"time":"2026-11-29T01:51:08.564702439Z","agent":"claude-code","args":"git status"}`,
	`  {"time":"2026-11-29T01:51:08Z"}  `,
	`{"time":"2026-11-29T01:51:08+02:00","n":1.5,"b":true,"x":null,"l":[1,{"a":"b"}]}`,
	`{"time":"2026-11-29T01:51:08Z","Time":"2001-02-03T04:05:06Z"}`,
	`{"time":"2026-11-29T01:51:08Z","TIME":"2001-02-03T04:05:06Z"}`,
	`{"time":"2026-11-29T01:51:08Z","time":"2001-02-03T04:05:06Z"}`,
	`{"time":"2026-11-29T01:51:08Z","tıme":"2001-02-03T04:05:06Z"}`,
	`{"time":"2026-11-29T01:51:08Z","tİme":"2001-02-03T04:05:06Z"}`,
	`{"time":"2026-11-29T01:51:08Z","a":{"time":"2001-02-03T04:05:06Z"}}`,
	`{"time":"2026-11-29T01:51:08Z","args":"echo "time""}`,
	`{"time":"2026-11-29T01:51:08Z","args":"é"}`,
	`{"time":"2026-11-29T01:51:08Z","args":"a>b"}`,
	`{"time":"2026-11-29T01:51:08Z",}`,
	`{"time":"2026-11-29T01:51:08Z","a":}`,
	`{"time":"2026-11-29T01:51:08Z"}}`,
	`{"time":"2026-11-29T01:51:08Z"`,
	`{"time":"2026-11-29T01:51:08Z"} x`,
	`{"time":"2026-11-29T01:51:08z"}`,
	`{"time":"2026-11-29T1:51:08Z"}`,
	`{"time":"2026-11-29"}`,
	`{"time":""}`,
	`{"time":"2026-11-29T01:51:08Z"}`,
	`{"time":null}`,
	`{"time":"0001-01-01T00:00:00Z"}`,
	`{"time" :"2026-11-29T01:51:08Z"}`,
	`{}`,
	``,
}

func TestLineTimeIsJSON(t *testing.T) {
	for _, line := range leadingTimeCases {
		lineTimeIsJSON(t, []byte(line))
	}
	if _, ok := leadingTime([]byte(leadingTimeCases[0])); !ok {
		t.Errorf("leadingTime refused a record as the writer writes it: %s", leadingTimeCases[0])
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, line := range randomRecordLines(rng, 2000) {
		lineTimeIsJSON(t, line)
	}
}

func FuzzLineTime(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, line := range randomRecordLines(rng, 4) {
		f.Add(line)
	}
	for _, line := range leadingTimeCases {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		lineTimeAgrees(t, line)
		lineTimeIsJSON(t, line)
	})
}
