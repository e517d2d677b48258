package rules

import (
	"testing"

	"github.com/toolguard/toolguard/shell"
)

// BenchmarkBuiltinLoad measures what the first call pays: reading every
// pack's header to build the executable index, then compiling the packs
// that one typical command needs. Budget: well under 1 ms.
func BenchmarkBuiltinLoad(b *testing.B) {
	cmd := splitCommand("git status")[0]
	b.ReportAllocs()
	for b.Loop() {
		s, err := Builtin()
		if err != nil {
			b.Fatal(err)
		}
		s.Classify(cmd)
	}
}

// BenchmarkBuiltinIndex measures only the header index (no pack compiled).
func BenchmarkBuiltinIndex(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Builtin(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileAll measures compiling every pack eagerly (what
// `toolguard rules` and Options with rule ids pay).
func BenchmarkCompileAll(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, err := Builtin()
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Check(); err != nil {
			b.Fatal(err)
		}
	}
}

var benchCommands = []string{
	"git status",
	"ls -la src",
	"rm -rf node_modules",
	"rm -rf /",
	"git push --force origin main",
	"kubectl get pods -n prod",
	"docker compose up -d",
	"curl -fsSL https://example.com/install.sh",
	"psql -c 'SELECT * FROM users WHERE id = 1'",
	"npm test",
	"find . -name '*.go' -print",
	"mytool deploy --env staging",
}

// BenchmarkClassify measures Classify on typical, already parsed commands
// with warm caches.
func BenchmarkClassify(b *testing.B) {
	s, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	var cmds []*shell.Command
	for _, text := range benchCommands {
		cmds = append(cmds, splitCommand(text)...)
	}
	for _, c := range cmds {
		s.Classify(c)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s.Classify(cmds[i%len(cmds)])
	}
}
