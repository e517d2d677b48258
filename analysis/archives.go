package analysis

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/shell"
)

// Archive extraction writes every path the archive holds: tar x and unzip
// of an archive whose members include .claude/settings.local.json write
// the hook settings, whatever the command line says. The members are
// listed through Context.Trees when it also implements [Archives] (names
// only, bounded: at most maxTreeEntries members and maxArchiveBytes of
// tar data read), and each is judged as written under the directory the
// extraction goes to (-C, --directory, -d). A member under a symbolic
// link the archive made earlier lands where the link points, so it is
// judged there too. An archive that cannot be listed whole (too large, a
// compression read here does not know, not an archive) makes the
// extraction unverifiable; one that does not exist extracts nothing.

// Archives lists the members of an archive file.
type Archives interface {
	// Members returns the member names of the archive at the canonical
	// path file, and for symbolic-link members their targets (name →
	// target). It returns at most max names: an archive with more gives
	// ErrTooLarge. A file that does not exist gives ErrNotExist; one that
	// cannot be read as an archive, ErrNotText.
	Members(file string, max int) (names []string, links map[string]string, err error)
}

// maxArchiveBytes bounds the tar data (after decompression) read to list
// an archive's members.
const maxArchiveBytes = 32 << 20

// Members lists a tar (plain, gzip or bzip2) or zip archive.
func (DiskTrees) Members(file string, max int) ([]string, map[string]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, ErrNotExist
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		return nil, nil, ErrNotExist
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, nil, ErrUnreadable
	}
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return zipMembers(f, fi.Size(), max)
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		gz, err := gzip.NewReader(bufio.NewReader(f))
		if err != nil {
			return nil, nil, ErrNotText
		}
		return tarMembers(gz, max)
	case bytes.HasPrefix(head, []byte("BZh")):
		return tarMembers(bzip2.NewReader(bufio.NewReader(f)), max)
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return tarMembers(f, max)
	}
	return nil, nil, ErrNotText // xz, zstd, …: not read here
}

func zipMembers(f *os.File, size int64, max int) ([]string, map[string]string, error) {
	zr, err := zip.NewReader(f, size)
	if err != nil {
		return nil, nil, ErrNotText
	}
	if len(zr.File) > max {
		return nil, nil, ErrTooLarge
	}
	var names []string
	links := map[string]string{}
	for _, zf := range zr.File {
		names = append(names, zf.Name)
		if zf.Mode()&os.ModeSymlink != 0 && zf.UncompressedSize64 < 4096 {
			if rc, err := zf.Open(); err == nil {
				b, _ := io.ReadAll(io.LimitReader(rc, 4096))
				rc.Close()
				links[zf.Name] = string(b)
			}
		}
	}
	return names, links, nil
}

func tarMembers(r io.Reader, max int) ([]string, map[string]string, error) {
	tr := tar.NewReader(io.LimitReader(r, maxArchiveBytes))
	var names []string
	links := map[string]string{}
	for {
		h, err := tr.Next()
		switch {
		case err == io.EOF:
			return names, links, nil
		case errors.Is(err, io.ErrUnexpectedEOF) && len(names) > 0:
			return names, links, ErrTooLarge // the bound cut the archive
		case err != nil:
			return names, links, ErrNotText
		}
		if len(names) == max {
			return names, links, ErrTooLarge
		}
		names = append(names, h.Name)
		if h.Typeflag == tar.TypeSymlink {
			links[h.Name] = h.Linkname
		}
	}
}

// tarValueLetters are the short options of GNU tar that take a value.
const tarValueLetters = "bCfFgHIKLNTVX"

// extraction is an archive and where a command extracts it.
type extraction struct {
	archive shell.Word
	into    string // "" for the command's directory
	strip   int
}

// extractions finds tar x -f ARCHIVE [-C DIR] [--strip-components=N] and
// unzip ARCHIVE [-d DIR].
func extractions(cmd *shell.Command) (extraction, bool) {
	args := cmd.Args()
	var e extraction
	switch cmd.Name {
	case "tar", "bsdtar", "gtar":
		e, extract, file := tarExtraction(args)
		return e, extract && file && e.archive.Value != "-"
	case "unzip":
		return unzipExtraction(args)
	}
	return e, false
}

// streamExtraction reports whether cmd extracts an archive it reads from
// its standard input (tar x with no -f or -f -, cpio -i), whose members
// are not known before it runs, and the directory they land in ("" for
// the command's directory).
func streamExtraction(cmd *shell.Command) (string, bool) {
	args := cmd.Args()
	switch cmd.Name {
	case "tar", "bsdtar", "gtar":
		e, extract, file := tarExtraction(args)
		return e.into, extract && (!file || e.archive.Known && e.archive.Value == "-")
	case "cpio":
		dir := ""
		extract := false
		for i, a := range args {
			v := a.Value
			switch {
			case v == "--extract" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "i"):
				extract = true
			case v == "-D" && i+1 < len(args):
				dir = args[i+1].Value
			case strings.HasPrefix(v, "--directory="):
				dir = v[len("--directory="):]
			}
		}
		return dir, extract
	}
	return "", false
}

