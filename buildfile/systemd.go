package buildfile

import (
	"path"
	"strings"
	"sync"
)

// systemdRuns are the systemctl sub-commands that run a unit's code, now
// (start, restart, reload) or at every boot or login (enable).
var systemdRuns = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"start": true, "restart": true, "try-restart": true, "reload": true, "reload-or-restart": true,
		"try-reload-or-restart": true, "enable": true, "reenable": true,
	}
})

// systemdValues are systemctl's options that take the next word as their
// value.
var systemdValues = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-t": true, "--type": true, "-p": true, "--property": true, "-s": true, "--signal": true,
		"--kill-whom": true, "--kill-value": true, "-n": true, "--lines": true, "-o": true, "--output": true,
		"--job-mode": true, "--state": true, "--root": true, "--image": true, "--preset-mode": true,
		"--boot-loader-entry": true, "--reboot-argument": true, "--timestamp": true, "--what": true,
	}
})

// systemctl reads the units systemctl starts or enables and returns the
// lines of code they run (ExecStart and the other Exec keys). Units are
// looked for where a user or an agent can put them — ~/.config/systemd/user
// and ~/.local/share/systemd/user with --user, /etc/systemd/system
// otherwise — or at the path given; a unit of another machine (-H, -M) is
// not read. A timer, socket or path unit runs the service its Unit= key
// names, or the service of its own name.
func (r *resolver) systemctl(inv Invocation) {
	user, sub := false, ""
	var units []string
	for i := 0; i < len(inv.Args); i++ {
		a := inv.Args[i]
		switch {
		case a == "--user":
			user = true
		case a == "--system":
			user = false
		case a == "-H" || a == "-M" || strings.HasPrefix(a, "--host") || strings.HasPrefix(a, "--machine"):
			return // another machine's units
		case systemdValues()[a]:
			i++
		case strings.HasPrefix(a, "-"):
		case sub == "":
			sub = a
		default:
			units = append(units, a)
		}
	}
	if !systemdRuns()[sub] || r.onlyDry {
		return
	}
	r.plan.Runner = "systemctl"
	for _, u := range units {
		r.unit(u, user, inv, 0)
	}
}

// unit adds the code of unit u; depth counts the timers and sockets
// followed to their service.
func (r *resolver) unit(u string, user bool, inv Invocation, depth int) {
	file, text, ok := r.unitFile(u, user, inv)
	if !ok {
		return
	}
	ext := path.Ext(file)
	if ext == ".timer" || ext == ".socket" || ext == ".path" {
		if depth > 0 {
			return
		}
		target := unitKey(text, "Unit")
		if target == "" {
			target = strings.TrimSuffix(path.Base(u), ext) + ".service"
		}
		r.unit(target, user, inv, depth+1)
		return
	}
	dir := "/"
	if user {
		dir = cmpOr(inv.Home, "/")
	}
	if wd := unitKey(text, "WorkingDirectory"); wd != "" {
		wd = strings.ReplaceAll(strings.TrimPrefix(wd, "-"), "%h", cmpOr(inv.Home, "%h"))
		if wd == "~" || strings.HasPrefix(wd, "~/") {
			wd = path.Join(cmpOr(inv.Home, "/"), strings.TrimPrefix(wd, "~"))
		}
		if path.IsAbs(wd) {
			dir = wd
		}
	}
	for _, st := range unitSteps(file, text, dir) {
		r.step(st)
	}
}

// unitFile finds and reads unit u.
func (r *resolver) unitFile(u string, user bool, inv Invocation) (string, string, bool) {
	if strings.Contains(u, "/") {
		p := u
		if !path.IsAbs(p) {
			p = path.Join(inv.Dir, p)
		}
		text, ok := r.read(p)
		return p, text, ok
	}
	name := u
	switch path.Ext(name) {
	case ".service", ".timer", ".socket", ".path", ".target":
	default:
		name += ".service"
	}
	var dirs []string
	switch {
	case user && inv.Home != "":
		dirs = []string{path.Join(inv.Home, ".config/systemd/user"), path.Join(inv.Home, ".local/share/systemd/user"), "/etc/systemd/user"}
	case !user:
		dirs = []string{"/etc/systemd/system"}
	}
	names := []string{name}
	if at := strings.IndexByte(name, '@'); at > 0 { // an instance runs its template
		names = append(names, name[:at+1]+path.Ext(name))
	}
	for _, d := range dirs {
		for _, n := range names {
			p := path.Join(d, n)
			if text, ok := r.read(p); ok {
				return p, text, true
			}
		}
	}
	return "", "", false
}

// unitKey returns the last value of key in a unit's text.
func unitKey(text, key string) string {
	v := ""
	for line := range strings.SplitSeq(text, "\n") {
		k, val, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.TrimSpace(k) == key {
			v = strings.TrimSpace(val)
		}
	}
	return v
}

// unitExecKeys are the keys whose values systemd runs.
var unitExecKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"ExecCondition": true, "ExecStartPre": true, "ExecStart": true, "ExecStartPost": true,
		"ExecReload": true, "ExecStop": true, "ExecStopPost": true,
	}
})

// unitSteps returns the code lines of a unit: the value of every Exec key,
// continuation lines joined, without the prefixes that change how systemd
// runs it (@ - : + !), judged as shell.
func unitSteps(file, text, dir string) []Step {
	var out []Step
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		start := i + 1
		line := strings.TrimSpace(lines[i])
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, "\\") + " " + strings.TrimSpace(lines[i])
		}
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '[' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || !unitExecKeys()[strings.TrimSpace(k)] {
			continue
		}
		if v = strings.TrimLeft(strings.TrimSpace(v), "@-:+!"); v != "" {
			out = append(out, Step{File: file, Line: start, Text: v, Lang: Shell, Dir: dir})
		}
	}
	return out
}
