package audit

import (
	"strings"
	"testing"

	"github.com/toolguard/toolguard/call"
)

// TestSummarizeLongCommand: a long command's summary is redacted from its
// start (a secret in the shown part is masked) without redacting the whole
// value.
func TestSummarizeLongCommand(t *testing.T) {
	cmd := "docker login -u me -p S3cretPassw0rd-zq81 registry.example && " + strings.Repeat("eval ", 12000)
	got := Summarize(call.Call{Kind: call.Shell, Command: cmd})
	if strings.Contains(got, "S3cretPassw0rd") || !strings.HasPrefix(got, "docker login -u me -p ***") || !strings.HasSuffix(got, "…") {
		t.Errorf("Summarize = %q", got)
	}
}

func BenchmarkSummarizeLongCommand(b *testing.B) {
	c := call.Call{Kind: call.Shell, Command: strings.Repeat("eval ", 12000)}
	for b.Loop() {
		Summarize(c)
	}
}
