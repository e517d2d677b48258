//go:build linux

package sandbox_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/toolguard/toolguard/sandbox"
)

// Run a command with its own workspace: it may write there and in its
// private TMPDIR, while the home directory, /tmp and (under Landlock or
// bubblewrap) the network are out of reach.
func ExampleRun() {
	ws, _ := os.MkdirTemp("", "example-ws-*")
	defer os.RemoveAll(ws)
	var out strings.Builder
	res, err := sandbox.Run(context.Background(), sandbox.Spec{
		Argv:      []string{"sh", "-c", "echo hello > greeting && cat greeting && exit 3"},
		Workspace: ws,
		Stdout:    &out,
		Timeout:   10 * time.Second,
	})
	if err != nil {
		fmt.Println("sandbox error:", err)
		return
	}
	fmt.Print(out.String())
	fmt.Println(res)
	// Output:
	// hello
	// exit status 3
}
