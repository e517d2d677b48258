package docblock

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReplace(t *testing.T) {
	doc := "# T\n\n<!-- begin figs -->\n| a | 1 |\n<!-- end figs -->\ntail\n"
	for _, tc := range []struct {
		name, body, want, old, err string
	}{
		{name: "figs", body: "| a | 2 |", want: "# T\n\n<!-- begin figs -->\n| a | 2 |\n<!-- end figs -->\ntail\n", old: "| a | 1 |\n"},
		{name: "figs", body: "", want: "# T\n\n<!-- begin figs -->\n<!-- end figs -->\ntail\n", old: "| a | 1 |\n"},
		{name: "other", err: `no line "<!-- begin other -->"`},
	} {
		out, old, err := Replace(doc, tc.name, tc.body)
		if fmt.Sprint(err) != fmt.Sprint(errOrNil(tc.err)) {
			t.Errorf("%s: err %v, want %s", tc.name, err, tc.err)
			continue
		}
		if diff := cmp.Diff(tc.want, out); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", tc.name, diff)
		}
		if old != tc.old {
			t.Errorf("%s: old %q, want %q", tc.name, old, tc.old)
		}
	}
	if _, _, err := Replace("<!-- begin x -->\nno end\n", "x", "y"); err == nil || !strings.Contains(err.Error(), "no line") {
		t.Errorf("missing end: err %v", err)
	}
	if _, _, err := Replace("<!-- begin x -->\n<!-- end x -->\n<!-- begin x -->\n<!-- end x -->\n", "x", "y"); err == nil {
		t.Error("a block named twice was accepted")
	}
}

func errOrNil(s string) error {
	if s == "" {
		return nil
	}
	return fmt.Errorf("%s", s)
}

// recorder records whether Check failed t.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Errorf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }
func (r *recorder) Logf(string, ...any)               {}

func TestCheck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(file, []byte("x\n<!-- begin n -->\nold\n<!-- end n -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Check(r, file, "n", "old\n", false)
	if r.failed != "" {
		t.Fatalf("an equal block failed: %s", r.failed)
	}
	Check(r, file, "n", "new\n", false)
	if !strings.Contains(r.failed, `"old"`) || !strings.Contains(r.failed, `"new"`) || !strings.Contains(r.failed, "-update") {
		t.Fatalf("a different block: %q, want the two lines and how to update", r.failed)
	}
	r.failed = ""
	Check(r, file, "n", "new\n", true)
	data, _ := os.ReadFile(file)
	if r.failed != "" || string(data) != "x\n<!-- begin n -->\nnew\n<!-- end n -->\n" {
		t.Fatalf("update: failed %q, file %q", r.failed, data)
	}
}
