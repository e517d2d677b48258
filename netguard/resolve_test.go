package netguard

import (
	"context"
	"errors"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
)

// fakeResolver answers from a table and records the names it was asked.
type fakeResolver struct {
	answers map[string][]string
	mu      sync.Mutex
	asked   []string
}

func (f *fakeResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	f.mu.Lock()
	f.asked = append(f.asked, network+" "+host)
	f.mu.Unlock()
	if host == "slow.example" {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	answer, ok := f.answers[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	var addrs []netip.Addr
	for _, a := range answer {
		addrs = append(addrs, netip.MustParseAddr(a))
	}
	return addrs, nil
}

func TestResolve(t *testing.T) {
	fake := &fakeResolver{answers: map[string][]string{
		"public.example":   {"93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
		"rebind.example":   {"93.184.215.14", "169.254.169.254"},
		"mixed.example":    {"10.0.0.1", "10.0.0.2", "127.0.0.1", "fd00::1", "10.0.0.3", "10.0.0.4", "10.0.0.5"},
		"mapped.example":   {"::ffff:127.0.0.1"},
		"empty.example":    {},
		"intranet":         {"10.1.2.3"},
		"nat64.example":    {"64:ff9b::a9fe:a9fe"},
		"link.example":     {"fe80::1%eth0"},
		"denied.example":   {"10.0.0.1"},
		"private.internal": {"8.8.8.8"},
	}}
	g := mustCompile(t, Config{Resolve: true, Resolver: fake, ResolveTimeout: 20 * time.Millisecond,
		DeniedDomains: []string{"denied.example"}, Private: AccessAsk})
	const slow = "http://slow.example/"
	runURLCases(t, g, []urlCase{
		ok("http://public.example/"),
		{"http://rebind.example/", []risk.Finding{deny(RuleMetadata, "http://rebind.example/", `host "rebind.example" resolves to 169.254.169.254, which is `+metadataDesc)}},
		{"http://mixed.example/", []risk.Finding{
			deny(RuleLoopback, "http://mixed.example/", `host "mixed.example" resolves to 127.0.0.1, which is `+loopback127),
			ask(RulePrivate, "http://mixed.example/", `host "mixed.example" resolves to 10.0.0.1, 10.0.0.2, fd00::1, 10.0.0.3, and 2 more, which is `+rfc1918ten),
		}},
		{"http://mapped.example/", []risk.Finding{deny(RuleLoopback, "http://mapped.example/", `host "mapped.example" resolves to ::ffff:127.0.0.1, which is IPv4-mapped 127.0.0.1, `+loopback127)}},
		{"http://nat64.example/", []risk.Finding{deny(RuleMetadata, "http://nat64.example/", `host "nat64.example" resolves to 64:ff9b::a9fe:a9fe, which is a NAT64 address carrying 169.254.169.254, `+metadataDesc)}},
		{"http://link.example/", []risk.Finding{ask(RuleLinkLocal, "http://link.example/", `host "link.example" resolves to fe80::1, which is in fe80::/10, IPv6 link-local`)}},
		{"http://empty.example/", []risk.Finding{ask(RuleResolveFailed, "http://empty.example/", `host "empty.example" could not be resolved: no addresses`)}},
		{"http://nowhere.example/", []risk.Finding{ask(RuleResolveFailed, "http://nowhere.example/", `host "nowhere.example" could not be resolved: no such host`)}},
		{slow, []risk.Finding{ask(RuleResolveFailed, slow, `host "slow.example" could not be resolved: context deadline exceeded`)}},
		{"http://intranet/", []risk.Finding{
			ask(RulePrivate, "http://intranet/", `host "intranet" is a single-label name, which resolves through the local search domains`),
			ask(RulePrivate, "http://intranet/", `host "intranet" resolves to 10.1.2.3, which is in 10.0.0.0/8, a private network (RFC 1918)`),
		}},
		{"http://private.internal/", []risk.Finding{ask(RulePrivate, "http://private.internal/", `host "private.internal" is in the private-use name space .internal`)}},
		{"http://denied.example/", []risk.Finding{deny(RuleDeniedDomain, "http://denied.example/", `host "denied.example" matches denied domain "denied.example"`)}},
		{"http://localhost/", []risk.Finding{deny(RuleLoopback, "http://localhost/", `host "localhost" is a name for this machine (loopback)`)}},
		{"http://10.0.0.9/", []risk.Finding{ask(RulePrivate, "http://10.0.0.9/", `host "10.0.0.9" is `+rfc1918ten)}},
	})
	wantAsked := []string{"ip public.example", "ip rebind.example", "ip mixed.example", "ip mapped.example",
		"ip nat64.example", "ip link.example", "ip empty.example", "ip nowhere.example", "ip slow.example",
		"ip intranet", "ip private.internal"}
	if diff := cmp.Diff(wantAsked, fake.asked); diff != "" {
		t.Errorf("names resolved (-want +got); denied hosts and IP literals must not be resolved:\n%s", diff)
	}
}

func TestResolveOffMakesNoLookups(t *testing.T) {
	fake := &fakeResolver{}
	g := mustCompile(t, Config{Resolver: fake})
	runURLCases(t, g, []urlCase{ok("http://public.example/")})
	if len(fake.asked) != 0 {
		t.Errorf("Resolve is off but the resolver was asked %v", fake.asked)
	}
}

func TestResolveHonoursCallerContext(t *testing.T) {
	g := mustCompile(t, Config{Resolve: true, Resolver: &fakeResolver{}, ResolveTimeout: time.Hour})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	got := g.CheckHost(ctx, "slow.example")
	want := []risk.Finding{ask(RuleResolveFailed, "slow.example", `host "slow.example" could not be resolved: context canceled`)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
