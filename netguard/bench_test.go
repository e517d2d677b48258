package netguard

import "testing"

func benchmarkCheckURL(b *testing.B, raw string, wantFindings int) {
	g := mustCompile(b, Config{AllowedDomains: []string{"example.com", "*.github.com"}, DeniedDomains: []string{"pastebin.com"}})
	if got := len(g.CheckURL(b.Context(), raw)); got != wantFindings {
		b.Fatalf("CheckURL(%q) gave %d findings, want %d", raw, got, wantFindings)
	}
	b.ReportAllocs()
	for b.Loop() {
		g.CheckURL(b.Context(), raw)
	}
}

func BenchmarkCheckURLPublic(b *testing.B) {
	benchmarkCheckURL(b, "https://api.github.com/repos/golang/go/issues?state=open", 0)
}

func BenchmarkCheckURLObfuscatedMetadata(b *testing.B) {
	benchmarkCheckURL(b, "http://0251.0xfe.43518/latest/meta-data/iam/security-credentials/", 2)
}

func BenchmarkCheckHost(b *testing.B) {
	g := mustCompile(b, Config{})
	b.ReportAllocs()
	for b.Loop() {
		g.CheckHost(b.Context(), "git@github.com")
	}
}
