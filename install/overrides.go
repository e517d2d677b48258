package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"

	"github.com/toolguard/toolguard/hook"
)

// Overrides lists the settings that keep an agent from running toolguard's
// hook even though it is installed: Claude Code's disableAllHooks (in any
// settings file it reads) and managed settings that allow only managed
// hooks; Gemini CLI's hooksConfig.enabled = false. Each entry names the file
// and the setting. Files that cannot be read are skipped.
func Overrides(agent, home, project string) []string {
	var out []string
	switch agent {
	case hook.ClaudeCode:
		for _, f := range []string{filepath.Join(home, ".claude", "settings.json"),
			filepath.Join(project, ".claude", "settings.json"), filepath.Join(project, ".claude", "settings.local.json")} {
			if v, ok := jsonPath(f, "disableAllHooks"); ok && v == true {
				out = append(out, f+": disableAllHooks is true, so Claude Code runs no hook")
			}
		}
		for _, f := range managedSettings() {
			if v, ok := jsonPath(f, "disableAllHooks"); ok && v == true {
				out = append(out, f+" (managed): disableAllHooks is true, so Claude Code runs no hook")
			}
			if v, ok := jsonPath(f, "allowManagedHooksOnly"); ok && v == true {
				out = append(out, f+" (managed): allowManagedHooksOnly is true, so Claude Code runs only hooks from managed settings")
			}
		}
	case hook.GeminiCLI:
		for _, f := range []string{filepath.Join(home, ".gemini", "settings.json"),
			filepath.Join(project, ".gemini", "settings.json"), geminiSystemSettings()} {
			if v, ok := jsonPath(f, "hooksConfig", "enabled"); ok && v == false {
				out = append(out, f+": hooksConfig.enabled is false, so Gemini CLI runs no hook")
			}
		}
	}
	return out
}

// managedSettings lists Claude Code's managed settings files; tests
// replace it.
var managedSettings = claudeManagedSettings

// claudeManagedSettings are the managed settings files Claude Code reads.
func claudeManagedSettings() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{"/Library/Application Support/ClaudeCode/managed-settings.json"}
	case "windows":
		return []string{`C:\Program Files\ClaudeCode\managed-settings.json`}
	}
	return []string{"/etc/claude-code/managed-settings.json"}
}

// geminiSystemSettings is Gemini CLI's system-wide settings file.
func geminiSystemSettings() string {
	if p := os.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); p != "" {
		return p
	}
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/GeminiCli/settings.json"
	case "windows":
		return `C:\ProgramData\gemini-cli\settings.json`
	}
	return "/etc/gemini-cli/settings.json"
}

// jsonPath reads the value at keys in a JSON file; ok is false when the
// file or the key is absent or the file is not JSON.
func jsonPath(file string, keys ...string) (any, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, false
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil, false
	}
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}
