package netguard

import (
	"net/netip"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseEndpoint(t *testing.T) {
	lo := netip.MustParseAddr("127.0.0.1")
	for _, c := range []struct {
		raw  string
		want Endpoint
	}{
		{"http://127.0.0.1:7878/v1/approvals/abc", Endpoint{Addr: lo, Port: 7878, Path: "/v1/approvals/abc"}},
		{"http://127.1:7878/v1/approvals", Endpoint{Addr: lo, Port: 7878, Path: "/v1/approvals"}},
		{"http://0x7f000001:7878/x", Endpoint{Addr: lo, Port: 7878, Path: "/x"}},
		{"http://2130706433:7878/x", Endpoint{Addr: lo, Port: 7878, Path: "/x"}},
		{"http://0177.0.0.1:7878/x", Endpoint{Addr: lo, Port: 7878, Path: "/x"}},
		{"http://LOCALHOST:7878/x", Endpoint{Name: "localhost", Port: 7878, Path: "/x"}},
		{"http://localhost.:7878/x", Endpoint{Name: "localhost", Port: 7878, Path: "/x"}},
		{"http://127.0.0.1:07878/x", Endpoint{Addr: lo, Port: 7878, Path: "/x"}},
		{"http://127.0.0.1:7878/%761/%61pprovals", Endpoint{Addr: lo, Port: 7878, Path: "/v1/approvals"}},
		{"http://127.0.0.1:7878//v1/approvals", Endpoint{Addr: lo, Port: 7878, Path: "/v1/approvals"}},
		{"http://127.0.0.1:7878/x/../v1/approvals/a", Endpoint{Addr: lo, Port: 7878, Path: "/v1/approvals/a"}},
		{"http://[::1]:7878/", Endpoint{Addr: netip.MustParseAddr("::1"), Port: 7878, Path: "/"}},
		{"http://[::ffff:127.0.0.1]:7878/", Endpoint{Addr: lo, Port: 7878, Path: "/"}},
		{"127.0.0.1:7878/v1/approvals", Endpoint{Addr: lo, Port: 7878, Path: "/v1/approvals"}},
		{"https://example.com/a", Endpoint{Name: "example.com", Port: 443, Path: "/a"}},
		{"http://user:pw@Example.COM:8080", Endpoint{Name: "example.com", Port: 8080, Path: "/"}},
	} {
		got, ok := ParseEndpoint(c.raw)
		if !ok {
			t.Errorf("ParseEndpoint(%q) failed", c.raw)
			continue
		}
		if diff := cmp.Diff(c.want, got, cmp.Comparer(func(a, b netip.Addr) bool { return a == b })); diff != "" {
			t.Errorf("ParseEndpoint(%q) (-want +got):\n%s", c.raw, diff)
		}
	}
	for _, bad := range []string{"http://a b/", "http://host:99999/", "http://[::1/"} {
		if _, ok := ParseEndpoint(bad); ok {
			t.Errorf("ParseEndpoint(%q) succeeded; want a failure", bad)
		}
	}
}

func TestEndpointIsLocal(t *testing.T) {
	for _, c := range []struct {
		raw   string
		local bool
	}{
		{"http://127.1:7878", true}, {"http://0.0.0.0:7878", true}, {"http://[::]:7878", true},
		{"http://LOCALHOST.:1", true}, {"http://app.localhost/", true}, {"http://devbox:7878", true},
		{"http://DEVBOX.:7878", true}, {"http://example.com", false}, {"http://10.0.0.1", false},
	} {
		e, ok := ParseEndpoint(c.raw)
		if !ok || e.IsLocal("devbox") != c.local {
			t.Errorf("%q: IsLocal = %v (parsed %v), want %v", c.raw, e.IsLocal("devbox"), ok, c.local)
		}
	}
	if e, ok := HostPort("127.1", "07878"); !ok || !e.IsLocal() || e.Port != 7878 {
		t.Errorf("HostPort(127.1, 07878) = %+v, %v", e, ok)
	}
}
