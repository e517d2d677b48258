package paths

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// lookup's key filter must never hide a key: for every list of the
// defaults, every key of every map, every name and dotted end of the
// generated paths, and random strings, lookup answers as the map does.
func TestLookupKeyFilter(t *testing.T) {
	root := t.TempDir()
	c, ws, _ := indexTree(t, root, 1)
	r := rand.New(rand.NewPCG(3, 3))
	probes := []string{"", ".", "/", "tmp", ".env", ".pem", "README.md", "id_rsa", ".ssh", "credentials"}
	for _, p := range indexPaths(c, ws, r) {
		probes = append(probes, p)
		for _, n := range strings.Split(p, "/") {
			probes = append(probes, n)
			for k := strings.IndexByte(n, '.'); k >= 0; {
				probes = append(probes, n[k:])
				next := strings.IndexByte(n[k+1:], '.')
				if next < 0 {
					break
				}
				k += 1 + next
			}
		}
	}
	for range 2000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		probes = append(probes, string(b))
	}
	sets := []*patternSet{&c.denied, &c.sensitive, &c.sensitiveWrite, &c.protected, &c.escapeHatches, &c.notSecret}
	checked := 0
	for _, s := range sets {
		x := s.index()
		if x == nil {
			continue
		}
		for _, m := range []map[string]uint32{x.named, x.byName, x.byPath, x.byExt} {
			keys := probes
			for k := range m {
				keys = append(keys, k)
			}
			for _, k := range keys {
				b, ok := m[k]
				got := x.lookup(m, k)
				if ok != (got != nil) || ok && got != &x.bits[b] {
					t.Fatalf("lookup(%q) = %v, map has it: %v", k, got, ok)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no index was built")
	}
}
