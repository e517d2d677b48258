package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// ServiceAgent is the Change.Agent of the user service ("toolguard install
// service").
const ServiceAgent = "service"

// ServiceOptions configures the user service that keeps "toolguard serve"
// running, for Claude Code's HTTP hook and the approval page.
type ServiceOptions struct {
	// Home is the home directory. Empty means $HOME.
	Home string
	// Program is the absolute path of the toolguard executable. Required.
	Program string
	// Addr is the address serve listens on. Empty means serve's default
	// (127.0.0.1:7878).
	Addr string
	// GOOS picks the service manager: "linux" writes a systemd user unit,
	// "darwin" a launchd agent. Empty means the running system's.
	GOOS string
}

// The files the service is written to, below the home directory.
const (
	systemdUnit = ".config/systemd/user/toolguard.service"
	launchAgent = "Library/LaunchAgents/dev.toolguard.serve.plist"
)

// PlanService plans writing the user service. Applying the change writes
// the file; [ServiceCommands] lists what then enables and starts it.
func PlanService(opts ServiceOptions) (Change, error) {
	c, goos, err := serviceChange(opts)
	if err != nil {
		return c, err
	}
	if !filepath.IsAbs(opts.Program) {
		return c, fmt.Errorf("the service needs the toolguard program's absolute path, not %q", opts.Program)
	}
	if strings.ContainsAny(opts.Program+opts.Addr, "\n\"'\\<>&%$") {
		return c, errors.New("the program path and address may not contain newlines, quotes, backslashes, <, >, &, % or $")
	}
	args := []string{opts.Program, "serve"}
	if opts.Addr != "" {
		args = append(args, "--addr", opts.Addr)
	}
	if goos == "darwin" {
		c.After = launchdPlist(args)
	} else {
		c.After = systemdService(args)
	}
	// Replacing toolguard's own unit keeps no copy of it.
	c.KeepBackup = strings.Contains(string(c.Before), serviceMark)
	return finish(c, nil)
}

// PlanServiceRemoval plans removing the user service file (and putting
// back the file it replaced, if any); a file that toolguard did not write
// is left alone.
func PlanServiceRemoval(opts ServiceOptions) (Change, error) {
	c, _, err := serviceChange(opts)
	if err != nil || c.Before == nil {
		return finish(c, err)
	}
	if !strings.Contains(string(c.Before), serviceMark) {
		return c, fmt.Errorf("%s was not written by toolguard install service; remove it yourself", c.File)
	}
	// The file the unit replaced, if any, comes back; a backup holding
	// toolguard's unit goes.
	c.Uninstall, c.After, c.DropBackup = true, nil, true
	if b, err := os.ReadFile(c.File + BackupSuffix); err == nil && !strings.Contains(string(b), serviceMark) {
		c.After = b
	}
	return finish(c, nil)
}

// ServiceCommands returns the commands that load and start the service
// after its file is written, and those that stop and unload it before the
// file is removed.
func ServiceCommands(goos, file string) (start, stop [][]string) {
	if goos == "" {
		goos = runtime.GOOS
	}
	if goos == "darwin" {
		return [][]string{{"launchctl", "load", "-w", file}}, [][]string{{"launchctl", "unload", "-w", file}}
	}
	return [][]string{{"systemctl", "--user", "daemon-reload"}, {"systemctl", "--user", "enable", "--now", "toolguard.service"}},
		[][]string{{"systemctl", "--user", "disable", "--now", "toolguard.service"}}
}

func serviceChange(opts ServiceOptions) (Change, string, error) {
	goos := opts.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	if goos != "linux" && goos != "darwin" {
		return Change{}, goos, fmt.Errorf("no user service for %s (supported: linux with systemd, darwin with launchd); run toolguard serve from your session instead", goos)
	}
	home := opts.Home
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return Change{}, goos, fmt.Errorf("the home directory is unknown: %w", err)
		}
	}
	rel := systemdUnit
	if goos == "darwin" {
		rel = launchAgent
	}
	c := Change{Agent: ServiceAgent, Scope: User, File: filepath.Join(home, rel), Root: home}
	before, err := os.ReadFile(c.File)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return c, goos, err
	}
	c.Before = before
	c.After = before
	return c, goos, nil
}

// serviceMark identifies a service file toolguard wrote.
const serviceMark = "Written by toolguard install service"

func systemdService(args []string) []byte {
	return []byte(`# ` + serviceMark + `; "toolguard uninstall service" removes it.
[Unit]
Description=toolguard: decision API, approval page and HTTP hook endpoint
Documentation=https://github.com/toolguard/toolguard/blob/main/docs/agents.md

[Service]
ExecStart=` + strings.Join(args, " ") + `
Restart=on-failure
RestartSec=2
NoNewPrivileges=yes

[Install]
WantedBy=default.target
`)
}

func launchdPlist(args []string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- ` + serviceMark + `; "toolguard uninstall service" removes it. -->
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>dev.toolguard.serve</string>
	<key>ProgramArguments</key>
	<array>
`)
	for _, a := range args {
		b.WriteString("\t\t<string>" + a + "</string>\n")
	}
	b.WriteString(`	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>KeepAlive</key>
	<dict>
		<key>SuccessfulExit</key>
		<false/>
	</dict>
</dict>
</plist>
`)
	return []byte(b.String())
}
