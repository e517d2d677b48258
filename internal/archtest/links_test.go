package archtest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink matches an inline Markdown link or image, [text](target), and
// mdRef a reference definition, [label]: target.
var (
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	mdRef  = regexp.MustCompile(`(?m)^\s*\[[^\]]+\]:\s*(\S+)`)
)

// TestDocLinksResolve: every relative link in the README and docs/ names a
// file or directory of the repository, and an anchor names a heading of
// the file it points into, so that a reader following them from a clone
// (or on a forge) never lands nowhere.
func TestDocLinksResolve(t *testing.T) {
	root := repoRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join(root, "README.md")}, files...)
	checked := 0
	for _, file := range files {
		text := readText(t, file)
		for _, target := range linkTargets(text) {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			if msg := resolveLink(root, file, target); msg != "" {
				rel, _ := filepath.Rel(root, file)
				t.Errorf("%s: link %q: %s", rel, target, msg)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d relative links found: is the link pattern broken?", checked)
	}
}

// linkTargets lists the link targets of a Markdown text, outside code
// blocks and code spans.
func linkTargets(text string) []string {
	var out []string
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		line = codeSpan.ReplaceAllString(line, "")
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
		for _, m := range mdRef.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

var codeSpan = regexp.MustCompile("`[^`]*`")

// resolveLink says what is wrong with a relative link in file ("" when
// nothing is).
func resolveLink(root, file, target string) string {
	path, anchor, _ := strings.Cut(target, "#")
	dest := file
	if path != "" {
		dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
		if rel, err := filepath.Rel(root, dest); err != nil || strings.HasPrefix(rel, "..") {
			return "points outside the repository"
		}
		if _, err := os.Stat(dest); err != nil {
			return "no such file in the repository"
		}
	}
	if anchor == "" || !strings.HasSuffix(dest, ".md") {
		return ""
	}
	data, err := os.ReadFile(dest)
	if err != nil {
		return err.Error()
	}
	for _, a := range headingAnchors(string(data)) {
		if a == anchor {
			return ""
		}
	}
	return "no heading with that anchor"
}

// headingAnchors are the anchors a forge makes of a file's headings:
// lower case, punctuation dropped, spaces as hyphens, repeats numbered.
func headingAnchors(text string) []string {
	var out []string
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			a = a + "-" + string(rune('0'+n))
		}
		seen[b.String()]++
		out = append(out, a)
	}
	return out
}

func readText(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// repoRoot is the module's root directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", dir, err)
	}
	return dir
}
