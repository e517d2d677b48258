package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSessionStartFile: the files a shell or a login session reads when it
// starts, where toolguard's variables would change later sessions' guard.
func TestSessionStartFile(t *testing.T) {
	for p, want := range map[string]bool{
		"/home/u/.bashrc":                            true,
		"/home/u/.config/fish/config.fish":           true,
		"/home/u/.config/environment.d/90-dev.conf":  true,
		"/etc/environment.d/10-site.conf":            true,
		"/home/u/.config/environment.d/notes.txt":    false,
		"/etc/environment":                           true,
		"/home/u/.pam_environment":                   true,
		"/etc/profile.d/tg.sh":                       true,
		"/etc/profile.d/README":                      false,
		"/home/u/.config/fish/conf.d/tg.fish":        true,
		"/home/u/project/conf.d/site.fish":           false,
		"/home/u/project/environment":                false,
		"/home/u/project/.env":                       false,
		"/home/u/.config/systemd/user/x.service":     false,
		"/home/u/project/deploy/environment.d/a.txt": false,
	} {
		if got := sessionStartFile(p); got != want {
			t.Errorf("sessionStartFile(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestUsualShadowPrograms: with no PATH known, the per-user program
// directories and /usr/local/bin are where a toolguard would shadow the
// guard's own; with no home, only the system one.
func TestUsualShadowPrograms(t *testing.T) {
	for _, tc := range []struct {
		home string
		want []string
	}{
		{"/home/u", []string{"/home/u/.local/bin/toolguard", "/home/u/bin/toolguard", "/usr/local/bin/toolguard"}},
		{"", []string{"/usr/local/bin/toolguard"}},
	} {
		if diff := cmp.Diff(tc.want, usualShadowPrograms(tc.home)); diff != "" {
			t.Errorf("usualShadowPrograms(%q) (-want +got):\n%s", tc.home, diff)
		}
	}
}
