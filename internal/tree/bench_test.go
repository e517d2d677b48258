package tree

import (
	"fmt"
	"strings"
	"testing"
)

// benchTOML builds a policy-like document of about 100 lines.
func benchTOML() []byte {
	var b strings.Builder
	b.WriteString("comment = \"bench\"\nmode = \"supervised\"\nlevel = \"medium\"\nenabled = true\nworkers = 4\ntimeout = \"30s\"\n\n[paths]\ndenied = [\n")
	for i := range 30 {
		fmt.Fprintf(&b, "  \"~/.secret/dir%d/**\",\n", i)
	}
	b.WriteString("]\nroots = [\"~/work\", \"/tmp\"]\n\n")
	for i := range 6 {
		fmt.Fprintf(&b, "[profiles.agent%d]\nmode = \"strict\"\nlevels = [\"low\", \"high\"]\nbudget = %d\n\n", i, i*10)
	}
	for i := range 10 {
		fmt.Fprintf(&b, "[[rules]]\ntool = \"Bash(npm run test%d:*)\"\naction = \"allow\"\n\n", i)
	}
	b.WriteString("[labels]\nteam = \"core\"\nowner = \"sec\"\n")
	return []byte(b.String())
}

func BenchmarkParseDecodeTOML(b *testing.B) {
	data := benchTOML()
	b.ReportMetric(float64(strings.Count(string(data), "\n")), "lines")
	b.ReportAllocs()
	for b.Loop() {
		n, err := Parse("bench.toml", data)
		if err != nil {
			b.Fatal(err)
		}
		var c TestConfig
		if _, err := DecodeMeta(n, "bench.toml", &c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseTOML(b *testing.B) {
	data := benchTOML()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench.toml", data); err != nil {
			b.Fatal(err)
		}
	}
}
