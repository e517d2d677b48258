package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlanService(t *testing.T) {
	home := t.TempDir()
	before := snapshot(t, home)
	c, err := PlanService(ServiceOptions{Home: home, Program: "/usr/local/bin/toolguard", Addr: "127.0.0.1:9999", GOOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, ".config/systemd/user/toolguard.service"); c.File != want {
		t.Errorf("file %s, want %s", c.File, want)
	}
	if !strings.Contains(string(c.After), "ExecStart=/usr/local/bin/toolguard serve --addr 127.0.0.1:9999\n") {
		t.Errorf("unit:\n%s", c.After)
	}
	if err := Apply(c); err != nil {
		t.Fatal(err)
	}
	again, err := PlanService(ServiceOptions{Home: home, Program: "/usr/local/bin/toolguard", Addr: "127.0.0.1:9999", GOOS: "linux"})
	if err != nil || again.Changed() {
		t.Errorf("a second install changes something: %v %q", err, again.Diff)
	}
	rm, err := PlanServiceRemoval(ServiceOptions{Home: home, GOOS: "linux"})
	if err != nil || rm.After != nil || !rm.Changed() {
		t.Fatalf("removal: %v %+v", err, rm)
	}
	if err := Apply(rm); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, snapshot(t, home)); diff != "" {
		t.Errorf("removing the service left the home changed (-before +after):\n%s", diff)
	}
	mac, err := PlanService(ServiceOptions{Home: home, Program: "/opt/tg/toolguard", GOOS: "darwin"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(mac.File, "Library/LaunchAgents/dev.toolguard.serve.plist") ||
		!strings.Contains(string(mac.After), "<string>/opt/tg/toolguard</string>\n\t\t<string>serve</string>") {
		t.Errorf("launchd agent %s:\n%s", mac.File, mac.After)
	}
}

func TestServiceErrors(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		opts ServiceOptions
		want string
	}{
		{ServiceOptions{Home: home, Program: "toolguard", GOOS: "linux"}, `the service needs the toolguard program's absolute path, not "toolguard"`},
		{ServiceOptions{Home: home, Program: "/x/toolguard", Addr: "a\nb", GOOS: "linux"}, "the program path and address may not contain newlines, quotes, backslashes, <, >, &, % or $"},
		{ServiceOptions{Home: home, Program: "/x/toolguard", GOOS: "windows"}, "no user service for windows (supported: linux with systemd, darwin with launchd); run toolguard serve from your session instead"},
	} {
		_, err := PlanService(c.opts)
		if diff := cmp.Diff(c.want, errString(err)); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", c.opts, diff)
		}
	}
	unit := filepath.Join(home, ".config/systemd/user/toolguard.service")
	if err := os.MkdirAll(filepath.Dir(unit), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(unit, []byte("[Service]\nExecStart=/bin/true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PlanServiceRemoval(ServiceOptions{Home: home, GOOS: "linux"}); err == nil || !strings.Contains(err.Error(), "was not written by toolguard install service") {
		t.Errorf("removing a foreign unit: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
