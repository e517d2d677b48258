package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// launcherDeps are the only non-standard packages the launcher may link:
// it starts for every tool call of every agent, so whatever it links it
// pays for on each call (docs/benchmarks.md).
var launcherDeps = map[string]bool{
	module + "/cmd/toolguard":     true,
	module + "/internal/launcher": true,
	module + "/internal/relay":    true,
	module + "/internal/xdg":      true,
	"golang.org/x/sys/unix":       true,
}

// launcherBannedStd are standard packages whose initialisation or size the
// launcher must not carry.
var launcherBannedStd = []string{"fmt", "net", "net/http", "encoding/json", "regexp", "os/exec", "crypto/sha256", "log"}

// TestLauncherStaysSmall keeps cmd/toolguard to its short list of
// dependencies.
func TestLauncherStaysSmall(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}|{{.ImportPath}}", module+"/cmd/toolguard").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		nonStd, path, _ := strings.Cut(line, "|")
		if nonStd != "" && !launcherDeps[nonStd] {
			t.Errorf("the launcher links %s; it may link only %v and the standard library", nonStd, keys(launcherDeps))
		}
		for _, b := range launcherBannedStd {
			if path == b {
				t.Errorf("the launcher links %s, which every hook call would pay for", b)
			}
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, strings.TrimPrefix(k, module+"/"))
	}
	return out
}
