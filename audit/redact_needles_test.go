package audit

import (
	"strings"
	"testing"
)

// TestNeedlesFindWhatContainsFinds checks the one-pass literal scan against
// strings.Contains, with literals whose hashed bigrams collide.
func TestNeedlesFindWhatContainsFinds(t *testing.T) {
	lits := []string{"a", "%", "-p", "-hp", "login", "secret", "token", "://", "@", "private key",
		"hooks.slack.com", "api.telegram.org/bot", "ghp_", "xoxb-", "config", "--stdin"}
	// Find two bigrams that share a slot and add them, so a bucket holds
	// literals with different first bytes.
	slots := map[uint16]string{}
	for a := byte(' '); a < 0x7f && len(lits) < 40; a++ {
		for b := byte(' '); b < 0x7f; b++ {
			bg := string([]byte{a, b})
			if other, ok := slots[bigram(a, b)]; ok && other[0] != a {
				lits = append(lits, other+"x", bg+"y")
				break
			}
			slots[bigram(a, b)] = bg
		}
	}
	if len(lits) < 18 {
		t.Fatal("found no two bigrams sharing a slot; the test no longer covers shared buckets")
	}
	var n needles
	ids := make([]int, len(lits))
	for i, l := range lits {
		ids[i] = n.index(l)
	}
	if again := n.index(lits[3]); again != ids[3] {
		t.Fatalf("index of a known literal = %d, want %d", again, ids[3])
	}
	texts := []string{"", "a", "git status", "mysql -hp -psecret", "curl https://u:p@host/",
		"echo xoxb-123 ghp_abc", "-----begin private key-----", strings.Join(lits, " "),
		"api.telegram.org/bot1:2 --stdin config", "%%%%"}
	for i := range lits {
		texts = append(texts, "zz"+lits[i]+"zz", lits[i][:len(lits[i])-1])
	}
	for _, text := range texts {
		f := n.scan(text)
		for i, l := range lits {
			if got, want := f.has(ids[i]), strings.Contains(text, l); got != want {
				t.Errorf("scan(%q) has %q = %v, want %v", text, l, got, want)
			}
		}
	}
}
