package risk

import (
	"fmt"
	"strings"
)

// Verdict is what happens to a tool call. The zero value is Allow. Verdicts are
// ordered: Allow < Ask < Deny, so the worse of two is the larger.
type Verdict uint8

// The verdicts, from least to most restrictive.
const (
	Allow Verdict = iota
	Ask
	Deny
)

var verdictNames = []string{"allow", "ask", "deny"}

func (v Verdict) String() string { return name(verdictNames, int(v)) }

// Worse returns the more restrictive of v and w.
func (v Verdict) Worse(w Verdict) Verdict { return max(v, w) }

// ParseVerdict parses "allow", "ask" or "deny".
func ParseVerdict(s string) (Verdict, error) {
	i, err := parse("verdict", verdictNames, s)
	return Verdict(i), err
}

// MarshalText implements encoding.TextMarshaler.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Verdict) UnmarshalText(b []byte) error {
	p, err := ParseVerdict(string(b))
	*v = p
	return err
}

// Tier is the worst effect a call can have. The zero value is Read. Tiers are
// ordered: Read < Write < Execute < Destructive.
type Tier uint8

// The tiers, from harmless to worst.
const (
	Read Tier = iota
	Write
	Execute
	Destructive
)

var tierNames = []string{"read", "write", "execute", "destructive"}

func (t Tier) String() string { return name(tierNames, int(t)) }

// Worse returns the worse of t and u.
func (t Tier) Worse(u Tier) Tier { return max(t, u) }

// ParseTier parses "read", "write", "execute" or "destructive".
func ParseTier(s string) (Tier, error) {
	i, err := parse("tier", tierNames, s)
	return Tier(i), err
}

// TierNames lists the valid tier names in order.
func TierNames() []string { return append([]string(nil), tierNames...) }

// MarshalText implements encoding.TextMarshaler.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *Tier) UnmarshalText(b []byte) error {
	p, err := ParseTier(string(b))
	*t = p
	return err
}

// Blast is how much a call can damage if it goes wrong. The zero value is
// BlastNone. Unknown means the effect could not be determined; it ranks above
// Medium and below High when two are compared.
type Blast uint8

// The blast radii.
const (
	BlastNone Blast = iota
	BlastLow
	BlastMedium
	BlastHigh
	BlastCritical
	BlastUnknown
)

var blastNames = []string{"none", "low", "medium", "high", "critical", "unknown"}

// blastRank orders blast radii for Worse: unknown sits between medium and high.
var blastRank = []int{0, 1, 2, 4, 5, 3}

func (b Blast) String() string { return name(blastNames, int(b)) }

// Worse returns the worse of b and c.
func (b Blast) Worse(c Blast) Blast {
	if rank(b) >= rank(c) {
		return b
	}
	return c
}

func rank(b Blast) int {
	if int(b) < len(blastRank) {
		return blastRank[b]
	}
	return 0
}

// ParseBlast parses "none", "low", "medium", "high", "critical" or "unknown".
func ParseBlast(s string) (Blast, error) {
	i, err := parse("blast radius", blastNames, s)
	return Blast(i), err
}

// BlastNames lists the valid blast radius names.
func BlastNames() []string { return append([]string(nil), blastNames...) }

// MarshalText implements encoding.TextMarshaler.
func (b Blast) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (b *Blast) UnmarshalText(t []byte) error {
	p, err := ParseBlast(string(t))
	*b = p
	return err
}

// VerdictNames lists the valid verdict names in order.
func VerdictNames() []string { return append([]string(nil), verdictNames...) }

func name(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return fmt.Sprintf("invalid(%d)", i)
}

func parse(what string, names []string, s string) (int, error) {
	for i, n := range names {
		if strings.EqualFold(n, strings.TrimSpace(s)) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (valid: %s)", what, s, strings.Join(names, ", "))
}

// EnumValues lists the valid names (for generated schemas and docs).
func (Verdict) EnumValues() []string { return VerdictNames() }

// EnumValues lists the valid names (for generated schemas and docs).
func (Tier) EnumValues() []string { return TierNames() }

// EnumValues lists the valid names (for generated schemas and docs).
func (Blast) EnumValues() []string { return BlastNames() }
