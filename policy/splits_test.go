package policy_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/rules"
)

// callKey identifies a case's call for comparing splits: the tool and the
// command with its spacing collapsed, or the tool and its input, and the
// files the case lays, which decide what a command that runs them does
// (make with one Makefile is not the call make with another is).
func (c corpusCase) callKey() string {
	key := c.Tool + "\x00"
	if c.Command != "" {
		key += strings.Join(strings.Fields(c.Command), " ")
	} else {
		in, _ := json.Marshal(c.Input)
		key += string(in)
	}
	files := make([]string, len(c.Files))
	for i, f := range c.Files {
		files[i] = f.Path + "\x00" + cmpOr(f.Mode, "0644") + "\x00" + f.Content
	}
	sort.Strings(files)
	for _, f := range files {
		key += "\x00\x00" + f
	}
	return key
}

// packExamples are the commands the rule packs' effect model is checked on.
func packExamples(t *testing.T) map[string]bool {
	packs, err := rules.BuiltinPacks()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, p := range packs {
		for _, pr := range p.Programs {
			for _, e := range append(pr.Examples, pr.Counter...) {
				out[strings.Join(strings.Fields(e), " ")] = true
			}
		}
	}
	return out
}

// packExample marks a case whose command is one of the rule packs'
// examples (Seen).
const packExample = "rule pack example"

// TestAdversarialSplitsApart keeps each split's figures a first look: a case
// that repeats a call of its own or an earlier split, or (after dev) is one
// of the rule packs' examples, which were written while the rules were,
// must be marked seen, with the case it repeats; a mark on any other case
// is wrong. A pack example run over files the case lays is a call the packs
// never saw (their examples are judged with no workspace files).
func TestAdversarialSplitsApart(t *testing.T) {
	examples := packExamples(t)
	first := map[string]string{} // call → the case that has it first
	for _, c := range loadCorpus(t) {
		want := ""
		k := c.callKey()
		if prev, ok := first[k]; ok {
			want = prev
		} else {
			first[k] = c.key()
			if c.split != corpusSplits[0] && c.Tool == "Bash" && len(c.Files) == 0 && examples[strings.Join(strings.Fields(c.Command), " ")] {
				want = packExample
			}
		}
		switch {
		case c.Seen == want:
		case want == "":
			t.Errorf("%s is marked seen = %q, but its call appears first here and is no pack example; remove the mark", c.key(), c.Seen)
		default:
			t.Errorf("%s: its call was seen before (%s); mark it seen = %q", c.key(), want, want)
		}
	}
}

func TestCallKeyFiles(t *testing.T) {
	mk := func(files ...corpusFileSpec) corpusCase {
		return corpusCase{Tool: "Bash", Command: "make  test", Files: files}
	}
	good := corpusFileSpec{Path: "Makefile", Content: "test:\n\tgo test ./...\n"}
	bad := corpusFileSpec{Path: "Makefile", Content: "test:\n\trm -rf ~\n"}
	script := corpusFileSpec{Path: "run.sh", Content: "go vet ./...\n", Mode: "0755"}
	if got, want := mk().callKey(), "Bash\x00make test"; got != want {
		t.Errorf("no files: %q, want %q", got, want)
	}
	if mk(good).callKey() == mk(bad).callKey() {
		t.Error("the same command over different files has the same key")
	}
	if mk(good).callKey() == mk().callKey() {
		t.Error("a command with files has the key of the command without them")
	}
	if mk(good, script).callKey() != mk(script, good).callKey() {
		t.Error("the order the files are listed in changes the key")
	}
	executable := script
	executable.Mode = "0644"
	if mk(script).callKey() == mk(executable).callKey() {
		t.Error("a file's mode does not change the key")
	}
}
