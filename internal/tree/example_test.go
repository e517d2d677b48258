package tree_test

import (
	"fmt"
	"time"

	"github.com/toolguard/toolguard/internal/tree"
)

// Config is a small configuration type for the example.
type Config struct {
	Mode    string        `toml:"mode" enum:"strict,supervised,full"`
	Timeout time.Duration `toml:"timeout"`
	Paths   struct {
		Denied []string `toml:"denied"`
	} `toml:"paths"`
}

func ExampleDecode() {
	doc := []byte(`mode = "supervise"
timeout = "30s"

[paths]
deny = ["~/.ssh"]
`)
	n, err := tree.Parse("policy.toml", doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	var c Config
	if err := tree.Decode(n, "policy.toml", &c); err != nil {
		fmt.Println(err)
	}
	fmt.Println("timeout:", c.Timeout)
	// Output:
	// policy.toml:1:8: mode: invalid value "supervise"; did you mean "supervised"? (valid: strict, supervised, full)
	// policy.toml:5:1: paths.deny: unknown key; did you mean "denied"? (valid: denied)
	// timeout: 30s
}

func ExampleDecodeMeta() {
	n, err := tree.Parse("policy.yaml", []byte("paths:\n  denied: [/etc]\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	var c Config
	meta, err := tree.DecodeMeta(n, "policy.yaml", &c)
	fmt.Println(err, meta.Has("paths.denied"), meta.Has("mode"))
	// Output: <nil> true false
}