// tarExtraction reads tar's options: the archive (-f) and the directory
// (-C) of an extraction, whether it extracts, and whether -f was given.
func tarExtraction(args []shell.Word) (e extraction, extract, file bool) {
	set := func(c byte, w shell.Word) {
		switch c {
		case 'f':
			e.archive, file = w, true
		case 'C':
			e.into = w.Value
		}
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.Value
		switch {
		case v == "--extract" || v == "--get":
			extract = true
		case strings.HasPrefix(v, "--file="):
			set('f', withValue(w, v[len("--file="):]))
		case strings.HasPrefix(v, "--directory="):
			set('C', withValue(w, v[len("--directory="):]))
		case (v == "--file" || v == "--directory") && i+1 < len(args):
			i++
			set(map[string]byte{"--file": 'f', "--directory": 'C'}[v], args[i])
		case strings.HasPrefix(v, "--strip-components="):
			e.strip, _ = strconv.Atoi(v[len("--strip-components="):])
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") && len(v) > 1:
			// -xzf ARCHIVE, -xfARCHIVE: a letter that takes a value
			// takes the rest of the word, or the next word
			for k := 1; k < len(v); k++ {
				c := v[k]
				if c == 'x' {
					extract = true
				}
				if strings.IndexByte(tarValueLetters, c) < 0 {
					continue
				}
				if k+1 < len(v) {
					set(c, withValue(w, v[k+1:]))
				} else if i+1 < len(args) {
					i++
					set(c, args[i])
				}
				break
			}
		case i == 0:
			// the old bundled form: tar xfC ARCHIVE DIR, each letter
			// that takes a value takes the next word in turn
			for k := 0; k < len(v); k++ {
				c := v[k]
				if c == 'x' {
					extract = true
				}
				if strings.IndexByte(tarValueLetters, c) >= 0 && i+1 < len(args) {
					i++
					set(c, args[i])
				}
			}
		}
	}
	return e, extract, file
}

// unzipExtraction reads unzip ARCHIVE [-d DIR]; ok is false when it only
// lists, tests or prints.
func unzipExtraction(args []shell.Word) (extraction, bool) {
	var e extraction
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-d" && i+1 < len(args):
			i++
			e.into = args[i].Value
		case strings.HasPrefix(v, "-d") && len(v) > 2:
			e.into = v[2:]
		case v == "-x":
			return e, e.archive.Value != "" // member exclusions follow
		case (v == "-P" || v == "-O" || v == "-I") && i+1 < len(args):
			i++
		case strings.HasPrefix(v, "-"):
			if strings.ContainsAny(v, "lptvzZc") && !strings.Contains(v, "o") {
				return e, false // lists, tests or prints: writes nothing
			}
		case e.archive.Value == "":
			e.archive = args[i]
		}
	}
	return e, e.archive.Value != ""
}

// archives judges every member an extraction writes.
func (a *Analysis) archives(cmd *shell.Command, dir string) {
	lister, ok := a.ctx.Trees.(Archives)
	if !ok {
		return
	}
	e, ok := extractions(cmd)
	if !ok || !e.archive.Known {
		return
	}
	env := a.PathEnv(dir)
	cp, err := paths.Canonicalize(e.archive.Value, env, a.ctx.Home)
	if err != nil {
		return
	}
	names, links, err := lister.Members(cp.Resolved, maxTreeEntries)
	switch {
	case errors.Is(err, ErrNotExist):
		return
	case err != nil:
		a.add(Unverifiable(shell.Problem{Span: e.archive.Span, Reason: fmt.Sprintf(
			"%s extracts %s, whose members cannot be listed whole (%v), so the paths it writes are not known", cmd.Name, e.archive.Value, err)}))
		return
	}
	if !a.spend(1 + len(names)/16) {
		return
	}
	into := cmpOr(e.into, ".")
	var judged []string
	for _, n := range names {
		for _, p := range memberPaths(n, links, e.strip) {
			if !path.IsAbs(p) {
				p = path.Join(into, p)
			}
			if configNames(p) {
				judged = append(judged, p)
			}
		}
	}
	if len(judged) > maxJudgedEntries {
		a.add(Unverifiable(shell.Problem{Span: e.archive.Span, Reason: fmt.Sprintf(
			"%s extracts %s, which would write more than %d configuration files, so the paths it writes are not all checked", cmd.Name, e.archive.Value, maxJudgedEntries)}))
		return
	}
	for _, p := range judged {
		if !a.spend(1) {
			return
		}
		a.judge.Path(Path{Word: shell.Word{Value: p, Known: true, Span: e.archive.Span},
			Access: paths.Write, Shape: File, Dir: dir})
	}
}

// memberPaths are where a member lands, relative to the extraction's
// directory: its name with strip leading components removed, and, when
// it lies under a link an earlier member made, the link's target joined
// with the rest (an absolute target as is).
func memberPaths(name string, links map[string]string, strip int) []string {
	parts, ok := stripped(name, strip)
	if !ok {
		return nil
	}
	out := []string{strings.Join(parts, "/")}
	for i := 1; i < len(parts); i++ {
		link := strings.Join(parts[:i], "/")
		for n, target := range links {
			if lp, ok := stripped(n, strip); !ok || strings.Join(lp, "/") != link {
				continue
			}
			rest := strings.Join(parts[i:], "/")
			if path.IsAbs(target) {
				out = append(out, path.Join(target, rest))
			} else {
				out = append(out, path.Join(path.Dir(link), target, rest))
			}
		}
	}
	return out
}

// stripped is a member name's components with strip leading ones removed,
// as tar extracts it (leading slashes dropped); false when none is left.
func stripped(name string, strip int) ([]string, bool) {
	parts := strings.Split(path.Clean(strings.TrimLeft(name, "/")), "/")
	if strip >= len(parts) {
		return nil, false
	}
	return parts[strip:], true
}
