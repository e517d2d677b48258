package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCodePathsComments: a comment opener in other languages' code is not
// the root's entries; a quoted /* still is, as are real paths beside it.
func TestCodePathsComments(t *testing.T) {
	for _, tc := range []struct {
		code string
		want []string
	}{
		{"SELECT 1 /*!50000 ; DROP TABLE users */", nil},
		{"SELECT /*+ INDEX(t) */ * FROM t", nil},
		{"/** doc */ int x = 1; /* note */", nil},
		{`system("rm -rf /*")`, []string{"/*"}},
		{"open('/etc/passwd') /* read */", []string{"/etc/passwd"}},
		{"q_not = ~q1 /* comment */ ; x = ~/notes", []string{"~/notes"}},
	} {
		if diff := cmp.Diff(tc.want, codePaths(tc.code, "")); diff != "" {
			t.Errorf("codePaths(%q) (-want +got):\n%s", tc.code, diff)
		}
	}
}
