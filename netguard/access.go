package netguard

import (
	"fmt"

	"github.com/toolguard/toolguard/risk"
)

// Access says what a Guard does with a class of destinations (loopback,
// private networks). The zero value is AccessDeny, so a zero Config is safe.
type Access uint8

// The accesses, from most to least restrictive.
const (
	// AccessDeny blocks the destination. It is the zero value.
	AccessDeny Access = iota
	// AccessAsk lets a human decide.
	AccessAsk
	// AccessAllow lets the destination through without a finding.
	AccessAllow
)

var accessNames = []string{"deny", "ask", "allow"}

// String returns "deny", "ask" or "allow".
func (a Access) String() string {
	if int(a) < len(accessNames) {
		return accessNames[a]
	}
	return fmt.Sprintf("invalid(%d)", a)
}

// ParseAccess parses "deny", "ask" or "allow".
func ParseAccess(s string) (Access, error) {
	for i, n := range accessNames {
		if n == s {
			return Access(i), nil
		}
	}
	return AccessDeny, fmt.Errorf("unknown network access %q (valid: deny, ask, allow)", s)
}

// MarshalText implements encoding.TextMarshaler.
func (a Access) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (a *Access) UnmarshalText(b []byte) error {
	p, err := ParseAccess(string(b))
	*a = p
	return err
}

// verdict is the floor a finding of this access puts on the decision.
func (a Access) verdict() risk.Verdict {
	switch a {
	case AccessAllow:
		return risk.Allow
	case AccessAsk:
		return risk.Ask
	}
	return risk.Deny
}
