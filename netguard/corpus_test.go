package netguard

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/internal/peercorpus"
	"github.com/toolguard/toolguard/risk"
)

// sseDivergences are the ai-chat SSRF-guard cases where netguard answers
// differently on purpose, with the verdict it gives and why.
var sseDivergences = map[string]struct {
	verdict risk.Verdict
	why     string
}{
	"http://this-hostname-definitely-does-not-exist-xyzzy.invalid/sse": {risk.Ask,
		"an unresolvable name gets an ask (netguard.resolve-failed), not a deny: DNS failures are often transient and nothing is reached"},
}

// TestPeerCorpusAIChatSSRF runs ai-chat's MCP SSE URL guard cases
// (../shared/corpus/peers/ai-chat/other.jsonl) with resolution on and the
// DNS answers the cases mock.
func TestPeerCorpusAIChatSSRF(t *testing.T) {
	file, err := os.Open(peercorpus.Path(t, filepath.Join("ai-chat", "other.jsonl")))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	agree, total := 0, 0
	used := map[string]bool{}
	for c := range sseCases(t, file) {
		total++
		fake := &fakeResolver{answers: map[string][]string{}}
		if ip, ok := strings.CutPrefix(c.Context.DNS, "mocked to resolve to "); ok {
			fake.answers[hostOf(t, c.Input)] = []string{ip}
		}
		g := mustCompile(t, Config{Resolve: true, Resolver: fake})
		got := worstVerdict(g.CheckURL(t.Context(), c.Input))
		want := c.Expect
		if d, ok := sseDivergences[c.Input]; ok {
			want = d.verdict.String()
			used[c.Input] = true
			if got.String() == c.Expect {
				t.Errorf("%s: listed as a divergence but agrees with ai-chat now (%s); remove it", c.Input, got)
			}
		}
		if got.String() != want {
			t.Errorf("%s: got %s, want %s (ai-chat says %s; %s)", c.Input, got, want, c.Expect, c.Source)
			continue
		}
		agree++
	}
	t.Logf("ai-chat SSE URL guard: %d/%d as expected (%d deliberate divergences)", agree, total, len(sseDivergences))
	peercorpus.NonEmpty(t, total, "ai-chat's _validate_sse_url cases")
	for in := range sseDivergences {
		if !used[in] {
			t.Errorf("%s: listed as a divergence but matches no corpus case; remove it", in)
		}
	}
}

type sseCase struct {
	Input   string `json:"input"`
	Expect  string `json:"expect"`
	Source  string `json:"source"`
	Context struct {
		Layer string `json:"layer"`
		DNS   string `json:"dns"`
	} `json:"context"`
}

func sseCases(t *testing.T, file *os.File) func(func(sseCase) bool) {
	return func(yield func(sseCase) bool) {
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			if !strings.Contains(sc.Text(), ":_validate_sse_url") {
				continue // other layers have other shapes
			}
			var c sseCase
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("corpus line %q: %v", sc.Text(), err)
			}
			if strings.HasSuffix(c.Context.Layer, ":_validate_sse_url") && !yield(c) {
				return
			}
		}
	}
}

func hostOf(t *testing.T, raw string) string {
	parsed, err := parseURL(raw)
	if err != nil {
		t.Fatalf("corpus URL %q: %v", raw, err)
	}
	return parsed.host.name
}

func worstVerdict(fs []risk.Finding) risk.Verdict {
	v := risk.Allow
	for _, f := range fs {
		v = v.Worse(f.Verdict)
	}
	return v
}
