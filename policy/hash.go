package policy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolguard/toolguard/rules"
)

// Hash identifies the policy p enforces: "sha256:" and the hex SHA-256 of
// a canonical encoding of
//
//   - the effective configuration ([Policy.Effective]): the mode and its
//     table, every setting with the defaults filled in and the built-in
//     path and command lists included, the user rules and grants, the
//     profiles and the agents that pick them;
//   - the name of the profile p is ("" for the top level: [Policy.ForAgent]
//     and [Policy.Profile] return policies with hashes of their own);
//   - the built-in high-risk command list;
//   - the identity of the embedded rule packs and effect model
//     ([rules.Digest]).
//
// Two processes that load the same files, environment and flags with the
// same program get the same hash, on any machine; changing any setting
// changes it, except those of [state]. Left out on purpose, because they
// depend on where the process runs rather than on what it decides: the
// [state] table (the fleet database's address and credentials, and this
// replica's name, which differ between the replicas of one fleet), and
// what [Options] supplies: the home directory, toolguard's own paths and
// protected files, the ports of running approval servers, the machine's
// names. Neither does the hash cover toolguard's code: compare program
// versions for that.
//
// The encoding walks the configuration's fields by their policy-file key
// names (maps in sorted key order, strings length-prefixed, an unset
// optional value distinct from a zero one), so it depends neither on map
// order nor on how the files were written (format, layer order, comments):
// only on what is enforced.
//
// It is computed once per Policy, on first use, and cached, so asking for
// it on every decision costs nothing. A [Policy.Tighten]ed copy has its own.
func (p *Policy) Hash() string {
	p.hashOnce.Do(func() { p.hash = p.computeHash() })
	return p.hash
}

// hashVersion names the encoding; a change to it changes every hash.
const hashVersion = "toolguard-policy-hash/1"

//go:generate go test -run ^TestDefault(Hash|Denied)Generated$ -update-generated

// computeHash is [Policy.Hash] without the cache. The policy every call
// with no policy file, variable or flag compiles (an empty [Config]) has
// a hash fixed by the program: `go generate ./policy` records it in
// defaulthash_gen.go with the rule packs' digest it was computed with, and
// a hook process takes it from there instead of encoding and hashing the
// whole default configuration (about 0.3 M instructions). When the packs'
// digest differs, the record is stale and the hash is computed.
// TestDefaultHashGenerated fails when the record no longer matches
// encodeHash.
func (p *Policy) computeHash() string {
	if p.profile == "" && defaultHashRules == rules.Digest() && isEmptyConfig(p.doc) {
		return defaultHash
	}
	return p.encodeHash()
}

// isEmptyConfig reports whether c sets nothing: no layer set anything.
func isEmptyConfig(c *Config) bool {
	return c != nil && reflect.ValueOf(c).Elem().IsZero()
}

// encodeHash encodes the effective configuration and hashes it.
func (p *Policy) encodeHash() string {
	e := canonEncoder{buf: make([]byte, 0, 8<<10)} // the default policy encodes to ~4 KB
	e.str(hashVersion)
	e.str("profile")
	e.str(p.profile)
	e.str("rules")
	e.str(rules.Digest())
	e.str("high_risk_commands")
	e.value(reflect.ValueOf(HighRiskCommands()))
	e.str("config")
	e.value(reflect.ValueOf(p.Effective()).Elem())
	sum := sha256.Sum256(e.buf)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// canonEncoder writes a canonical, unambiguous encoding of a configuration
// value. It uses reflect rather than encoding/json: a hook process hashes
// its policy once for its audit record, and json's first use builds
// encoders for the whole Config type tree (about 0.3 ms in a fresh
// process); the whole hash costs about 0.06 ms there.
type canonEncoder struct{ buf []byte }

var timeType = reflect.TypeFor[time.Time]()

func (e *canonEncoder) str(s string) {
	e.buf = append(e.buf, 's')
	e.buf = strconv.AppendInt(e.buf, int64(len(s)), 10)
	e.buf = append(e.buf, ':')
	e.buf = append(e.buf, s...)
}

func (e *canonEncoder) value(v reflect.Value) {
	if v.Type() == timeType {
		e.buf = append(e.buf, 'T')
		e.str(v.Interface().(time.Time).UTC().Format(time.RFC3339Nano))
		return
	}
	switch v.Kind() {
	case reflect.String:
		e.str(v.String())
	case reflect.Bool:
		e.buf = append(e.buf, "ft"[b2i(v.Bool())])
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = append(e.buf, 'i')
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
		e.buf = append(e.buf, ';')
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.buf = append(e.buf, 'u')
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
		e.buf = append(e.buf, ';')
	case reflect.Float32, reflect.Float64:
		e.buf = append(e.buf, 'd')
		e.buf = strconv.AppendFloat(e.buf, v.Float(), 'g', -1, 64)
		e.buf = append(e.buf, ';')
	case reflect.Pointer:
		if v.IsNil() {
			e.buf = append(e.buf, 'n')
			return
		}
		e.buf = append(e.buf, 'p')
		e.value(v.Elem())
	case reflect.Slice, reflect.Array:
		// A nil and an empty list enforce the same: both encode as empty.
		e.buf = append(e.buf, 'l')
		e.buf = strconv.AppendInt(e.buf, int64(v.Len()), 10)
		e.buf = append(e.buf, ':')
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Map:
		e.mapValue(v)
	case reflect.Struct:
		e.structValue(v)
	default:
		// TestHashEncodesEveryConfigField keeps Config free of these.
		panic(fmt.Sprintf("policy: Hash cannot encode a %s", v.Type()))
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mapValue encodes the entries in the order of their encoded keys.
func (e *canonEncoder) mapValue(v reflect.Value) {
	type entry struct{ key, val []byte }
	entries := make([]entry, 0, v.Len())
	it := v.MapRange()
	for it.Next() {
		var k, val canonEncoder
		k.value(it.Key())
		val.value(it.Value())
		entries = append(entries, entry{k.buf, val.buf})
	}
	slices.SortFunc(entries, func(a, b entry) int { return bytes.Compare(a.key, b.key) })
	e.buf = append(e.buf, 'm')
	e.buf = strconv.AppendInt(e.buf, int64(len(entries)), 10)
	e.buf = append(e.buf, ':')
	for _, en := range entries {
		e.buf = append(e.buf, en.key...)
		e.buf = append(e.buf, en.val...)
	}
}

var settingsType = reflect.TypeFor[Settings]()

// structValue encodes the exported fields under their policy-file key
// (the toml tag; the Go name without one), in declaration order. The
// [state] table of Settings is left out: it says where shared state is
// kept and what this process is called there, not what is decided.
func (e *canonEncoder) structValue(v reflect.Value) {
	t := v.Type()
	e.buf = append(e.buf, '{')
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if t == settingsType && name == "state" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		e.str(name)
		e.value(v.Field(i))
	}
	e.buf = append(e.buf, '}')
}
