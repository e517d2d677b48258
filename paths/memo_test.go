package paths

import (
	"strconv"
	"testing"
)

// memoAgrees runs ops on a memo and on a map (the slow path it replaces,
// remember's), asking each for every key before putting one it lacks, as
// Lookups does: their answers must agree.
func memoAgrees(t *testing.T, ops []byte) {
	t.Helper()
	var c memo[int]
	var m map[string]int
	for i, op := range ops {
		k := strconv.Itoa(int(op % 32))
		got, gok := c.get(k)
		want, wok := m[k]
		if got != want || gok != wok {
			t.Fatalf("op %d: get(%q) = %d, %v; the map says %d, %v", i, k, got, gok, want, wok)
		}
		if !gok {
			c.put(k, i)
			remember(&m, k, i)
		}
	}
}

// TestMemoAgrees checks a memo against a map for sequences that stay in
// place, fill it, and spill into its map.
func TestMemoAgrees(t *testing.T) {
	for _, ops := range []string{"", "a", "aa", "abcabc", "abcdef", "abcdefg", "abcdefghijabcdefghij", "gfedcbahgfedcba",
		"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz"} {
		t.Run(ops, func(t *testing.T) { memoAgrees(t, []byte(ops)) })
	}
}

// FuzzMemoAgrees: a memo answers as a map does, whatever the keys put.
func FuzzMemoAgrees(f *testing.F) {
	f.Add([]byte("abcdefghabcdefgh"))
	f.Fuzz(func(t *testing.T, ops []byte) { memoAgrees(t, ops) })
}
