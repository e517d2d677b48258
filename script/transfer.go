package script

import (
	"path"
	"strings"
)

// Crontab analyses a crontab (crontab FILE, crontab - fed by a pipe): every
// schedule line runs its command later and again, so each command is
// returned in Shell; variable lines (MAILTO=…, SHELL=…) and comments are
// data. A SHELL or BASH_ENV setting that names a program is not proven.
func Crontab(text string) Effects {
	if e, long := tooLong(text); long {
		return e
	}
	var e Effects
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if name, value, ok := strings.Cut(l, "="); ok && isEnvName(strings.TrimSpace(name)) {
			if n := strings.TrimSpace(name); n == "SHELL" || n == "BASH_ENV" || n == "ENV" {
				e.Exec = true
				e.unknown("the crontab sets " + n + " to " + strings.TrimSpace(value))
			}
			continue
		}
		if cmd, ok := cronCommand(l); ok {
			e.Shell = append(e.Shell, cmd)
			continue
		}
		e.unknown("the crontab line " + shorten(l) + " is not a schedule")
	}
	return e
}

// cronCommand returns the command of a schedule line: after five time
// fields, or after an @keyword (@reboot, @daily, …).
func cronCommand(l string) (string, bool) {
	if strings.HasPrefix(l, "@") {
		_, rest, ok := strings.Cut(l, " ")
		return strings.TrimSpace(rest), ok
	}
	rest := l
	for range 5 {
		rest = strings.TrimLeft(rest, " \t")
		i := strings.IndexAny(rest, " \t")
		if i < 0 {
			return "", false
		}
		rest = rest[i:]
	}
	cmd := strings.TrimSpace(rest)
	return cmd, cmd != ""
}

func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Ftp analyses the commands of an interactive file-transfer client (ftp,
// sftp, lftp, tftp, smbclient, psftp) given on stdin or with -c/-b: put,
// mput, append and send upload local files (returned in Reads and
// Uploads); get, mget, recv, reget and mirror write local files (Writes;
// the remote name's base when no local name is given); "!" and "shell" run
// shell commands; lcd changes the local directory, which is not followed,
// so transfers after it are not proven. Navigation, listing and session
// commands are harmless; anything else is not proven.
func Ftp(text string) Effects {
	if e, long := tooLong(text); long {
		return e
	}
	e := Effects{Network: true}
	lcd := false
	for _, raw := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == ';' }) {
		l := strings.TrimSpace(raw)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "!"); ok {
			if strings.TrimSpace(rest) != "" {
				e.Shell = append(e.Shell, strings.TrimSpace(rest))
			}
			continue
		}
		f := strings.Fields(l)
		verb, args := strings.ToLower(f[0]), operandsOf(f[1:])
		switch verb {
		case "put", "mput", "append", "send", "reput", "mreput":
			if len(args) == 0 {
				e.unknown("the transfer " + shorten(l) + " names no file")
				continue
			}
			local := args[:1]
			if verb == "mput" || verb == "mreput" {
				local = args
			}
			e.Reads = append(e.Reads, local...)
			e.Uploads = append(e.Uploads, local...)
		case "get", "mget", "recv", "reget", "newer":
			switch {
			case len(args) == 0:
				e.unknown("the transfer " + shorten(l) + " names no file")
			case verb == "mget":
				for _, a := range args {
					e.Writes = append(e.Writes, path.Base(a))
				}
			case len(args) >= 2:
				e.Writes = append(e.Writes, args[1])
			default:
				e.Writes = append(e.Writes, path.Base(args[0]))
			}
		case "mirror":
			e.WritesInput = true
			e.unknown("mirror copies whole trees")
		case "shell", "sh", "exec":
			e.Shell = append(e.Shell, strings.TrimSpace(l[len(f[0]):]))
		case "lcd", "lpwd", "lls", "lmkdir":
			lcd = lcd || verb == "lcd"
		case "open", "user", "pass", "quote", "cd", "ls", "dir", "pwd", "bye", "quit", "exit", "close", "binary",
			"ascii", "bin", "prompt", "passive", "hash", "verbose", "status", "help", "mkdir", "rmdir", "delete",
			"mdelete", "rm", "rename", "chmod", "size", "type", "connect", "mode", "timeout", "trace", "nlist", "mls",
			"debug", "lpath", "progress", "set", "version", "recurse", "tarmode", "mask", "du", "df", "stat":
		default:
			e.unknown("the client command " + verb + " is not known to be harmless")
		}
	}
	if lcd && (len(e.Reads) > 0 || len(e.Writes) > 0) {
		e.unknown("lcd moves the local directory the transfers use")
	}
	return e
}

// operandsOf drops option words (-r, -P).
func operandsOf(f []string) []string {
	var out []string
	for _, a := range f {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

func shorten(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}
