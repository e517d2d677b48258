package paths

import (
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Access is what a call wants to do with a path. The zero value is Read.
type Access uint8

// The accesses. Delete is a write that removes the path; it is judged like
// Write but reported with the Destructive tier.
const (
	Read Access = iota
	Write
	Delete
)

var accessNames = []string{"read", "write", "delete"}

// String returns "read", "write" or "delete".
func (a Access) String() string {
	if int(a) < len(accessNames) {
		return accessNames[a]
	}
	return fmt.Sprintf("invalid(%d)", a)
}

// ParseAccess parses "read", "write" or "delete" (case-insensitive).
func ParseAccess(s string) (Access, error) {
	for i, n := range accessNames {
		if strings.EqualFold(n, strings.TrimSpace(s)) {
			return Access(i), nil
		}
	}
	return Read, fmt.Errorf("unknown access %q (valid: %s)", s, strings.Join(accessNames, ", "))
}

// writes reports whether a changes the file system (Write or Delete). An
// out-of-range Access counts as a write so that it is judged strictly.
func (a Access) writes() bool { return a != Read }

// tier maps an access onto the risk tier reported in findings.
func (a Access) tier() risk.Tier {
	switch a {
	case Read:
		return risk.Read
	case Write:
		return risk.Write
	default:
		return risk.Destructive
	}
}

// verb is the capitalised -ing form that starts reasons ("Reading /etc/shadow ...").
func (a Access) verb() string {
	switch a {
	case Read:
		return "Reading"
	case Write:
		return "Writing"
	case Delete:
		return "Deleting"
	default:
		return "Accessing"
	}
}
