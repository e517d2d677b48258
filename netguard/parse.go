package netguard

import (
	"fmt"
	"net/netip"
	"strings"
	"unicode/utf8"
)

// maxNameLength is the longest DNS name (without the trailing dot).
const maxNameLength = 253

// target is a URL reduced to what netguard judges.
type target struct {
	scheme   string  // lower-case scheme
	userinfo string  // raw user information before '@'; empty when none
	host     hostRef // the host the request goes to
}

// hostRef is a host read the way WHATWG URL and inet_aton read it.
type hostRef struct {
	text string     // the host as written in the input
	name string     // canonical lower-case ASCII name, no trailing dot; empty for IP literals
	addr netip.Addr // the address of an IP literal, without zone; invalid for names
}

// isIP reports whether the host is an IP literal.
func (h hostRef) isIP() bool { return h.addr.IsValid() }

// parseError explains why a URL or host cannot be judged.
type parseError struct {
	spec   *ruleSpec // specInvalid, specScheme or specIDN
	reason string
}

func (e *parseError) Error() string { return e.reason }

func invalidf(format string, args ...any) *parseError {
	return &parseError{spec: &specInvalid, reason: fmt.Sprintf(format, args...)}
}

// parseURL splits raw into scheme, user information and host.
func parseURL(raw string) (target, error) {
	s := strings.Trim(raw, " ")
	if s == "" {
		return target{}, invalidf("the URL is empty")
	}
	if err := checkControl(s, "URL"); err != nil {
		return target{}, err
	}
	scheme, rest, ok := cutScheme(s)
	if !ok {
		scheme, rest = "http", "//"+s // curl and wget read a bare host as http
	}
	if scheme != "http" && scheme != "https" {
		return target{scheme: scheme}, &parseError{spec: &specScheme,
			reason: fmt.Sprintf("scheme %q is not http or https", scheme)}
	}
	after, found := strings.CutPrefix(rest, "//")
	if !found {
		return target{}, invalidf("%q is not followed by //host", scheme+":")
	}
	return parseAuthority(scheme, after)
}

// parseAuthority reads "userinfo@host:port" from the start of s.
func parseAuthority(scheme, s string) (target, error) {
	authority := s
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		authority = s[:i]
	}
	if strings.ContainsRune(authority, '\\') {
		return target{}, invalidf("the authority (user and host part) contains a backslash, which browsers read as a path separator and curl as part of the host")
	}
	if strings.ContainsRune(authority, ' ') {
		return target{}, invalidf("the authority (user and host part) contains a space")
	}
	t := target{scheme: scheme}
	hostport := authority
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		t.userinfo, hostport = authority[:i], authority[i+1:]
	}
	host, err := splitPort(hostport)
	if err != nil {
		return target{}, err
	}
	t.host, err = parseURLHost(host)
	return t, err
}

// cutScheme returns the lower-cased scheme of s and what follows its colon.
// A "name:digits" prefix is a host and port, as curl reads it, unless name is
// a scheme WHATWG treats as special.
func cutScheme(s string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i < 1 || !isSchemeName(s[:i]) {
		return "", "", false
	}
	scheme = strings.ToLower(s[:i])
	rest = s[i+1:]
	if !specialSchemes[scheme] && startsWithPort(rest) {
		return "", "", false
	}
	return scheme, rest, true
}

var specialSchemes = map[string]bool{"http": true, "https": true, "ws": true, "wss": true, "ftp": true, "file": true}

