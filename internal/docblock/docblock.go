// Package docblock keeps the figures the project's documents report equal
// to what the tests that measure them compute.
//
// A block is a run of lines in a Markdown file between the lines
// "<!-- begin NAME -->" and "<!-- end NAME -->". A test renders what the
// block must hold and calls Check: a block that differs fails the test, and
// with update set the file is rewritten instead. So a figure in the docs
// cannot drift from the code, and a change in a figure shows in review as a
// change of the document.
//
// It is imported by tests only.
package docblock

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Markers returns the opening and closing lines of block name.
func Markers(name string) (begin, end string) {
	return "<!-- begin " + name + " -->", "<!-- end " + name + " -->"
}

// Replace returns doc with the body of block name replaced by body, and
// the body it held. It fails when the block is missing or malformed.
func Replace(doc, name, body string) (out, old string, err error) {
	begin, end := Markers(name)
	i := strings.Index(doc, begin+"\n")
	if i < 0 {
		return "", "", fmt.Errorf("no line %q", begin)
	}
	start := i + len(begin) + 1
	j := strings.Index(doc[start:], end)
	if j < 0 {
		return "", "", fmt.Errorf("no line %q after %q", end, begin)
	}
	if strings.Count(doc, begin) > 1 {
		return "", "", fmt.Errorf("%q appears more than once", begin)
	}
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	old = doc[start : start+j]
	return doc[:start] + body + doc[start+j:], old, nil
}

// Check compares block name of file with body. With update set it writes
// body into the file; otherwise a difference fails t with the first line
// that differs and the command that rewrites the block.
func Check(t testing.TB, file, name, body string, update bool) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("reading %s for block %q: %v", file, name, err)
	}
	out, old, err := Replace(string(data), name, body)
	if err != nil {
		t.Fatalf("%s: block %q: %v", file, name, err)
	}
	if out == string(data) {
		return
	}
	if update {
		if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: block %q rewritten", file, name)
		return
	}
	t.Errorf("%s: block %q is not what the test measures; first difference:\n  doc:  %s\nrun the test with -update to rewrite it, and commit the change",
		file, name, firstDiff(old, body))
}

// firstDiff returns the first line where a and b differ, from each.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(al), len(bl)) {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("%q\n  test: %q", x, y)
		}
	}
	return ""
}
