package netguard

import (
	"errors"
	"net"
	"net/netip"
	"testing"

	"code.dny.dev/ssrf"
	"github.com/google/go-cmp/cmp"
)

func TestDialControl(t *testing.T) {
	strict := mustCompile(t, Config{}).DialControl()
	open := mustCompile(t, Config{Private: AccessAllow, Loopback: AccessAllow}).DialControl()
	asking := mustCompile(t, Config{Private: AccessAsk, Loopback: AccessAsk}).DialControl()
	const (
		okay     = ""
		metadata = "netguard: 169.254.169.254 is the cloud instance metadata service (AWS, GCP, Azure, OpenStack and others): prohibited IP address"
	)
	tests := []struct {
		network, address         string
		strict, open, whenAsking string
	}{
		{"tcp4", "93.184.215.14:443", okay, okay, okay},
		{"tcp4", "93.184.215.14:8443", okay, okay, okay},
		{"tcp6", "[2606:4700:4700::1111]:22", okay, okay, okay},
		{"tcp4", "127.0.0.1:8080",
			"netguard: prohibited IP address: 127.0.0.1 is not a permitted destination (denied by: 127.0.0.0/8)", okay,
			"netguard: prohibited IP address: 127.0.0.1 is not a permitted destination (denied by: 127.0.0.0/8)"},
		{"tcp6", "[::1]:80",
			"netguard: prohibited IP address: ::1 is not a permitted destination as it's outside of the IPv6 Global Unicast range", okay,
			"netguard: prohibited IP address: ::1 is not a permitted destination as it's outside of the IPv6 Global Unicast range"},
		{"tcp4", "10.0.0.1:5432",
			"netguard: prohibited IP address: 10.0.0.1 is not a permitted destination (denied by: 10.0.0.0/8)", okay,
			"netguard: prohibited IP address: 10.0.0.1 is not a permitted destination (denied by: 10.0.0.0/8)"},
		{"tcp4", "169.254.169.254:80", metadata, metadata, metadata},
		{"tcp6", "[fd00:ec2::254]:80",
			"netguard: fd00:ec2::254 is the AWS instance metadata service (IPv6): prohibited IP address",
			"netguard: fd00:ec2::254 is the AWS instance metadata service (IPv6): prohibited IP address",
			"netguard: fd00:ec2::254 is the AWS instance metadata service (IPv6): prohibited IP address"},
		{"udp4", "8.8.8.8:53",
			"netguard: prohibited network type: udp4 is not a permitted network type (tcp4, tcp6)",
			"netguard: prohibited network type: udp4 is not a permitted network type (tcp4, tcp6)",
			"netguard: prohibited network type: udp4 is not a permitted network type (tcp4, tcp6)"},
		{"tcp4", "not-an-address",
			`netguard: invalid host:port pair: could not parse not-an-address: not an ip:port`,
			`netguard: invalid host:port pair: could not parse not-an-address: not an ip:port`,
			`netguard: invalid host:port pair: could not parse not-an-address: not an ip:port`},
	}
	errText := func(err error) string {
		if err == nil {
			return okay
		}
		return err.Error()
	}
	for _, tt := range tests {
		got := []string{errText(strict(tt.network, tt.address, nil)), errText(open(tt.network, tt.address, nil)),
			errText(asking(tt.network, tt.address, nil))}
		if diff := cmp.Diff([]string{tt.strict, tt.open, tt.whenAsking}, got); diff != "" {
			t.Errorf("DialControl %s %s (strict, open, asking) mismatch (-want +got):\n%s", tt.network, tt.address, diff)
		}
	}
}

// TestDialControlRealDial dials a listener on this machine through a Dialer
// using DialControl: refused by default, accepted when loopback is allowed.
func TestDialControlRealDial(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	refuse := net.Dialer{Control: mustCompile(t, Config{}).DialControl()}
	if c, err := refuse.DialContext(t.Context(), "tcp", ln.Addr().String()); err == nil {
		c.Close()
		t.Error("default Guard let a dial to loopback through")
	} else if !errors.Is(err, ssrf.ErrProhibitedIP) {
		t.Errorf("dial refused with %v, want ssrf.ErrProhibitedIP", err)
	}
	allow := net.Dialer{Control: mustCompile(t, Config{Loopback: AccessAllow}).DialControl()}
	c, err := allow.DialContext(t.Context(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("loopback allowed but dial failed: %v", err)
	}
	c.Close()
}

// TestClassifyCoversSSRFDenyList checks that every range code.dny.dev/ssrf
// refuses at connect time is also flagged by CheckURL.
func TestClassifyCoversSSRFDenyList(t *testing.T) {
	prefixes := append(append([]netip.Prefix{}, ssrf.IPv4DeniedPrefixes...), ssrf.IPv6DeniedPrefixes...)
	for _, p := range prefixes {
		for _, a := range []netip.Addr{p.Addr(), lastAddr(p)} {
			if j := classifyAddr(a); j.class == classPublic {
				t.Errorf("%s (in %s, denied by ssrf) is classified public", a, p)
			}
		}
	}
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
