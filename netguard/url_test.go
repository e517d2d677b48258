package netguard

import (
	"testing"

	"github.com/toolguard/toolguard/risk"
)

func TestCheckURLIPv6(t *testing.T) {
	runURLCases(t, mustCompile(t, Config{}), []urlCase{
		{"http://[::1]/", []risk.Finding{deny(RuleLoopback, "http://[::1]/", `host "[::1]" is the IPv6 loopback address (this machine)`)}},
		{"http://[0:0:0:0:0:0:0:1]:8080/", []risk.Finding{deny(RuleLoopback, "http://[0:0:0:0:0:0:0:1]:8080/", `host "[0:0:0:0:0:0:0:1]" (::1) is the IPv6 loopback address (this machine)`)}},
		{"http://[::]/", []risk.Finding{deny(RuleLoopback, "http://[::]/", `host "[::]" is the unspecified address ::, which connects to this machine`)}},
		{"http://[::ffff:127.0.0.1]/", []risk.Finding{deny(RuleLoopback, "http://[::ffff:127.0.0.1]/", `host "[::ffff:127.0.0.1]" is IPv4-mapped 127.0.0.1, `+loopback127)}},
		{"http://[::ffff:7f00:1]/", []risk.Finding{deny(RuleLoopback, "http://[::ffff:7f00:1]/", `host "[::ffff:7f00:1]" (::ffff:127.0.0.1) is IPv4-mapped 127.0.0.1, `+loopback127)}},
		{"http://[::FFFF:A9FE:A9FE]/", []risk.Finding{deny(RuleMetadata, "http://[::FFFF:A9FE:A9FE]/", `host "[::FFFF:A9FE:A9FE]" (::ffff:169.254.169.254) is IPv4-mapped 169.254.169.254, `+metadataDesc)}},
		{"http://[::a9fe:a9fe]/", []risk.Finding{deny(RuleMetadata, "http://[::a9fe:a9fe]/", `host "[::a9fe:a9fe]" is a deprecated IPv4-compatible IPv6 address carrying 169.254.169.254, `+metadataDesc)}},
		{"http://[::127.0.0.1]/", []risk.Finding{deny(RuleLoopback, "http://[::127.0.0.1]/", `host "[::127.0.0.1]" (::7f00:1) is a deprecated IPv4-compatible IPv6 address carrying 127.0.0.1, `+loopback127)}},
		{"http://[64:ff9b::a9fe:a9fe]/", []risk.Finding{deny(RuleMetadata, "http://[64:ff9b::a9fe:a9fe]/", `host "[64:ff9b::a9fe:a9fe]" is a NAT64 address carrying 169.254.169.254, `+metadataDesc)}},
		{"http://[64:ff9b::10.0.0.1]/", []risk.Finding{deny(RulePrivate, "http://[64:ff9b::10.0.0.1]/", `host "[64:ff9b::10.0.0.1]" (64:ff9b::a00:1) is a NAT64 address carrying 10.0.0.1, `+rfc1918ten)}},
		ok("http://[64:ff9b::808:808]/"),
		{"http://[2002:7f00:1::]/", []risk.Finding{deny(RuleLoopback, "http://[2002:7f00:1::]/", `host "[2002:7f00:1::]" is in 2002::/16, 6to4 (RFC 3056) carrying 127.0.0.1, `+loopback127)}},
		{"http://[2002:808:808::]/", []risk.Finding{deny(RulePrivate, "http://[2002:808:808::]/", `host "[2002:808:808::]" is in 2002::/16, 6to4 (RFC 3056)`)}},
		{"http://[2001:0:4136:e378:8000:63bf:5601:5601]/", []risk.Finding{deny(RuleMetadata, "http://[2001:0:4136:e378:8000:63bf:5601:5601]/", `host "[2001:0:4136:e378:8000:63bf:5601:5601]" is in 2001::/32, Teredo (RFC 4380) carrying 169.254.169.254, `+metadataDesc)}},
		{"http://[fd00:ec2::254]/latest/", []risk.Finding{deny(RuleMetadata, "http://[fd00:ec2::254]/latest/", `host "[fd00:ec2::254]" is the AWS instance metadata service (IPv6)`)}},
		{"http://[fd12:3456::1]/", []risk.Finding{deny(RulePrivate, "http://[fd12:3456::1]/", `host "[fd12:3456::1]" is in fc00::/7, a unique-local (private) network (RFC 4193)`)}},
		{"http://[fe80::1%25eth0]/", []risk.Finding{deny(RuleLinkLocal, "http://[fe80::1%25eth0]/", `host "[fe80::1%25eth0]" (fe80::1) is in fe80::/10, IPv6 link-local`)}},
		{"http://[fe80::1%eth0]/", []risk.Finding{deny(RuleLinkLocal, "http://[fe80::1%eth0]/", `host "[fe80::1%eth0]" (fe80::1) is in fe80::/10, IPv6 link-local`)}},
		{"http://[ff02::1]/", []risk.Finding{deny(RulePrivate, "http://[ff02::1]/", `host "[ff02::1]" is in ff00::/8, multicast`)}},
		{"http://[2001:db8::1]/", []risk.Finding{deny(RulePrivate, "http://[2001:db8::1]/", `host "[2001:db8::1]" is in 2001:db8::/32, reserved for documentation (RFC 3849)`)}},
		{"http://[4000::1]/", []risk.Finding{deny(RulePrivate, "http://[4000::1]/", `host "[4000::1]" is outside the IPv6 global unicast range 2000::/3`)}},
		ok("http://[2606:4700:4700::1111]/"),
		ok("https://[2001:4860:4860::8888]:443/dns-query"),
		invalid("http://[::1/", `the IPv6 address in "[::1" has no closing ]`),
		invalid("http://[::1]x/", `unexpected "x" after the IPv6 address in "[::1]x"`),
		invalid("http://[127.0.0.1]/", `"[127.0.0.1]" is not a valid IPv6 address`),
		invalid("http://[::ffff:0177.0.0.1]/", `"[::ffff:0177.0.0.1]" is not a valid IPv6 address`),
		invalid("http://[fe80::1%25]/", `IPv6 zone "" in "[fe80::1%25]" is not a plain interface name`),
		invalid("http://[fe80::1%25a%2fb]/", `IPv6 zone "a%2fb" in "[fe80::1%25a%2fb]" is not a plain interface name`),
		invalid("http://::1/", `host "::1" has several colons; an IPv6 address must be written in brackets`),
	})
}

