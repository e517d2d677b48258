package policy_test

import (
	"context"
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/policy"
)

// BenchmarkCompiledScan reports what one compiled default policy costs
// every garbage collection cycle of a long-lived process: the scannable
// heap it holds (the bytes the collector marks through, /gc/scan/heap) and
// its heap objects, measured after compiling b.N policies and keeping them
// alive (deterministic; independent of the machine's speed): as compiled,
// and after deciding a few calls (a read, a denied read, an edit, and
// commands with glob operands and trees), which builds what the policy
// builds on first use. The globals the collector scans every cycle
// (/gc/scan/globals, all packages) are reported too: they are marked
// whatever the policies.
func BenchmarkCompiledScan(b *testing.B) {
	b.Run("compiled", func(b *testing.B) { benchScan(b, nil) })
	b.Run("used", func(b *testing.B) {
		var calls []call.Call
		p := mustCompile(b, &policy.Settings{})
		for _, req := range []call.Request{
			{Tool: "Read", Input: file(ws + "/internal/server/handler.go")},
			{Tool: "Read", Input: file(home + "/.ssh/id_rsa")},
			{Tool: "Edit", Input: file(ws + "/README.md")},
			{Tool: "Bash", Input: bash("git status && git diff --stat")},
			{Tool: "Bash", Input: bash("cat *.json .env* ~/.aws/* | grep x")},
			{Tool: "Bash", Input: bash("ls -la ~/ build/ && wc -l src/*.go")},
		} {
			req.Cwd, req.Workspace = ws, ws
			c, err := p.Tools().Normalize(req)
			if err != nil {
				b.Fatal(err)
			}
			calls = append(calls, c)
		}
		use := func(p *policy.Policy) {
			for _, c := range calls {
				p.Decide(context.Background(), c)
			}
		}
		use(p) // what all policies share (the rule packs) is built before the count
		benchScan(b, use)
	})
}

func benchScan(b *testing.B, use func(*policy.Policy)) {
	read := func() (scan, objects, globals uint64) {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}, {Name: "/gc/heap/objects:objects"}, {Name: "/gc/scan/globals:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()
	}
	keep := make([]*policy.Policy, 0, b.N)
	scan0, obj0, globals := read()
	b.ResetTimer()
	for range b.N {
		loaded, err := policy.Load(policy.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		p, err := policy.Compile(loaded.Config, policy.Options{Home: home})
		if err != nil {
			b.Fatal(err)
		}
		if use != nil {
			use(p)
		}
		keep = append(keep, p)
	}
	b.StopTimer()
	scan1, obj1, _ := read()
	runtime.KeepAlive(keep)
	n := float64(b.N)
	b.ReportMetric((float64(scan1)-float64(scan0))/n, "scan-B/policy")
	b.ReportMetric((float64(obj1)-float64(obj0))/n, "objects/policy")
	b.ReportMetric(float64(globals), "globals-scan-B")
}
