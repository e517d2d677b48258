package risk

import (
	"math/rand"
	"strings"
	"testing"
)

// containsSet is the set of shapes one of whose Need literals the
// lower-cased s contains, literal by literal: what needleIndex.scan must
// find in one pass.
func containsSet(s string) uint64 {
	lower := strings.ToLower(s)
	var set uint64
	for i, t := range TokenShapes {
		for _, n := range t.Need {
			if strings.Contains(lower, n) {
				set |= 1 << i
				break
			}
		}
	}
	return set
}

// checkScan compares the one-pass scan and FindToken with the literal way
// on s.
func checkScan(t *testing.T, s string) {
	t.Helper()
	found, ascii := tokenNeedles().scan(s)
	if ascii != isASCII(s) {
		t.Fatalf("scan(%q): ascii %v", s, ascii)
	}
	if ascii && found != containsSet(s) {
		t.Fatalf("scan(%q) = %b, strings.Contains finds %b", s, found, containsSet(s))
	}
	if got, want := FindToken(s), findTokenPlain(s); got != want {
		t.Fatalf("FindToken(%q) = %q, literal by literal %q", s, got, want)
	}
}

// TestFindTokenIndex checks the one-pass scan against strings.Contains of
// every literal, on texts made of the literals (in both cases, cut short,
// overlapping, at the start and at the end), the forms of the credentials
// themselves and ordinary words.
func TestFindTokenIndex(t *testing.T) {
	if tokenNeedles() == nil {
		t.Fatal("no index for TokenShapes")
	}
	var lits []string
	for _, sh := range TokenShapes {
		lits = append(lits, sh.Need...)
	}
	pieces := append([]string{"", "a", "-", "_", ".", " ", "=", "K", "\u212a", "é", "0123456789abcdef",
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "curl", "https://example.com/install.sh", "--force"}, lits...)
	for _, l := range lits {
		pieces = append(pieces, strings.ToUpper(l), l[:len(l)-1], l[1:], strings.ToUpper(l[:1])+l[1:])
	}
	for _, a := range pieces {
		for _, b := range pieces {
			checkScan(t, a+b)
		}
	}
	rng := rand.New(rand.NewSource(1))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.Intn(6) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
			if rng.Intn(3) == 0 {
				b.WriteString(strings.Repeat("A1b2", rng.Intn(20)))
			}
		}
		checkScan(t, b.String())
	}
}

// FuzzFindToken compares FindToken with the literal way.
func FuzzFindToken(f *testing.F) {
	f.Add("ghp_0123456789abcdefghijABCDEFGHIJ0123")
	f.Add("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
	f.Add("aws_secret_access_\u212aey=wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
	f.Add("-----BEGIN RSA PRIVATE KEY-----")
	f.Add("xoXb-1234567890-abc")
	f.Fuzz(func(t *testing.T, s string) { checkScan(t, s) })
}
