package policy

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// The disk tools write a whole device: dd's of=, the device a file system
// is made on (mkfs and its family), the disk whose partition table is
// changed (parted, sfdisk, …). Each of them also works on a disk image, a
// regular file, which is how a project builds a root file system or tests
// a partitioner: writing one in the workspace is project work, not a disk
// wiped. imageOnly proves that case; anything else — a device, a path
// outside the workspace, a link to either, a word not known statically, an
// option whose value might be the target — keeps the disk tools' denial.

// formatTools make a file system on their first operand (mkfs.ext4 -F
// DEVICE [SIZE]); nameMatches gives mkfs its family (mkfs.xfs, …).
var formatTools = []string{"mkfs", "mke2fs", "mkswap", "mkntfs", "newfs"}

// partitionTools change the partition table of their first operand.
var partitionTools = []string{"fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "blkdiscard"}

// diskRules are the rule packs' findings about writing a whole disk, which
// a proven image file drops.
var diskRules = []string{"system.disk.partition", "system.disk.mkfs"}

// isDiskPattern reports whether a denied pattern is one of those against
// writing a disk ("dd if=", "mkfs"): its first word is dd or a format tool
// and it names no output of its own (a pattern "dd of=x" stays as written).
func isDiskPattern(d deniedPattern) bool {
	if len(d.segments) != 1 {
		return false
	}
	seg := d.segments[0]
	return seg[0] == "dd" && !mentionsOutput(seg) || slices.Contains(formatTools, seg[0])
}

// diskKind sorts a command's executable: "dd", "format", "partition" or
// "" for any other.
func diskKind(name string) string {
	switch {
	case name == "dd":
		return "dd"
	case slices.ContainsFunc(formatTools, func(t string) bool { return nameMatches(t, name) }):
		return "format"
	case slices.Contains(partitionTools, name):
		return "partition"
	}
	return ""
}

// infoOnly reports whether cmd is a disk tool asked only for its version
// or its usage (mkfs.ext4 -V, dd --version, parted --help): every word is
// one of those options and none names a device or a file, so there is
// nothing it could write. (For the mkfs front end -V means verbose, but
// without a device it only prints its usage.)
func infoOnly(cmd *shell.Command) bool {
	args := cmd.Args()
	if len(args) == 0 || diskKind(cmd.Name) == "" || cmd.Privileged {
		return false
	}
	for _, a := range args {
		switch {
		case !a.Known || a.Glob:
			return false
		case a.Value == "-V" || a.Value == "--version" || a.Value == "-h" || a.Value == "--help":
		default:
			return false
		}
	}
	return true
}

// imageOnly reports whether cmd, a disk tool run in dir, writes nothing but
// a disk image proven to be a regular file inside the workspace, or
// nothing at all (infoOnly).
func (e *evaluation) imageOnly(cmd *shell.Command, dir string) bool {
	if infoOnly(cmd) {
		return true
	}
	kind := diskKind(cmd.Name)
	if kind == "" || cmd.Remote != "" || cmd.Privileged || !e.insideWorkspace(cmd, ".") {
		return false
	}
	target, rest, ok := diskTarget(kind, cmd.Args())
	if !ok || !e.spend(pathCost) {
		return false
	}
	for _, w := range rest {
		if !w.Known || w.Glob || strings.Contains(w.Value, "/") {
			return false // a second path: parted's select, a device named in a script
		}
	}
	return e.workspaceImage(target, dir)
}

// diskTarget splits a disk tool's arguments into the file it writes and
// the other words: dd's single of=, or the first word that is not an
// option. ok is false when there is no such word or some word is not
// known.
func diskTarget(kind string, args []shell.Word) (target shell.Word, rest []shell.Word, ok bool) {
	found := false
	for _, a := range args {
		if !a.Known || a.Glob {
			return target, nil, false
		}
		var isTarget bool
		if kind == "dd" {
			v, isOut := strings.CutPrefix(a.Value, "of=")
			if isOut {
				a.Value, isTarget = v, true
			}
		} else {
			isTarget = !found && !strings.HasPrefix(a.Value, "-")
		}
		switch {
		case isTarget && found:
			return target, nil, false // dd of= twice
		case isTarget:
			target, found = a, true
		case kind != "dd":
			rest = append(rest, a)
		}
	}
	return target, rest, found
}

// workspaceImage reports whether w names, inside the workspace (links
// followed), nothing yet or a regular file among the project's build
// outputs: a disk tool given a name where no file is either fails or makes
// a regular file there (dd of=, mke2fs with a size), and one given an
// image the build makes again loses nothing. An existing file elsewhere
// (dd … of=data/app.db conv=notrunc over a database) has content that is
// lost, and a dangling link at the name is not nothing.
func (e *evaluation) workspaceImage(w shell.Word, dir string) bool {
	if strings.HasPrefix(path.Clean(w.Value), "/dev") {
		return false
	}
	cp, err := paths.Canonicalize(w.Value, e.pathEnv(dir), e.p.home)
	if err != nil || !e.insideRoot(cp.Literal) || !e.insideRoot(cp.Resolved) {
		return false
	}
	if fi, err := os.Stat(cp.Resolved); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return err == nil && fi.Mode().IsRegular() && rules.IsOutput(w.Value)
	}
	_, err = os.Lstat(cp.Resolved)
	return errors.Is(err, fs.ErrNotExist)
}

// insideRoot reports whether the absolute path p is inside the call's
// workspace, as written or with its links followed.
func (e *evaluation) insideRoot(p string) bool {
	ws := path.Clean(e.c.Root())
	if p == "" || ws == "" || ws == "." || ws == "/" {
		return false
	}
	if within := func(root string) bool { return strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/") }; within(ws) {
		return true
	} else if r, err := filepath.EvalSymlinks(ws); err == nil && r != ws {
		return within(r)
	}
	return false
}

// withoutImageDisks drops the rule packs' whole-disk findings from a disk
// tool that writes only an image file in the workspace; the rest stays.
func (e *evaluation) withoutImageDisks(cmd *shell.Command, fs []risk.Finding, dir string) []risk.Finding {
	if !slices.ContainsFunc(fs, func(f risk.Finding) bool { return slices.Contains(diskRules, f.Rule) }) ||
		!e.imageOnly(cmd, dir) {
		return fs
	}
	return slices.DeleteFunc(slices.Clone(fs), func(f risk.Finding) bool { return slices.Contains(diskRules, f.Rule) })
}

// keptTier is the tier of a command a rule's finding was dropped from (a
// disk tool writing only an image file, a one-liner deleting only
// outputs): the execute tier (a program changing files of the project), or
// worse when a finding that stays says so.
func keptTier(fs []risk.Finding) risk.Tier {
	t := risk.Execute
	for _, f := range fs {
		t = t.Worse(f.Tier)
	}
	return t
}
