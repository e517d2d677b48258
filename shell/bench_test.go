package shell

import (
	"strings"
	"testing"
)

// benchCommands are typical agent shell commands.
var benchCommands = []string{
	"ls -la",
	"git status",
	"git diff --stat HEAD~1",
	"go test ./... -run TestFoo -count=1",
	"cd /work/app && npm run build",
	"grep -rn 'TODO' src/ | head -20",
	"find . -name '*.go' -not -path './vendor/*' | xargs wc -l",
	"cat package.json | jq '.dependencies'",
	"rm -rf node_modules dist",
	`python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])' < package.json`,
	`git commit -m "fix: handle empty input" && git push origin HEAD`,
	"docker compose up -d --build",
	`sudo bash -c "apt-get update && apt-get install -y curl"`,
	"curl -fsSL https://example.com/install.sh | sh",
	"for f in *.log; do gzip \"$f\"; done",
}

// BenchmarkParse parses one typical command per iteration, cycling through
// benchCommands.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, _ = Parse(benchCommands[i%len(benchCommands)], testOptions)
		i++
	}
}

// BenchmarkParseWorstCase parses the hostile commands of TestParseWorkLimit
// on a default work budget.
func BenchmarkParseWorstCase(b *testing.B) {
	for name, src := range hostileCommands {
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = Parse(src, Options{Home: "/home/u", Budget: NewBudget(0)})
			}
		})
	}
}

// BenchmarkParseSimple is the most common case: one short simple command.
func BenchmarkParseSimple(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Parse("git status", testOptions)
	}
}

// denseScript is about n bytes of an ordinary build script with a command
// every 40 bytes or so (the script of policy's BenchmarkDecideRunFile).
func denseScript(n int) string {
	var sb strings.Builder
	sb.WriteString("#!/usr/bin/env bash\nset -euo pipefail\nROOT=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\n")
	for i := 0; sb.Len() < n; i++ {
		t := itoa(i)
		sb.WriteString("\n# Step " + t + ": build tool" + t + "\n" +
			"if [ -d ./cmd/tool" + t + " ]; then\n  go build -o bin/tool" + t + " ./cmd/tool" + t + "\n" +
			"  echo \"built tool" + t + " into bin/ for the integration tests\"\nfi\n" +
			"for f in ./testdata/*.golden; do cp \"$f\" ./build/ ; done\ngit status --short | grep -c . || true\n")
	}
	return sb.String()
}

// BenchmarkParseScript parses a dense 10 KB script: the walk's cost per
// command of a file a command runs (issue 24).
func BenchmarkParseScript(b *testing.B) {
	src := denseScript(10 << 10)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = Parse(src, Options{Home: "/home/u", Budget: NewBudget(0)})
	}
}