func TestCheckURLNames(t *testing.T) {
	const localhost = " is a name for this machine (loopback)"
	runURLCases(t, mustCompile(t, Config{}), []urlCase{
		{"http://localhost/", []risk.Finding{deny(RuleLoopback, "http://localhost/", `host "localhost"`+localhost)}},
		{"http://localhost.:3000/", []risk.Finding{deny(RuleLoopback, "http://localhost.:3000/", `host "localhost."`+localhost)}},
		{"HTTP://LocalHost/", []risk.Finding{deny(RuleLoopback, "HTTP://LocalHost/", `host "LocalHost"`+localhost)}},
		{"http://app.localhost/", []risk.Finding{deny(RuleLoopback, "http://app.localhost/", `host "app.localhost"`+localhost)}},
		{"http://%6c%6f%63%61%6c%68%6f%73%74/", []risk.Finding{deny(RuleLoopback, "http://%6c%6f%63%61%6c%68%6f%73%74/", `host "%6c%6f%63%61%6c%68%6f%73%74"`+localhost)}},
		{"http://ｌｏｃａｌｈｏｓｔ/", []risk.Finding{deny(RuleLoopback, "http://ｌｏｃａｌｈｏｓｔ/", `host "ｌｏｃａｌｈｏｓｔ"`+localhost)}},
		{"http://metadata.google.internal/computeMetadata/v1/", []risk.Finding{deny(RuleMetadata, "http://metadata.google.internal/computeMetadata/v1/", `host "metadata.google.internal" is the Google Cloud instance metadata service`)}},
		{"http://METADATA.GOOGLE.INTERNAL./", []risk.Finding{deny(RuleMetadata, "http://METADATA.GOOGLE.INTERNAL./", `host "METADATA.GOOGLE.INTERNAL." is the Google Cloud instance metadata service`)}},
		{"http://metadata/", []risk.Finding{deny(RuleMetadata, "http://metadata/", `host "metadata" is the Google Cloud instance metadata service (short name)`)}},
		{"http://jenkins:8080/", []risk.Finding{deny(RulePrivate, "http://jenkins:8080/", `host "jenkins" is a single-label name, which resolves through the local search domains`)}},
		{"http://db.internal/", []risk.Finding{deny(RulePrivate, "http://db.internal/", `host "db.internal" is in the private-use name space .internal`)}},
		{"http://printer.local/", []risk.Finding{deny(RulePrivate, "http://printer.local/", `host "printer.local" is in the private-use name space .local`)}},
		{"https://kubernetes.default.svc/api", []risk.Finding{deny(RulePrivate, "https://kubernetes.default.svc/api", `host "kubernetes.default.svc" is in the private-use name space .svc`)}},
		{"http://metadata.goog/", []risk.Finding{deny(RuleMetadata, "http://metadata.goog/", `host "metadata.goog" is the Google Cloud instance metadata service`)}},
		{"http://nas.home.arpa/", []risk.Finding{deny(RulePrivate, "http://nas.home.arpa/", `host "nas.home.arpa" is in the private-use name space .home.arpa`)}},
		ok("https://example.com/"),
		ok("https://EXAMPLE.com./path?q=1#frag"),
		ok("https://api.github.com:443/repos"),
		ok("https://xn--mnchen-3ya.de/"),
		ok("https://ｅｘａｍｐｌｅ.com/"),
		ok("https://my_host.example.com/"),
		ok("https://example.com:/"),
		ok("https://example.com?x=@169.254.169.254"),
		ok("https://example.com#@169.254.169.254"),
		ok("https://example.com/\\@169.254.169.254"),
		ok(" https://example.com/ "),
		ok("example.com/path"),
		ok("example.com:8443"),
		{"http://münchen.de/", []risk.Finding{ask(RuleIDN, "http://münchen.de/", `host "münchen.de" is an internationalised name that netguard cannot map to ASCII`)}},
		{"http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", []risk.Finding{ask(RuleIDN, "http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", `host "ⓛⓞⓒⓐⓛⓗⓞⓢⓣ" is an internationalised name that netguard cannot map to ASCII`)}},
		{"localhost:8080/x", []risk.Finding{deny(RuleLoopback, "localhost:8080/x", `host "localhost"`+localhost)}},
		{"169.254.169.254/latest", []risk.Finding{deny(RuleMetadata, "169.254.169.254/latest", `host "169.254.169.254" is `+metadataDesc)}},
	})
}

