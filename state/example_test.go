package state_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolguard/toolguard/state"
)

// UpdateJSON is a locked read-modify-write that other processes see
// atomically; a corrupt file is set aside with an error, never reset.
func ExampleUpdateJSON() {
	dir, _ := os.MkdirTemp("", "state")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "counter.json")
	type counter struct {
		N int `json:"n"`
	}
	for range 2 {
		var c counter
		state.UpdateJSON(context.Background(), path, &c, func(c *counter) (bool, error) {
			c.N++
			return true, nil
		})
		fmt.Println(c.N)
	}

	os.WriteFile(path, []byte("{oops"), 0o600)
	var c counter
	err := state.ReadJSON(context.Background(), path, &c)
	_, isCorrupt := err.(*state.CorruptError)
	fmt.Println(isCorrupt)
	// Output:
	// 1
	// 2
	// true
}

func ExampleFileName() {
	fmt.Println(state.FileName("../../etc/passwd"))
	// Output:
	// %2E%2E%2F%2E%2E%2Fetc%2Fpasswd
}
