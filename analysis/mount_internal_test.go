package analysis

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseMount(t *testing.T) {
	type got struct {
		Host, Inside string
		ReadOnly, OK bool
	}
	for _, tc := range []struct {
		value string
		want  got
	}{
		{"/home/dev/project:/src", got{"/home/dev/project", "/src", false, true}},
		{"./:/src", got{"./", "/src", false, true}},
		{"~/.ssh:/k:ro", got{"~/.ssh", "/k", true, true}},
		{"/etc/hosts:/etc/hosts:ro,z", got{"/etc/hosts", "/etc/hosts", true, true}},
		{"/data:/data:rw", got{"/data", "/data", false, true}},
		{"/data:/data:Z", got{"/data", "/data", false, true}},
		{"data:/data", got{OK: false}},          // a named volume
		{"/data", got{OK: false}},               // an anonymous volume at /data
		{"/data:relative", got{OK: false}},      // not a container path
		{"C:\\Users\\dev:/src", got{OK: false}}, // not a path of this machine
		{"type=bind,source=/home/dev,target=/h", got{"/home/dev", "/h", false, true}},
		{"type=bind,src=/w,dst=/w,readonly", got{"/w", "/w", true, true}},
		{"type=bind,src=/w,dst=/w,readonly=true", got{"/w", "/w", true, true}},
		{"type=bind,src=/w,dst=/w,readonly=false", got{"/w", "/w", false, true}},
		{"type=bind,src=/w,destination=/w,ro", got{"/w", "/w", true, true}},
		{"type=volume,source=cache,target=/c", got{OK: false}},
		{"type=tmpfs,target=/t", got{OK: false}},
		{"source=/w,target=/w", got{"/w", "/w", false, true}}, // docker reads a source path as a bind
	} {
		m, ok := parseMount(tc.value)
		g := got{m.host, m.inside, m.readOnly, ok}
		if !ok {
			g = got{}
		}
		if diff := cmp.Diff(tc.want, g); diff != "" {
			t.Errorf("parseMount(%q) (-want +got):\n%s", tc.value, diff)
		}
	}
}

// FuzzParseMount checks that a mount read as binding a host path has a
// host path and a container path, and that what is not a bind binds
// nothing.
func FuzzParseMount(f *testing.F) {
	for _, s := range []string{"/a:/b", "~/x:/y:ro", "type=bind,src=/a,dst=/b,readonly", "v:/d", "::", "type=bind,src=,dst="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		m, ok := parseMount(v)
		if !ok {
			if m != (bindMount{}) {
				t.Fatalf("parseMount(%q) = %+v with ok false", v, m)
			}
			return
		}
		if !strings.HasPrefix(m.inside, "/") {
			t.Fatalf("parseMount(%q): container path %q is not absolute", v, m.inside)
		}
		if m.host == "" || !strings.ContainsAny(m.host[:1], "/~.") {
			t.Fatalf("parseMount(%q): host %q is not a path", v, m.host)
		}
	})
}
