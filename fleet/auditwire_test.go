package fleet

import (
	"bytes"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

// pgxColumns encodes the columns as pgx does from slices (the slow path
// auditColumns replaces).
func pgxColumns(t testing.TB, times []time.Time, text [9][]string) [][]byte {
	m := pgtype.NewMap()
	var out [][]byte
	b, err := m.Encode(pgtype.TimestamptzArrayOID, pgtype.BinaryFormatCode, times, nil)
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, b)
	for _, col := range text {
		b, err := m.Encode(pgtype.TextArrayOID, pgtype.BinaryFormatCode, col, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// addRow adds the values of the ten columns but the time.
func addRow(c *auditColumns, t time.Time, row *[9]string) {
	c.add(t, (*[7]string)(row[:7]), []byte(row[7]), row[8])
}

// checkColumns builds the columns of records both ways and compares them.
func checkColumns(t testing.TB, times []time.Time, rows [][9]string) {
	t.Helper()
	var c auditColumns
	var text [9][]string
	for i, tm := range times {
		addRow(&c, tm, &rows[i])
		for j, v := range rows[i] {
			text[j] = append(text[j], v)
		}
	}
	got, want := c.params(), pgxColumns(t, times, text)
	for j := range want {
		if !bytes.Equal(got[j], want[j]) {
			t.Fatalf("column %d of %d records:\n got %x\nwant %x", j, len(times), got[j], want[j])
		}
	}
}

func TestAuditColumnsAsPgx(t *testing.T) {
	row := [9]string{"r0", "sha256:ab", "claude-code", "s1", "Bash", "allow", "mode.supervised", `{"time":"x"}`, "01a22593-10a7-749f-8e75-de57b6a43bbe"}
	odd := [9]string{"", "", "", "", "", "", "", "", ""}
	uni := [9]string{"réplica", "ポリシー", "a\tb", "s\nx", "🙂", "deny", "r", `{"args":"ö"}`, "x"}
	y2k := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name  string
		times []time.Time
		rows  [][9]string
	}{
		{"one", []time.Time{time.Date(2026, 11, 29, 4, 32, 4, 775245305, time.UTC)}, [][9]string{row}},
		{"before 2000, nanoseconds dropped", []time.Time{y2k.Add(-time.Nanosecond), y2k.Add(-1500 * time.Nanosecond)}, [][9]string{row, odd}},
		{"Y2K and the Unix epoch", []time.Time{y2k, time.Unix(0, 0)}, [][9]string{uni, row}},
		{"another zone", []time.Time{time.Date(2026, 3, 1, 12, 0, 0, 999, time.FixedZone("x", -7*3600))}, [][9]string{uni}},
		{"empty strings", []time.Time{y2k, y2k, y2k}, [][9]string{odd, odd, odd}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkColumns(t, tc.times, tc.rows) })
	}
}

// TestAuditColumnsReused checks that a group's buffers can be filled
// again after params (a new group of fewer records).
func TestAuditColumnsReused(t *testing.T) {
	var c auditColumns
	row := [9]string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	for range 3 {
		addRow(&c, time.Unix(1, 0), &row)
	}
	_ = c.params()
	c.reset()
	addRow(&c, time.Unix(2, 0), &row)
	var text [9][]string
	for j, v := range row {
		text[j] = []string{v}
	}
	want := pgxColumns(t, []time.Time{time.Unix(2, 0)}, text)
	for j, got := range c.params() {
		if !bytes.Equal(got, want[j]) {
			t.Fatalf("column %d: got %x, want %x", j, got, want[j])
		}
	}
}

// FuzzAuditColumns compares the columns with pgx's encoding for any
// strings, times and number of records.
func FuzzAuditColumns(f *testing.F) {
	f.Add(int64(0), int64(0), "r0", "allow", `{"a":1}`, uint8(1))
	f.Add(int64(-1), int64(999), "", "é", "", uint8(3))
	f.Add(int64(1<<40), int64(-5), "x\x00y", "\xff", "z", uint8(0))
	f.Fuzz(func(t *testing.T, sec, nsec int64, a, b, c string, n uint8) {
		tm := time.Unix(sec%(1<<37), nsec)
		var times []time.Time
		var rows [][9]string
		for i := range int(n%8) + 1 {
			times = append(times, tm.Add(time.Duration(i)*time.Microsecond))
			rows = append(rows, [9]string{a, b, c, a + b, b + c, c, a, b, c[:len(c)/2]})
		}
		checkColumns(t, times, rows)
	})
}
