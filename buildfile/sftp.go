package buildfile

import (
	"strings"
)

// sftp reads the batch file of sftp -b FILE HOST: its commands run one
// after another, and what each does to this machine is what a shell
// command does: put (and mput, reput) uploads a local file as scp does,
// get (mget, reget) writes one, !CMD runs CMD in a local shell, lcd and
// lmkdir act on the local directory, and rm, rmdir, rename and chmod act
// on the remote host as ssh HOST CMD does. They become one shell step, in
// order, so that an lcd carries over. A batch from standard input (-b -)
// cannot be known; without -b sftp reads the terminal (nothing an agent
// can script).
func (r *resolver) sftp(inv Invocation) {
	batch, host := "", ""
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v, n := flagValue(args, i, "-b", ""); n > 0 {
			batch = v
			i += n - 1
			continue
		}
		switch {
		case len(a) == 2 && strings.Contains("BDFJPRSXciloDs", a[1:]) && a[0] == '-':
			i++ // an option with a value
		case strings.HasPrefix(a, "-"):
		default:
			host = a
		}
	}
	if batch == "" || r.onlyDry {
		return
	}
	if batch == "-" {
		r.problem("-", "sftp reads its batch from standard input")
		return
	}
	r.plan.Runner = "sftp"
	file := join(inv.Dir, batch)
	text, ok := r.read(file)
	if !ok {
		return
	}
	if host == "" {
		host = "HOST"
	}
	host, _, _ = strings.Cut(host, ":") // user@host:dir
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		if cmd := sftpCommand(strings.TrimSpace(line), host); cmd != "" {
			lines = append(lines, cmd)
		}
	}
	if len(lines) > 0 {
		r.step(Step{File: file, Text: strings.Join(lines, "\n") + "\n", Lang: Shell, Dir: inv.Dir})
	}
}

// sftpCommand is the shell command that does to this machine what one
// batch line does ("" for a line that does nothing here or is not known).
func sftpCommand(line, host string) string {
	line = strings.TrimLeft(line, "-@") // -put: carry on after an error; @: no echo
	if line == "" || line[0] == '#' {
		return ""
	}
	if line[0] == '!' {
		return line[1:]
	}
	verb, rest, _ := strings.Cut(line, " ")
	words := strings.Fields(rest)
	var ops []string
	for _, w := range words {
		if !strings.HasPrefix(w, "-") {
			ops = append(ops, shellWord(w))
		}
	}
	switch strings.ToLower(verb) {
	case "put", "mput", "reput":
		if len(ops) == 0 {
			return ""
		}
		remote := ""
		if len(ops) > 1 {
			remote = ops[1]
		}
		return "scp -r -- " + ops[0] + " " + host + ":" + remote
	case "get", "mget", "reget":
		if len(ops) == 0 {
			return ""
		}
		local := "."
		if len(ops) > 1 {
			local = ops[1]
		}
		return "scp -r -- " + host + ":" + ops[0] + " " + local
	case "lcd":
		if len(ops) > 0 {
			return "cd " + ops[0]
		}
	case "lmkdir":
		if len(ops) > 0 {
			return "mkdir " + ops[0]
		}
	case "rm", "rmdir", "rename", "chmod", "chown", "chgrp", "mkdir", "ln", "symlink":
		return "ssh " + host + " " + singleQuoted(line)
	}
	return ""
}

// shellWord quotes a batch file's word for the shell, keeping ~ and globs
// as the shell reads them (sftp expands both on the local side).
func shellWord(w string) string {
	if strings.ContainsAny(w, "'\"$`;&|<>(){} \t\\") {
		return singleQuoted(w)
	}
	return w
}
