package analysis

import "testing"

func TestIsInterpreter(t *testing.T) {
	for name, want := range map[string]bool{
		"python3": true, "Python": true, "pypy3": true, "node": true, "perl5.36": true, "ruby": true, "php8.2": true,
		"lua": true, "luajit": true, "tclsh": true, "wish": true, "Rscript": true, "deno": true, "bun": true,
		"osascript": true, "pwsh": true, "powershell": true,
		"": false, "go": false, "rm": false, "bash": false, "npm": false, "dd": false, "pip": false, "nodemon": true,
	} {
		if got := isInterpreter(name); got != want {
			t.Errorf("isInterpreter(%q) = %v, want %v", name, got, want)
		}
	}
}
