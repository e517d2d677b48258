package netguard

import (
	"net/netip"
	"path"
	"strconv"
	"strings"
)

// Endpoint is where a URL or a host and port really lead, spelled one way:
// the host as a lower-case name without a trailing dot or as an address
// (every IPv4 spelling inet_aton accepts: 127.1, 0x7f000001, 2130706433,
// 0177.0.0.1), the port as a number, and the path decoded and cleaned as an
// HTTP router sees it ("//v1/%61pprovals/../x" is "/v1/x").
type Endpoint struct {
	// Name is the host name; empty for an address.
	Name string
	// Addr is the host address; invalid for a name. IPv4-mapped IPv6
	// addresses are unmapped.
	Addr netip.Addr
	// Port is the port, or the scheme's default (80 for http, 443 for https).
	Port int
	// Path is the decoded, cleaned path ("/" when empty).
	Path string
}

// ParseEndpoint reads a URL ("http://127.1:07878//v1/approvals"), a
// scheme-less "host:port/path" as curl reads it, or a bare host. ok is
// false when it cannot be read.
func ParseEndpoint(raw string) (Endpoint, bool) {
	s := strings.TrimSpace(raw)
	scheme, rest, hasScheme := cutScheme(s)
	if !hasScheme {
		scheme, rest = "http", "//"+s
	}
	after, found := strings.CutPrefix(rest, "//")
	if !found {
		return Endpoint{}, false
	}
	authority, pathPart := after, "/"
	if i := strings.IndexAny(after, "/?#"); i >= 0 {
		authority, pathPart = after[:i], after[i:]
	}
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:]
	}
	host, port, ok := splitHostPort(authority, defaultPort(scheme))
	if !ok {
		return Endpoint{}, false
	}
	e, ok := endpointHost(host)
	if !ok {
		return Endpoint{}, false
	}
	e.Port = port
	e.Path = cleanRoutePath(pathPart)
	return e, true
}

// HostPort reads a host and a port given separately (nc HOST PORT, socat
// TCP:HOST:PORT, /dev/tcp/HOST/PORT).
func HostPort(host, port string) (Endpoint, bool) {
	n, ok := parseNumber(strings.TrimSpace(port), 10)
	if !ok || n > 65535 {
		return Endpoint{}, false
	}
	e, ok := endpointHost(strings.TrimSpace(host))
	e.Port, e.Path = int(n), "/"
	return e, ok
}

func endpointHost(host string) (Endpoint, bool) {
	var h hostRef
	var err error
	if strings.HasPrefix(host, "[") {
		h, err = parseBracketed(host)
	} else {
		h, err = parseURLHost(host)
	}
	if err != nil {
		if a, perr := netip.ParseAddr(host); perr == nil { // an IPv6 address without brackets
			return Endpoint{Addr: a.Unmap()}, true
		}
		return Endpoint{}, false
	}
	if h.isIP() {
		return Endpoint{Addr: h.addr.Unmap()}, true
	}
	return Endpoint{Name: h.name}, true
}

func defaultPort(scheme string) int {
	switch strings.ToLower(scheme) {
	case "https", "wss":
		return 443
	case "ftp":
		return 21
	}
	return 80
}

// splitHostPort splits "host:port" or "[v6]:port"; a missing or empty port
// is def. Leading zeros are read as decimal, as curl does.
func splitHostPort(hp string, def int) (string, int, bool) {
	host, port := hp, ""
	switch {
	case strings.HasPrefix(hp, "["):
		end := strings.IndexByte(hp, ']')
		if end < 0 {
			return "", 0, false
		}
		host, port = hp[:end+1], strings.TrimPrefix(hp[end+1:], ":")
	case strings.Count(hp, ":") == 1:
		host, port, _ = strings.Cut(hp, ":")
	case strings.Count(hp, ":") > 1:
		return hp, def, true // a bare IPv6 address
	}
	if port == "" {
		return host, def, true
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return "", 0, false
	}
	return host, n, true
}

// cleanRoutePath decodes percent-escapes and cleans the path the way a Go
// HTTP router does before matching ("//a/./b/../c" → "/a/c"). Invalid
// escapes are kept as written.
func cleanRoutePath(p string) string {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if decoded, err := percentDecode(p); err == nil {
		p = decoded
	}
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	return path.Clean(p)
}

// IsLocal reports whether the endpoint is this machine: a loopback or
// unspecified address, "localhost" or a name under it, or one of names
// (the machine's own host names, compared case-insensitively).
func (e Endpoint) IsLocal(names ...string) bool {
	if e.Addr.IsValid() {
		return e.Addr.IsLoopback() || e.Addr.IsUnspecified()
	}
	if e.Name == "localhost" || strings.HasSuffix(e.Name, ".localhost") || loopbackNames[e.Name] {
		return true
	}
	for _, n := range names {
		if n != "" && strings.EqualFold(strings.TrimSuffix(n, "."), e.Name) {
			return true
		}
	}
	return false
}