func isSchemeName(s string) bool {
	if !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// startsWithPort reports whether s is digits up to its end or a '/', '?' or '#'.
func startsWithPort(s string) bool {
	end := strings.IndexAny(s, "/?#")
	if end < 0 {
		end = len(s)
	}
	return end > 0 && allDigits(s[:end])
}

// splitPort removes and validates the port of "host:port" or "[v6]:port".
func splitPort(hp string) (string, error) {
	host, port, hasPort := hp, "", false
	if strings.HasPrefix(hp, "[") {
		end := strings.IndexByte(hp, ']')
		if end < 0 {
			return "", invalidf("the IPv6 address in %q has no closing ]", hp)
		}
		host, port = hp[:end+1], hp[end+1:]
		if port != "" && port[0] != ':' {
			return "", invalidf("unexpected %q after the IPv6 address in %q", port, hp)
		}
		port, hasPort = strings.CutPrefix(port, ":")
	} else if strings.Count(hp, ":") > 1 {
		return "", invalidf("host %q has several colons; an IPv6 address must be written in brackets", hp)
	} else {
		host, port, hasPort = strings.Cut(hp, ":")
	}
	if hasPort && !validPort(port) {
		return "", invalidf("port %q is not a number from 0 to 65535", port)
	}
	return host, nil
}

func validPort(p string) bool {
	if p == "" {
		return true // "http://host:/" means the default port
	}
	n, ok := parseNumber(p, 10)
	return ok && n <= 65535
}

// parseURLHost reads the host of a URL: an IPv6 literal in brackets, or a
// name or IPv4 number after percent-decoding.
func parseURLHost(text string) (hostRef, error) {
	if text == "" {
		return hostRef{}, invalidf("the URL has no host")
	}
	if text[0] == '[' {
		return parseBracketed(text)
	}
	decoded, err := percentDecode(text)
	if err != nil {
		return hostRef{}, err
	}
	return parseName(text, decoded)
}

// parseBracketed reads "[v6]" or "[v6%25zone]".
func parseBracketed(text string) (hostRef, error) {
	inner := strings.TrimSuffix(text[1:], "]")
	addrText, zone, hasZone := strings.Cut(inner, "%")
	if hasZone {
		zone = strings.TrimPrefix(zone, "25") // "%25" is the escaped "%"
		if !validZone(zone) {
			return hostRef{}, invalidf("IPv6 zone %q in %q is not a plain interface name", zone, text)
		}
	}
	addr, err := netip.ParseAddr(addrText)
	if err != nil || !addr.Is6() {
		return hostRef{}, invalidf("%q is not a valid IPv6 address", text)
	}
	return hostRef{text: text, addr: addr}, nil
}

func validZone(z string) bool {
	if z == "" {
		return false
	}
	for i := 0; i < len(z); i++ {
		c := z[i]
		if !isAlpha(c) && !isDigit(c) && !strings.ContainsRune("-._~", rune(c)) {
			return false
		}
	}
	return true
}

// parseName reads a host name or IPv4 number. text is the host as written;
// s is its decoded form.
func parseName(text, s string) (hostRef, error) {
	if !isASCII(s) {
		folded, err := foldWidth(text, s)
		if err != nil {
			return hostRef{}, err
		}
		s = folded
	}
	s = strings.ToLower(s)
	s = strings.TrimSuffix(s, ".")
	if err := checkNameSyntax(text, s); err != nil {
		return hostRef{}, err
	}
	if endsInNumber(s) {
		addr, ok := parseIPv4(s)
		if !ok {
			return hostRef{}, invalidf("host %q ends in a number but is not a valid IPv4 address", text)
		}
		return hostRef{text: text, addr: addr}, nil
	}
	return hostRef{text: text, name: s}, nil
}

// checkNameSyntax accepts dot-separated labels of letters, digits, '-' and '_'.
func checkNameSyntax(text, s string) error {
	if s == "" {
		return invalidf("host %q is empty", text)
	}
	if len(s) > maxNameLength {
		return invalidf("host %q is longer than %d characters", text, maxNameLength)
	}
	label := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.':
			if label == 0 {
				return invalidf("host %q has an empty label", text)
			}
			label = 0
			continue
		case !isAlpha(c) && !isDigit(c) && c != '-' && c != '_':
			return invalidf("host %q contains %q; only letters, digits, '-', '_' and '.' are valid", text, c)
		}
		label++
		if label > 63 {
			return invalidf("host %q has a label longer than 63 characters", text)
		}
	}
	if label == 0 {
		return invalidf("host %q has an empty label", text)
	}
	return nil
}

// percentDecode decodes %XX escapes in a host, as WHATWG and curl do.
func percentDecode(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			return "", invalidf("host %q has a bad percent escape", s)
		}
		b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
		i += 2
	}
	return b.String(), nil
}

// foldWidth maps fullwidth ASCII variants and ideographic full stops to ASCII,
// as IDNA (UTS #46) mapping does. Other non-ASCII characters are not mapped:
// netguard has no IDNA tables, so such a host gets an ask finding.
func foldWidth(text, s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", invalidf("host %q is not valid UTF-8", text)
	}
	folded := strings.Map(func(r rune) rune {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			return r - 0xFEE0
		case r == 0x3002 || r == 0xFF61:
			return '.'
		}
		return r
	}, s)
	if !isASCII(folded) {
		return "", &parseError{spec: &specIDN, reason: fmt.Sprintf(
			"host %q is an internationalised name that netguard cannot map to ASCII", text)}
	}
	return folded, nil
}

// checkControl rejects ASCII control characters, which WHATWG strips or
// ignores and curl and Go reject.
func checkControl(s, what string) error {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return invalidf("the %s contains control character %q at byte %d", what, s[i], i)
		}
	}
	return nil
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isHex(c byte) bool   { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
func isOctal(c byte) bool { return '0' <= c && c <= '7' }
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func unhex(c byte) byte {
	switch {
	case isDigit(c):
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
