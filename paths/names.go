package paths

import (
	"bytes"
	"io"
	"os"
	"path"
	"strings"
)

// Names narrows a directory tree to the files a recursive command really
// touches in it: a formatter only its own file types (gofmt: *.go), grep
// --include/--exclude, rg -g, git grep only the files git tracks. The zero
// value touches every file. A file that meets a denied pattern and that the
// command leaves out does not make the tree denied.
//
// Only a denied file found by name below the tree (a .env, a
// credentials.json) is narrowed this way; patterns over whole directories
// (~/.ssh/**) meet the tree whatever the names.
type Names struct {
	// Only are base-name globs (path.Match syntax): the command touches a
	// file only when its name matches one. A glob with a "/" may match
	// anything. Nil means every name.
	Only []string
	// Skip are base-name globs of files the command leaves out. A glob
	// with a "/" leaves nothing out. Nil means none.
	Skip []string
	// Tracked means the command touches only files the enclosing git
	// repository tracks (git grep). False means every file.
	Tracked bool
}

// IsZero reports whether n touches every file.
func (n Names) IsZero() bool { return len(n.Only) == 0 && len(n.Skip) == 0 && !n.Tracked }

// String is n in a stable form (a cache key).
func (n Names) String() string {
	if n.IsZero() {
		return ""
	}
	return strings.Join(n.Only, "\x00") + "\x01" + strings.Join(n.Skip, "\x00") + "\x01" + map[bool]string{true: "t"}[n.Tracked]
}

// touches reports whether the command touches the file p (clean and
// absolute) below a tree.
func (n Names) touches(p string) bool {
	base := path.Base(p)
	if len(n.Only) > 0 && !anyNameMatch(n.Only, base, true) {
		return false
	}
	if anyNameMatch(n.Skip, base, false) {
		return false
	}
	return !n.Tracked || gitTracks(p)
}

// anyNameMatch reports whether a glob of globs matches name; a glob with
// a "/" or a malformed one counts as ifPath.
func anyNameMatch(globs []string, name string, ifPath bool) bool {
	for _, g := range globs {
		if strings.Contains(g, "/") {
			if ifPath {
				return true
			}
			continue
		}
		ok, err := path.Match(g, name)
		if err != nil {
			ok = ifPath
		}
		if ok {
			return true
		}
	}
	return false
}

// maxIndexRead bounds what is read of a git index to tell whether it
// tracks a file; a larger index counts as tracking it. The index is read
// in chunks, never whole.
const maxIndexRead = 16 << 20

// indexChunk is how much of an index is read at a time.
const indexChunk = 64 << 10

// gitTracks reports whether the git repository around p has p in its
// index. Anything that cannot be told — no repository found, a .git file
// (a worktree or submodule), an index that cannot be read, is too large or
// is of version 4 (whose names are compressed) — counts as tracked.
func gitTracks(p string) bool {
	root := path.Dir(p)
	for i := 0; ; i++ {
		fi, err := os.Lstat(path.Join(root, ".git"))
		if err == nil {
			if !fi.IsDir() {
				return true
			}
			break
		}
		if root == "/" || i == 64 {
			return true
		}
		root = path.Dir(root)
	}
	f, err := os.Open(path.Join(root, ".git", "index"))
	if err != nil {
		return true
	}
	defer f.Close()
	rel := strings.TrimPrefix(p, strings.TrimSuffix(root, "/")+"/")
	return indexHolds(f, rel)
}

// indexNames is indexHolds over an index in memory.
func indexNames(data []byte, rel string) bool { return indexHolds(bytes.NewReader(data), rel) }

// indexHolds reports whether a git index (versions 2 and 3) may hold an
// entry named rel: its name followed by the NUL that ends it, not preceded
// by a "/" (which would make it a longer name's tail). A match anywhere
// (an extension, a longer name ending in rel) counts: the answer errs
// towards "tracked". An index that is not one of versions 2 and 3, cannot
// be read or is larger than maxIndexRead counts as holding every name.
func indexHolds(r io.Reader, rel string) bool {
	var head [12]byte
	if _, err := io.ReadFull(r, head[:]); err != nil || string(head[:4]) != "DIRC" || head[4]|head[5]|head[6] != 0 || head[7] != 2 && head[7] != 3 {
		return true
	}
	needle := []byte(rel + "\x00")
	keep := len(needle) // carried to the next chunk: a name cut in two, with the byte before it
	buf := make([]byte, 0, indexChunk+keep+1)
	buf = append(buf, head[11]) // buf[0] is only ever the byte before a name
	chunk := make([]byte, indexChunk)
	total := 0
	for {
		n, err := r.Read(chunk)
		if total += n; total > maxIndexRead {
			return true
		}
		buf = append(buf, chunk[:n]...)
		for at := 1; ; {
			i := bytes.Index(buf[at:], needle)
			if i < 0 {
				break
			}
			if buf[at+i-1] != '/' {
				return true
			}
			at += i + 1
		}
		switch {
		case err == io.EOF:
			return false
		case err != nil:
			return true
		}
		if len(buf) > keep {
			buf = append(buf[:0], buf[len(buf)-keep:]...)
		}
	}
}
