package fleet

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash"
	"sync/atomic"
)

// A fleet key signs what replicas and hooks write to the database that
// decides what may run: grants, approval cards, approval answers and
// notifications. Whoever can connect to the database but does not hold
// the key (an agent that reached it) can still write rows, but they carry
// no valid signature and count for nothing: they are ignored, counted
// ([Store.Rejected]) and reported by [Store.Check].
//
// A signature is HMAC-SHA256 under a key derived from the key file's
// content, over the kind of row and its fields, each preceded by its
// length, so no two different rows sign the same bytes.

// ErrNoKey is returned by an operation that must sign a row when the
// Store was opened without a fleet key.
var ErrNoKey = errors.New("no fleet key: set [state] key_file (see docs/fleet.md)")

// The kinds of signed rows, as [Store.Rejected] counts them.
const (
	KindGrant        = "grant"
	KindCard         = "card"
	KindAnswer       = "answer"
	KindNotification = "notification"
)

var kinds = [...]string{KindGrant, KindCard, KindAnswer, KindNotification}

// sealer signs and checks rows with one fleet key.
type sealer struct {
	key      []byte // nil: no key; nothing verifies, nothing can be signed
	rejected [len(kinds)]atomic.Int64
}

// newSealer derives the signing key from secret (the key file's content);
// an empty secret gives a sealer that signs nothing and accepts nothing.
func newSealer(secret []byte) *sealer {
	if len(secret) == 0 {
		return &sealer{}
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("toolguard fleet rows v1"))
	return &sealer{key: m.Sum(nil)}
}

// sign returns the signature of a row of kind with fields, or ErrNoKey.
func (s *sealer) sign(kind string, fields ...[]byte) (string, error) {
	if s.key == nil {
		return "", ErrNoKey
	}
	return base64.RawURLEncoding.EncodeToString(s.sum(kind, fields)), nil
}

func (s *sealer) sum(kind string, fields [][]byte) []byte {
	m := hmac.New(sha256.New, s.key)
	writeField(m, []byte(kind))
	for _, f := range fields {
		writeField(m, f)
	}
	return m.Sum(nil)
}

func writeField(h hash.Hash, f []byte) {
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(f)))])
	h.Write(f)
}

// valid reports whether mac signs the row; a row that does not is counted
// as rejected.
func (s *sealer) valid(mac, kind string, fields ...[]byte) bool {
	if s.check(mac, kind, fields...) {
		return true
	}
	s.reject(kind)
	return false
}

// check is valid without counting.
func (s *sealer) check(mac, kind string, fields ...[]byte) bool {
	if s.key == nil {
		return false
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(mac)
	return err == nil && hmac.Equal(got, s.sum(kind, fields))
}

func (s *sealer) reject(kind string) {
	for i, k := range kinds {
		if k == kind {
			s.rejected[i].Add(1)
		}
	}
}

// macLen is the length of an encoded signature.
var macLen = base64.RawURLEncoding.EncodedLen(sha256.Size)

// sealNotice is the payload of a notification on channel: the signature
// of body, a dot, and body.
func (s *sealer) sealNotice(channel string, body []byte) (string, error) {
	mac, err := s.sign(KindNotification, []byte(channel), body)
	if err != nil {
		return "", err
	}
	return mac + "." + string(body), nil
}

// openNotice returns the body of a notification payload signed for
// channel; false (and counted) when it is not.
func (s *sealer) openNotice(channel string, payload []byte) ([]byte, bool) {
	mac, body, ok := bytes.Cut(payload, []byte("."))
	if !ok || len(mac) != macLen {
		s.reject(KindNotification)
		return nil, false
	}
	if !s.valid(string(mac), KindNotification, []byte(channel), body) {
		return nil, false
	}
	return body, true
}

// Rejected counts the rows and notifications of each kind that this Store
// ignored because they did not carry a valid signature of the fleet key.
type Rejected map[string]int64

// Rejected returns how many rows of each kind (KindGrant, KindCard,
// KindAnswer, KindNotification) this Store ignored since it opened.
func (s *Store) Rejected() Rejected {
	out := make(Rejected, len(kinds))
	for i, k := range kinds {
		out[k] = s.seal.rejected[i].Load()
	}
	return out
}

// Signed reports whether the Store holds a fleet key.
func (s *Store) Signed() bool { return s.seal.key != nil }
