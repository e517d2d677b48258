package shell

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/internal/peercorpus"
)

// corpusCommands reads every shell command of the peer corpora: the
// "command" field, or "input" of rows whose kind is "command".
func corpusCommands(t testing.TB) map[string][]string {
	t.Helper()
	dir := peercorpus.Dir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	peercorpus.NonEmpty(t, len(files), dir+"/*/*.jsonl")
	out := make(map[string][]string)
	for _, f := range files {
		out[f] = readCorpusFile(t, f)
	}
	return out
}

func readCorpusFile(t testing.TB, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var row struct {
			Command string          `json:"command"`
			Kind    string          `json:"kind"`
			Input   json.RawMessage `json:"input"`
		}
		if json.Unmarshal(sc.Bytes(), &row) != nil {
			continue
		}
		var input string
		if row.Kind == "command" && json.Unmarshal(row.Input, &input) == nil {
			row.Command = input
		}
		if row.Command != "" {
			cmds = append(cmds, row.Command)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cmds
}

// TestCorpusNoPanic parses every command of the peer corpora: none may
// panic or fail internally, every span must lie inside the source, and the
// share with problems is reported.
func TestCorpusNoPanic(t *testing.T) {
	corpora := corpusCommands(t)
	names := make([]string, 0, len(corpora))
	for name := range corpora {
		names = append(names, name)
	}
	sort.Strings(names)
	total, withProblems := 0, 0
	for _, name := range names {
		n, p := 0, 0
		for _, cmd := range corpora[name] {
			s, _ := Parse(cmd, Options{Home: "/home/user"})
			checkInvariants(t, cmd, s)
			n++
			if len(s.Problems) > 0 {
				p++
			}
		}
		t.Logf("%-70s %5d commands, %4d with problems", strings.TrimPrefix(name, peercorpus.Dir(t)+"/"), n, p)
		total, withProblems = total+n, withProblems+p
	}
	t.Logf("total: %d commands, %d with problems", total, withProblems)
	peercorpus.NonEmpty(t, total, "the shell commands of the peer corpora")
}
