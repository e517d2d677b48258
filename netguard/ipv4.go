package netguard

import (
	"net/netip"
	"strings"
)

// endsInNumber is WHATWG's "ends in a number" check on a lower-case host
// without its trailing dot: the last label is decimal digits or "0x" hex.
func endsInNumber(s string) bool {
	last := s[strings.LastIndexByte(s, '.')+1:]
	if last != "" && allDigits(last) {
		return true
	}
	hex, ok := strings.CutPrefix(last, "0x")
	return ok && strings.IndexFunc(hex, func(r rune) bool { return r > 0x7f || !isHex(byte(r)) }) < 0
}

// parseIPv4 reads 1 to 4 dot-separated numbers, each decimal, octal (leading
// 0) or hex (leading 0x), as WHATWG URL and inet_aton do. The last number
// fills the remaining bytes: "127.1" is 127.0.0.1, "2130706433" is 127.0.0.1.
func parseIPv4(s string) (netip.Addr, bool) {
	var parts [4]uint64
	n := 0
	for part := range strings.SplitSeq(s, ".") {
		if n == len(parts) {
			return netip.Addr{}, false
		}
		v, ok := parseIPv4Part(part)
		if !ok {
			return netip.Addr{}, false
		}
		parts[n] = v
		n++
	}
	return assembleIPv4(parts[:n])
}

// assembleIPv4 combines the numbers of a dotted IPv4 form.
func assembleIPv4(parts []uint64) (netip.Addr, bool) {
	var v uint64
	for i, p := range parts[:len(parts)-1] {
		if p > 255 {
			return netip.Addr{}, false
		}
		v |= p << (24 - 8*i)
	}
	last := parts[len(parts)-1]
	if last >= 1<<(8*(5-len(parts))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// parseIPv4Part reads one number of an IPv4 form; "0x" alone is 0, as in WHATWG.
func parseIPv4Part(p string) (uint64, bool) {
	switch {
	case p == "":
		return 0, false
	case strings.HasPrefix(p, "0x") || strings.HasPrefix(p, "0X"):
		if len(p) == 2 {
			return 0, true
		}
		return parseNumber(p[2:], 16)
	case len(p) > 1 && p[0] == '0':
		return parseNumber(p[1:], 8)
	}
	return parseNumber(p, 10)
}

// parseNumber reads digits in base 8, 10 or 16; it fails on an empty string,
// a bad digit or a value above 2^32-1.
func parseNumber(s string, base uint64) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d, ok := digitValue(s[i], base)
		if !ok {
			return 0, false
		}
		v = v*base + d
		if v > 0xFFFFFFFF {
			return 0, false
		}
	}
	return v, true
}

func digitValue(c byte, base uint64) (uint64, bool) {
	switch {
	case base == 8 && isOctal(c), base == 10 && isDigit(c), base == 16 && isHex(c):
		return uint64(unhex(c)), true
	}
	return 0, false
}
