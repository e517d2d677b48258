package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuotedPaths(t *testing.T) {
	for _, tc := range []struct {
		code string
		want []quotedLit
	}{
		{`open("/etc/hosts")`, []quotedLit{{text: "/etc/hosts"}}},
		{`shutil.rmtree("~/x"); os.remove('/tmp/y')`, []quotedLit{{text: "~/x"}, {text: "/tmp/y"}}},
		{`glob(__DIR__ . '/../var/cache/*.php')`, []quotedLit{{text: "/../var/cache/*.php", joined: true}}},
		{`const p = base + "/out";`, []quotedLit{{text: "/out", joined: true}}},
		{`fs.readFileSync(os.homedir() + "/.ssh/id_rsa")`, []quotedLit{{text: "/.ssh/id_rsa", joined: true, home: true}}},
		{`my $p = $ENV{HOME} . "/.bashrc";`, []quotedLit{{text: "/.bashrc", joined: true, home: true}}},
		{`p = os.path.expanduser("~") + "/.aws/credentials"`, []quotedLit{{text: "~"}, {text: "/.aws/credentials", joined: true, home: true}}},
		{"x = \"rel/path\"; y = 'a.txt'", nil},
	} {
		if diff := cmp.Diff(tc.want, quotedPaths(tc.code), cmp.AllowUnexported(quotedLit{})); diff != "" {
			t.Errorf("quotedPaths(%q) (-want +got):\n%s", tc.code, diff)
		}
	}
}
