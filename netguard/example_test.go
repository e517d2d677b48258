package netguard_test

import (
	"context"
	"fmt"
	"net"

	"github.com/toolguard/toolguard/netguard"
)

func Example() {
	g, err := netguard.Compile(netguard.Config{
		DeniedDomains: []string{"pastebin.com"},
		Loopback:      netguard.AccessAsk,
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	for _, u := range []string{
		"https://go.dev/doc/",
		"http://0xa9fea9fe/latest/meta-data/",
		"http://127.1:8080/admin",
		"https://user:hunter2@pastebin.com/raw/x",
		"file:///etc/passwd",
	} {
		findings := g.CheckURL(ctx, u)
		if len(findings) == 0 {
			fmt.Printf("%s: ok\n", u)
		}
		for _, f := range findings {
			fmt.Printf("%s: %s %s: %s\n", f.Subject, f.Verdict, f.Rule, f.Reason)
		}
	}
	// Output:
	// https://go.dev/doc/: ok
	// http://0xa9fea9fe/latest/meta-data/: deny netguard.metadata: host "0xa9fea9fe" (169.254.169.254) is the cloud instance metadata service (AWS, GCP, Azure, OpenStack and others)
	// http://127.1:8080/admin: ask netguard.loopback: host "127.1" (127.0.0.1) is in 127.0.0.0/8, loopback (this machine)
	// https://REDACTED@pastebin.com/raw/x: ask netguard.credentials: the URL carries user information before "@"; the request goes to host "pastebin.com" with those credentials
	// https://REDACTED@pastebin.com/raw/x: deny netguard.denied-domain: host "pastebin.com" matches denied domain "pastebin.com"
	// file:///etc/passwd: deny netguard.scheme: scheme "file" is not http or https
}

func ExampleGuard_CheckHost() {
	var g netguard.Guard // the zero Guard is the default configuration
	for _, host := range []string{"git@github.com", "root@0x7f.1", "fe80::1%eth0"} {
		for _, f := range g.CheckHost(context.Background(), host) {
			fmt.Printf("%s: %s %s\n", host, f.Verdict, f.Rule)
		}
	}
	// Output:
	// root@0x7f.1: deny netguard.loopback
	// fe80::1%eth0: deny netguard.link-local
}

func ExampleGuard_DialControl() {
	var g netguard.Guard
	dialer := net.Dialer{Control: g.DialControl()}
	_, err := dialer.Dial("tcp", "169.254.169.254:80")
	fmt.Println(err)
	// Output:
	// dial tcp 169.254.169.254:80: netguard: 169.254.169.254 is the cloud instance metadata service (AWS, GCP, Azure, OpenStack and others): prohibited IP address
}
