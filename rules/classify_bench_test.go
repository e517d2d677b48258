package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/toolguard/toolguard/internal/peercorpus"
	"github.com/toolguard/toolguard/shell"
)

// corpusBenchCommands parses the peer corpora's shell commands and the
// adversarial corpus's shell commands into simple commands, as Classify
// sees them.
func corpusBenchCommands(b *testing.B, peers bool) []*shell.Command {
	b.Helper()
	var texts []string
	if peers {
		peercorpus.Dir(b)
		for _, c := range loadCorpora(b) {
			texts = append(texts, c.cmd)
		}
	} else {
		texts = adversarialCommands(b)
	}
	var cmds []*shell.Command
	for _, text := range texts {
		sc, err := shell.Parse(text, shell.Options{Home: corpusHome})
		if err != nil || sc == nil {
			continue
		}
		cmds = append(cmds, sc.Commands...)
	}
	if len(cmds) == 0 {
		b.Skip("no commands")
	}
	return cmds
}

// adversarialCommands reads the shell commands of the adversarial corpus
// (policy/testdata/adversarial): the cases that give a command and no
// other tool.
func adversarialCommands(b *testing.B) []string {
	files, err := filepath.Glob(filepath.Join("..", "policy", "testdata", "adversarial", "*", "*.toml"))
	if err != nil || len(files) == 0 {
		b.Skipf("adversarial corpus not found: %v", err)
	}
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		var doc struct {
			Case []struct {
				Tool    string `toml:"tool"`
				Command string `toml:"command"`
			} `toml:"case"`
		}
		if err := toml.Unmarshal(data, &doc); err != nil {
			b.Fatalf("%s: %v", f, err)
		}
		for _, c := range doc.Case {
			if c.Command != "" && (c.Tool == "" || strings.EqualFold(c.Tool, "bash")) {
				out = append(out, c.Command)
			}
		}
	}
	return out
}

// BenchmarkClassifyCorpus measures Classify over every simple command of
// the peer corpora and of the adversarial corpus, with warm caches: one
// iteration classifies every command once; ns/cmd and allocs/cmd are per
// simple command.
func BenchmarkClassifyCorpus(b *testing.B) {
	for _, bc := range []struct {
		name  string
		peers bool
	}{{"peers", true}, {"adversarial", false}} {
		b.Run(bc.name, func(b *testing.B) {
			s := builtin(b)
			cmds := corpusBenchCommands(b, bc.peers)
			for _, c := range cmds {
				s.Classify(c)
			}
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range cmds {
					s.Classify(c)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cmds)), "ns/cmd")
			b.ReportMetric(float64(len(cmds)), "cmds")
		})
	}
}
