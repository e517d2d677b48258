package serveproc

import "testing"

func TestIsServe(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"toolguard", "serve", "--addr", "127.0.0.1:0"}, true},
		{[]string{"toolguard", "serve"}, true},
		{[]string{"toolguard", "hook", "codex"}, false},
		{[]string{"toolguard", "--config", "x", "serve"}, false},
		{[]string{"toolguard"}, false},
		{nil, false},
	} {
		if got := IsServe(c.args); got != c.want {
			t.Errorf("IsServe(%q) = %v, want %v", c.args, got, c.want)
		}
	}
}