func TestCheckURLSchemes(t *testing.T) {
	runURLCases(t, mustCompile(t, Config{}), []urlCase{
		scheme("file:///etc/passwd", "file"),
		scheme("FILE:///etc/passwd", "file"),
		scheme("file:/etc/passwd", "file"),
		scheme("ftp://example.com/", "ftp"),
		scheme("gopher://127.0.0.1:6379/_INFO", "gopher"),
		scheme("data:text/html,<script>alert(1)</script>", "data"),
		scheme("javascript:alert(1)", "javascript"),
		scheme("dict://127.0.0.1:11211/stats", "dict"),
		scheme("ldap://example.com/", "ldap"),
		scheme("jar:http://example.com/x.jar!/", "jar"),
		scheme("ws://example.com/", "ws"),
		scheme("ftp:21", "ftp"),
		scheme("x-custom+v1.2://thing", "x-custom+v1.2"),
		scheme("C:\\Windows\\win.ini", "c"),
		ok("HTTPS://example.com/"),
	})
}

func TestCheckURLInvalid(t *testing.T) {
	runURLCases(t, mustCompile(t, Config{}), []urlCase{
		invalid("", "the URL is empty"),
		invalid("   ", "the URL is empty"),
		invalid("http://", "the URL has no host"),
		invalid("http:///etc/passwd", "the URL has no host"),
		invalid("http://:80/", "the URL has no host"),
		invalid("//example.com/", "the URL has no host"),
		invalid("http:example.com", `"http:" is not followed by //host`),
		invalid("http:/example.com", `"http:" is not followed by //host`),
		invalid("http:8080", `"http:" is not followed by //host`),
		invalid("http://exa\x00mple.com/", `the URL contains control character '\x00' at byte 10`),
		invalid("http://169.254.16\n9.254/", `the URL contains control character '\n' at byte 17`),
		invalid("http://exa\tmple.com/", `the URL contains control character '\t' at byte 10`),
		invalid("http://a\x7fb/", `the URL contains control character '\x7f' at byte 8`),
		invalid("http://exa mple.com/", "the authority (user and host part) contains a space"),
		{"http://1.1.1.1 &@2.2.2.2# @3.3.3.3/", []risk.Finding{deny(RuleInvalid, "http://REDACTED@2.2.2.2# @3.3.3.3/", "the authority (user and host part) contains a space")}},
		{"http://evil.com\\@127.0.0.1/", []risk.Finding{deny(RuleInvalid, "http://REDACTED@127.0.0.1/", "the authority (user and host part) contains a backslash, which browsers read as a path separator and curl as part of the host")}},
		invalid("http://example.com:99999/", `port "99999" is not a number from 0 to 65535`),
		invalid("http://example.com:8o/", `port "8o" is not a number from 0 to 65535`),
		invalid("http://example.com:-1/", `port "-1" is not a number from 0 to 65535`),
		invalid("http://1.2.3.4.5/", `host "1.2.3.4.5" ends in a number but is not a valid IPv4 address`),
		invalid("http://1.2.3.09/", `host "1.2.3.09" ends in a number but is not a valid IPv4 address`),
		invalid("http://256.0.0.1/", `host "256.0.0.1" ends in a number but is not a valid IPv4 address`),
		invalid("http://127.0.0.256/", `host "127.0.0.256" ends in a number but is not a valid IPv4 address`),
		invalid("http://4294967296/", `host "4294967296" ends in a number but is not a valid IPv4 address`),
		invalid("http://0x100000000/", `host "0x100000000" ends in a number but is not a valid IPv4 address`),
		invalid("http://example.123/", `host "example.123" ends in a number but is not a valid IPv4 address`),
		invalid("http://foo.0x1f/", `host "foo.0x1f" ends in a number but is not a valid IPv4 address`),
		invalid("http://127.0.0.1../", `host "127.0.0.1.." has an empty label`),
		invalid("http://localhost../", `host "localhost.." has an empty label`),
		invalid("http://example..com/", `host "example..com" has an empty label`),
		invalid("http://.example.com/", `host ".example.com" has an empty label`),
		invalid("http://./", `host "." is empty`),
		invalid("http://exa%mple.com/", `host "exa%mple.com" has a bad percent escape`),
		invalid("http://exa%2fmple.com/", `host "exa%2fmple.com" contains '/'; only letters, digits, '-', '_' and '.' are valid`),
		invalid("http://a*b.example/", `host "a*b.example" contains '*'; only letters, digits, '-', '_' and '.' are valid`),
		invalid("http://%ff.example/", `host "%ff.example" is not valid UTF-8`),
	})
}

