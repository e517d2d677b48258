package paths

import "testing"

func TestUnreadable(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Home = "/home/u"
	cfg.Denied = append(cfg.Denied, "/srv/keys/**")
	c, err := Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		"/home/u/.ssh/id_rsa":             true,
		"/home/u/.ssh/id_ed25519":         true,
		"/home/u/.ssh":                    true,
		"/home/u/.ssh/config":             false,
		"/home/u/.ssh/known_hosts":        false,
		"/home/u/.ssh/id_rsa.pub":         false,
		"/home/u/.aws/credentials":        true,
		"/home/u/.aws/config":             false,
		"/home/u/src/app/.env":            true,
		"/home/u/src/app/.env.example":    false,
		"/home/u/src/app/main.go":         false,
		"/home/u/src/app/credentials.go":  false,
		"/home/u/.config/gh/hosts.yml":    true,
		"/home/u/.bashrc":                 false,
		"/home/u/notes.txt":               false,
		"/srv/keys/deploy":                true,
		"/srv/www/index.html":             false,
		"/home/u/.local/share/keyrings/x": true,
		"/home/u/.claude/settings.json":   false,
	} {
		if got := c.Unreadable(path); got != want {
			t.Errorf("Unreadable(%s) = %v, want %v", path, got, want)
		}
	}
}
