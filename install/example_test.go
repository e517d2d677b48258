package install_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolguard/toolguard/install"
)

func ExamplePlan() {
	home, _ := os.MkdirTemp("", "home")
	defer os.RemoveAll(home)
	settings := filepath.Join(home, ".codex", "hooks.json")
	_ = os.MkdirAll(filepath.Dir(settings), 0o755)
	_ = os.WriteFile(settings, []byte("{\n  \"hooks\": {}\n}\n"), 0o644)

	c, err := install.Plan("codex", install.User, install.Options{Home: home, Program: "toolguard"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(c.After))
	if err := install.Apply(c); err != nil {
		fmt.Println(err)
	}
	again, _ := install.Plan("codex", install.User, install.Options{Home: home, Program: "toolguard"})
	fmt.Println("second install changes the file:", again.Changed())
	// Output:
	// {
	//   "hooks": {
	//     "PreToolUse": [
	//       {
	//         "matcher": "*",
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "toolguard hook codex",
	//             "timeout": 150
	//           }
	//         ]
	//       }
	//     ],
	//     "PermissionRequest": [
	//       {
	//         "matcher": "*",
	//         "hooks": [
	//           {
	//             "type": "command",
	//             "command": "toolguard hook codex",
	//             "timeout": 150
	//           }
	//         ]
	//       }
	//     ]
	//   }
	// }
	// second install changes the file: false
}

// UntrustCodexHooks removes the trust records of hooks that are gone; here
// config.toml held nothing else, so it goes too.
func ExampleUntrustCodexHooks() {
	home, _ := os.MkdirTemp("", "home")
	defer os.RemoveAll(home)
	cfg := install.CodexConfigFile(home, filepath.Join(home, ".codex"))
	hook := install.CodexHook{Key: filepath.Join(home, ".codex", "hooks.json") + ":pre_tool_use:0:0", CurrentHash: "sha256:ab12"}
	if err := install.TrustCodexHooks(cfg, []install.CodexHook{hook}); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(cfg)
	fmt.Println("trusted:", len(b) > 0)
	if err := install.UntrustCodexHooks(cfg, home, []install.CodexHook{hook}); err != nil {
		fmt.Println(err)
		return
	}
	_, err := os.Stat(filepath.Join(home, ".codex"))
	fmt.Println("~/.codex left:", err == nil)
	// Output:
	// trusted: true
	// ~/.codex left: false
}
