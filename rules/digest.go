package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strconv"
	"sync"
)

// Digest identifies the embedded rule packs and effect model: "sha256:"
// and the hex SHA-256 of every embedded file's path and bytes, in the
// order the packs are loaded (packs/ then effects/, each sorted by name).
// Two programs built from the same pack files have the same digest; any
// change to a pack changes it.
//
// A program with packs_gen.go (the packs compiled ahead of time) has the
// digest written there by `go generate ./rules`, so that asking for it
// does not read the 1 MB of embedded TOML; TestGeneratedPacks keeps it in
// step with the files. Without packs_gen.go it is computed once, on first
// use.
func Digest() string {
	if generatedDigest != "" {
		return generatedDigest
	}
	return embeddedDigest()
}

// generatedDigest is the digest packs_gen.go records; empty without it.
var generatedDigest string

// embeddedDigest computes the digest from the embedded files.
var embeddedDigest = sync.OnceValue(func() string {
	h := sha256.New()
	for _, dir := range builtinDirs {
		entries, err := fs.ReadDir(builtinFS, dir)
		if err != nil {
			panic("rules: reading the embedded packs: " + err.Error()) // embedded at build time: cannot fail
		}
		for _, e := range entries {
			file := dir + "/" + e.Name()
			data, err := builtinFS.ReadFile(file)
			if err != nil {
				panic("rules: reading the embedded packs: " + err.Error())
			}
			// Length-prefixed, so that no two file sets encode alike.
			h.Write(strconv.AppendInt(nil, int64(len(file)), 10))
			h.Write([]byte{':'})
			h.Write([]byte(file))
			h.Write(strconv.AppendInt(nil, int64(len(data)), 10))
			h.Write([]byte{':'})
			h.Write(data)
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
})
