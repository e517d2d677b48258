package analysis

import (
	"path"
	"strings"

	"github.com/toolguard/toolguard/shell"
)

// FillInto returns the directory or path a command puts existing files
// into, as written, and whether it has one: the destination of cp, mv,
// git mv, install, ln and rsync (DEST, or the -t/--target-directory
// directory), and the directory tar or unzip extracts into (-C,
// --directory, -d). A destination whose text is not known, or an rsync
// destination on another host, is none; so is any other command's. The
// judge uses it to see a command line that fills a directory and then
// deletes it (mv src out/ && rm -rf out).
func FillInto(cmd *shell.Command) (string, bool) {
	if spec, ok := copySpecs[cmd.Name]; ok {
		var buf [opsOnStack]shell.Word
		ca, _, ok := spec.parse(cmd.Name, cmd.Args(), buf[:0])
		if !ok || !ca.dest.Known || ca.dest.Value == "" || cmd.Name == "rsync" && isRemoteOperand(ca.dest.Value) {
			return "", false
		}
		return ca.dest.Value, true
	}
	switch cmd.Name {
	case "tar", "bsdtar", "gtar", "unzip":
		if e, ok := extractions(cmd); ok && e.into != "" {
			return e.into, true
		}
	case "git":
		if dest, ok := gitMvDest(cmd.Args()); ok {
			return dest, true
		}
	}
	return "", false
}

// gitMvDest is the destination of git [-C DIR …] mv [-f -k -v] SRC… DEST
// (a rename, as mv's: the files keep their inodes), relative to the -C
// directories; ok is false for any other git command, a dry run (-n) or a
// word not known.
func gitMvDest(args []shell.Word) (string, bool) {
	dir, i := "", 0
	for ; i < len(args) && strings.HasPrefix(args[i].Value, "-"); i++ {
		switch v := args[i].Value; v {
		case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix":
			if i+1 >= len(args) || !args[i+1].Known {
				return "", false
			}
			if v == "-C" {
				dir = path.Join(dir, args[i+1].Value)
				if path.IsAbs(args[i+1].Value) {
					dir = args[i+1].Value
				}
			}
			i++
		}
	}
	if i >= len(args) || args[i].Value != "mv" {
		return "", false
	}
	var ops []shell.Word
	opts := true
	for _, w := range args[i+1:] {
		switch {
		case !w.Known:
			return "", false
		case opts && w.Value == "--":
			opts = false
		case opts && (w.Value == "-n" || w.Value == "--dry-run"):
			return "", false
		case opts && strings.HasPrefix(w.Value, "-"):
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) < 2 {
		return "", false
	}
	dest := ops[len(ops)-1].Value
	if dir != "" && !path.IsAbs(dest) {
		slash := strings.HasSuffix(dest, "/")
		dest = path.Join(dir, dest)
		if slash {
			dest += "/"
		}
	}
	return dest, true
}
