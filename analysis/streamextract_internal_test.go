package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/shell"
)

func TestStreamExtraction(t *testing.T) {
	type out struct {
		Into string
		OK   bool
	}
	for _, tc := range []struct {
		command string
		want    out
	}{
		{"tar xf -", out{"", true}},
		{"tar -x", out{"", true}}, // no -f: the archive is standard input
		{"tar -xzf - -C out", out{"out", true}},
		{"tar --extract --file=- --directory=build", out{"build", true}},
		{"tar xf dist/app.tar", out{"", false}}, // a file: its members are listed (archives)
		{"tar cf - x", out{"", false}},          // creates
		{"tar tf -", out{"", false}},            // lists
		{"cpio -idm", out{"", true}},
		{"cpio -id -D stage", out{"stage", true}},
		{"cpio -o", out{"", false}},
		{"unzip -", out{"", false}},
	} {
		s, err := shell.Parse(tc.command, shell.Options{})
		if err != nil || len(s.Commands) != 1 {
			t.Fatalf("%s: %v", tc.command, err)
		}
		into, ok := streamExtraction(s.Commands[0])
		if diff := cmp.Diff(tc.want, out{into, ok}); diff != "" {
			t.Errorf("streamExtraction(%q) (-want +got):\n%s", tc.command, diff)
		}
	}
}
