// Package netguard judges the network destination of a tool call: a URL for a
// fetch-like tool, an MCP argument or a shell command such as `curl URL`, or a
// bare host for `ssh host` and `nc host port`.
//
// A [Guard] is compiled once from a [Config] and is then immutable and safe for
// concurrent use. [Guard.CheckURL] and [Guard.CheckHost] return the
// [risk.Finding] values that apply; nil means the destination is fine (a plain
// GET is [risk.Read], so the mode table decides what happens next).
//
// # What is checked
//
//   - Scheme: only http and https. Anything else (file:, gopher:, dict:,
//     ftp:, data:, javascript:, …) is denied with rule netguard.scheme.
//   - Syntax: control characters, spaces, backslashes or an empty host in the
//     authority, bad percent escapes, bad ports and malformed IP literals are
//     denied with rule netguard.invalid. So is anything two common URL
//     parsers would read as different hosts.
//   - Address class: cloud metadata services (always denied,
//     netguard.metadata), loopback (netguard.loopback), link-local
//     (netguard.link-local) and private or other special-purpose ranges
//     (netguard.private). Loopback and private are configurable and denied by
//     default.
//   - Names: localhost and *.localhost are loopback; metadata.google.internal
//     and similar are metadata; single-label names and private-use suffixes
//     (.internal, .local, .home.arpa, …) are private. Public DNS services
//     that answer with the address written in the name (10.0.0.1.nip.io,
//     app-127-0-0-1.sslip.io) are judged by that address, and names under
//     localtest.me, lvh.me and vcap.me are loopback, all without a lookup.
//   - Domain lists: denied domains (netguard.denied-domain) and, when set, an
//     allow-list (netguard.not-allowed).
//   - Optionally, the addresses a name resolves to (netguard.resolve-failed
//     when that fails).
//
// # How hosts are read
//
// Hosts are read the way browsers (the WHATWG URL standard) and curl, wget,
// ssh and nc (inet_aton) read them, not the way Go's net/url does:
//
//   - IPv4 numbers in any spelling: decimal "2130706433", hex "0x7f000001" or
//     "0x7f.0.0.1", octal "0177.0.0.1" or "017700000001", and the short forms
//     "127.1" and "10.1". A host whose last label is a number must be a valid
//     IPv4 address, as in WHATWG; otherwise it is invalid.
//   - Percent escapes in the host are decoded first ("%31%32%37.0.0.1").
//   - Fullwidth forms and ideographic full stops are folded to ASCII, as
//     IDNA mapping does ("１２７．０．０．１"); any other non-ASCII host is
//     not mapped and gets an ask finding (netguard.idn) asking for the ASCII
//     (xn--) form.
//   - IPv6 literals with zone ids; IPv4-mapped, IPv4-compatible, NAT64, 6to4
//     and Teredo addresses are judged by the IPv4 address they carry.
//   - One trailing dot is dropped ("localhost."), case is folded.
//   - A string without a scheme is read as curl reads it: "example.com/x" and
//     "localhost:8080" are http URLs.
//
// Go's net/url differs: it keeps "2130706433" and "0x7f.1" as host names
// (which the C resolver, used through cgo, then reads as 127.0.0.1), rejects
// percent escapes of ASCII characters in hosts, and treats "localhost:8080" as
// a URL with scheme "localhost". netguard does not rely on net/url.
//
// # Credentials
//
// User information in a URL ("https://user:token@host") gets an ask finding
// (netguard.credentials): it sends a secret with the request, and it is the
// classic way to make a URL look like it goes to a different host
// ("https://github.com@evil.example"). The real host is judged as usual.
// Finding subjects never contain the user information: it is replaced by
// "REDACTED".
//
// # Resolution
//
// With [Config.Resolve] set, a host name that passed the other checks is
// resolved and every address is judged. Beware that resolving a name sends it
// to a DNS server, and an agent can put data in a name it asks for; use
// resolution with a trusted resolver. DNS answers can change between the check
// and the connection (DNS rebinding), so a program that fetches should also
// dial through [Guard.DialControl], which checks the address actually used.
package netguard
