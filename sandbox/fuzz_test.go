package sandbox

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzDecodeHelperSpec checks that the helper's decoder never panics and
// that whatever it accepts is valid and survives a round trip.
func FuzzDecodeHelperSpec(f *testing.F) {
	f.Add([]byte(`{"path":"/bin/true","argv":["true"],"env":["A=b"],"limits":{"data":536870912}}`))
	f.Add([]byte(`{"path":"/bin/sh","argv":["sh","-c","x"],"env":[],"limits":{},"landlock":{"min_abi":4,"ro_dirs":["/usr"],"rw_dirs":["/w"],"devices":["/dev/null"],"restrict_network":true},"drop_capabilities":true}`))
	f.Add([]byte(`{"path":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := decodeHelperSpec(data)
		if err != nil {
			return
		}
		if err := spec.validate(); err != nil {
			t.Fatalf("accepted an invalid spec: %v", err)
		}
		again, err := json.Marshal(spec)
		if err != nil {
			t.Fatal(err)
		}
		round, err := decodeHelperSpec(again)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", again, err)
		}
		if diff := cmp.Diff(spec, round); diff != "" {
			t.Errorf("round trip (-first +second):\n%s", diff)
		}
	})
}

// FuzzScrubEnv checks that no secret-looking name survives the scrub
// unless passed through exactly, and that every entry is NAME=VALUE.
func FuzzScrubEnv(f *testing.F) {
	f.Add("FOO_TOKEN=x\x00PATH=/bin\x00LC_X=y", "NPM_*")
	f.Add("AWS_KEY=1\x00=x\x00A", "AWS_KEY")
	f.Fuzz(func(t *testing.T, envBlock, pass string) {
		p, err := compilePassthrough([]string{pass})
		if err != nil {
			return
		}
		for _, kv := range scrubEnv(strings.Split(envBlock, "\x00"), p, "/t") {
			name, _, ok := strings.Cut(kv, "=")
			if !ok || name == "" {
				t.Fatalf("malformed entry %q", kv)
			}
			if LooksSecret(name) && name != pass && name != "TMPDIR" {
				t.Fatalf("secret %q passed with passthrough %q", name, pass)
			}
		}
	})
}
