package paths

import (
	"slices"
	"strings"
)

//go:generate go test -run ^TestBuiltinSourcesGenerated$ -update-builtin

// builtinIndex (builtin_gen.go, written by `go generate ./paths`) returns
// where a built-in pattern is in the sorted list of them (-1 for any other
// pattern), by a switch the compiler turns into a
// binary search over constants (no table to build at start-up). The
// built-in patterns are the Default lists' and the agent settings files
// toolguard protects (hook.ProtectedPaths), sorted, once each. They are
// constants known to compile with any home holding no glob byte
// (TestBuiltinSourcesCompile), so Compile leaves a list made only of them
// and of literal absolute paths uncompiled until a judgement first asks it:
// a hook process judges no path against most lists, and classifying the
// ~260 patterns of every list was a tenth of its instructions.
// builtinScanKeys holds each one's scanKey, in the same order, packed as
// the places in the pattern of the key's strings (~1.3 K without
// pointers, rather than ~10 K of string headers: a hook process touched
// the pages).
// TestBuiltinSourcesGenerated fails when the tables no longer match the
// lists or scanKeyOf.

// knownValid reports whether every one of srcs compiles without error
// whatever the (glob-free) home: a built-in pattern, or a plain absolute
// one.
func knownValid(srcs []string) bool {
	_, ok := builtinKeys(srcs)
	return ok
}

// noScanKey marks a source with no generated scanKey (not built-in).
const noScanKey = ^uint16(0)

// builtinKeys is knownValid, also returning where each source's scanKey
// is in builtinScanKeys (noScanKey for a plain absolute pattern that is
// not built-in).
func builtinKeys(srcs []string) ([]uint16, bool) {
	keys := make([]uint16, len(srcs))
	start := 0
	if g := defaultPrefix(srcs); g != nil {
		start = copy(keys, g.keys) // a default list's keys are generated with it
	}
	for i := start; i < len(srcs); i++ {
		s := srcs[i]
		k := builtinIndex(s)
		if k < 0 {
			if !plainAbs(s) {
				return nil, false
			}
			k = int(noScanKey)
		}
		keys[i] = uint16(k)
	}
	return keys, true
}

// defaultPrefix returns the default list srcs starts with (the policy
// passes each default list, as a copy, followed by the user's patterns),
// or nil. Its strings are the generated ones, so comparing them costs a
// pointer comparison each, not the ~70 instructions of builtinIndex.
func defaultPrefix(srcs []string) *generatedList {
	for i := range defaultLists {
		g := &defaultLists[i]
		if n := len(g.srcs); n > 0 && n <= len(srcs) && slices.Equal(srcs[:n], g.srcs) {
			return g
		}
	}
	return nil
}

// isBuiltin reports whether s is a built-in pattern.
func isBuiltin(s string) bool { return builtinIndex(s) >= 0 }

// scanKeyAt returns the scanKey of srcs[i], keys being builtinKeys' (or
// nil: every key worked out).
func scanKeyAt(keys []uint16, srcs []string, i int) scanKey {
	if i < len(keys) && keys[i] != noScanKey {
		return builtinScanKeys[keys[i]].unpack(srcs[i])
	}
	return scanKeyOf(srcs[i])
}

// A packedKey is a scanKey of a source src: its kind, then the offset
// and length in src of a and of b (each a part of src, as scanKeyOf
// works them out).
type packedKey [5]uint8

// unpack returns the scanKey k packs for src.
func (k packedKey) unpack(src string) scanKey {
	return scanKey{kind: k[0], a: src[k[1] : k[1]+k[2]], b: src[k[3] : k[3]+k[4]]}
}

// pack packs k, src's scanKey; ok is false when a part of it is not in src
// or lies beyond 255 bytes.
func (k scanKey) pack(src string) (p packedKey, ok bool) {
	ai, bi := strings.Index(src, k.a), strings.Index(src, k.b)
	if ai < 0 || bi < 0 || ai+len(k.a) > 255 || bi+len(k.b) > 255 {
		return p, false
	}
	return packedKey{k.kind, uint8(ai), uint8(len(k.a)), uint8(bi), uint8(len(k.b))}, true
}

// plainAbs reports whether s is an absolute path whose only glob byte is
// '*' ("/dir/**", "/dir/*.token"), with no NUL: always a valid pattern.
// toolguard's own state and config directories and programs are such.
func plainAbs(s string) bool {
	if !strings.HasPrefix(s, "/") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || (isGlobMeta[c] && c != '*') {
			return false
		}
	}
	return true
}
