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