func TestCheckURLCredentials(t *testing.T) {
	const subject = "http://REDACTED@169.254.169.254/"
	runURLCases(t, mustCompile(t, Config{}), []urlCase{
		{"http://evil@169.254.169.254/", []risk.Finding{
			ask(RuleCredentials, subject, `the URL carries user information before "@"; the request goes to host "169.254.169.254" with those credentials`),
			deny(RuleMetadata, subject, `host "169.254.169.254" is `+metadataDesc),
		}},
		{"https://user:s3cret@example.com/x", []risk.Finding{
			ask(RuleCredentials, "https://REDACTED@example.com/x", `the URL carries user information before "@"; the request goes to host "example.com" with those credentials`),
		}},
		{"https://github.com@evil.example/", []risk.Finding{
			ask(RuleCredentials, "https://REDACTED@evil.example/", `the URL carries user information before "@"; the request goes to host "evil.example" with those credentials`),
		}},
		{"http://a@b@127.0.0.1/", []risk.Finding{
			ask(RuleCredentials, "http://REDACTED@127.0.0.1/", `the URL carries user information before "@"; the request goes to host "127.0.0.1" with those credentials`),
			deny(RuleLoopback, "http://REDACTED@127.0.0.1/", `host "127.0.0.1" is `+loopback127),
		}},
		{"http://tok:x%40y@8.8.8.8:443/p@q", []risk.Finding{
			ask(RuleCredentials, "http://REDACTED@8.8.8.8:443/p@q", `the URL carries user information before "@"; the request goes to host "8.8.8.8" with those credentials`),
		}},
		ok("http://@example.com/"),
		{"http://user:pw@exa mple.com/", []risk.Finding{deny(RuleInvalid, "http://REDACTED@exa mple.com/", "the authority (user and host part) contains a space")}},
	})
}

func TestCheckURLWildcardDNS(t *testing.T) {
	runURLCases(t, mustCompile(t, Config{}), []urlCase{
		{"http://10.0.0.1.nip.io/", []risk.Finding{deny(RulePrivate, "http://10.0.0.1.nip.io/", `host "10.0.0.1.nip.io" is a wildcard DNS name (nip.io) that resolves to 10.0.0.1, `+rfc1918ten)}},
		{"http://app.169.254.169.254.nip.io/", []risk.Finding{deny(RuleMetadata, "http://app.169.254.169.254.nip.io/", `host "app.169.254.169.254.nip.io" is a wildcard DNS name (nip.io) that resolves to 169.254.169.254, `+metadataDesc)}},
		{"http://app-127-0-0-1.sslip.io/", []risk.Finding{deny(RuleLoopback, "http://app-127-0-0-1.sslip.io/", `host "app-127-0-0-1.sslip.io" is a wildcard DNS name (sslip.io) that resolves to 127.0.0.1, `+loopback127)}},
		{"http://7f000001.nip.io/", []risk.Finding{deny(RuleLoopback, "http://7f000001.nip.io/", `host "7f000001.nip.io" is a wildcard DNS name (nip.io) that resolves to 127.0.0.1, `+loopback127)}},
		{"http://--1.sslip.io/", []risk.Finding{deny(RuleLoopback, "http://--1.sslip.io/", `host "--1.sslip.io" is a wildcard DNS name (sslip.io) that resolves to ::1, the IPv6 loopback address (this machine)`)}},
		{"http://x.localtest.me/", []risk.Finding{deny(RuleLoopback, "http://x.localtest.me/", `host "x.localtest.me" is a public DNS name that resolves to 127.0.0.1 (localtest.me)`)}},
		{"http://lvh.me:3000/", []risk.Finding{deny(RuleLoopback, "http://lvh.me:3000/", `host "lvh.me" is a public DNS name that resolves to 127.0.0.1 (lvh.me)`)}},
		{"http://app-c0a801fc.nip.io/", []risk.Finding{deny(RulePrivate, "http://app-c0a801fc.nip.io/", `host "app-c0a801fc.nip.io" is a wildcard DNS name (nip.io) that resolves to 192.168.1.252, in 192.168.0.0/16, a private network (RFC 1918)`)}},
		ok("http://appc0a801fc.nip.io/"),
		ok("http://8.8.8.8.nip.io/"),
		ok("http://nip.io/"),
		ok("http://www.nip.io/"),
		ok("http://notlvh.me/"),
	})
}
