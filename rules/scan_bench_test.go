package rules

import (
	"runtime"
	"runtime/metrics"
	"testing"

	"github.com/toolguard/toolguard/shell"
)

// BenchmarkPacksScan reports what the embedded packs cost every garbage
// collection cycle of a long-lived process once every entry is compiled
// and used: the scannable heap a Set holds (/gc/scan/heap, the bytes the
// collector marks through) and its heap objects, after compiling b.N
// Sets block by block (as commands compile them) and classifying each
// effect-model entry's examples and counter-examples with each (which
// builds the views and grammars), keeping them alive. The globals the
// collector scans every cycle (/gc/scan/globals, mostly the generated
// tables) are reported too. The figures are deterministic: they do not
// depend on the machine's speed or load.
func BenchmarkPacksScan(b *testing.B) {
	read := func() (scan, objects, globals uint64) {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}, {Name: "/gc/heap/objects:objects"}, {Name: "/gc/scan/globals:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()
	}
	var cmds []*shell.Command
	{
		s, err := buildBuiltin(Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range allPrograms(b, s) {
			for _, ex := range append(append([]string(nil), p.examples...), p.counter...) {
				if sc, err := shell.Parse(ex, shell.Options{}); err == nil && sc != nil {
					cmds = append(cmds, sc.Commands...)
				}
			}
		}
	}
	keep := make([]*Set, 0, b.N)
	scan0, obj0, globals := read()
	b.ResetTimer()
	for range b.N {
		s, err := buildBuiltin(Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, lp := range s.packs {
			s.compileBlocks(lp.packBlocks())
		}
		for _, c := range cmds {
			s.Classify(c)
		}
		keep = append(keep, s)
	}
	b.StopTimer()
	scan1, obj1, _ := read()
	runtime.KeepAlive(keep)
	runtime.KeepAlive(cmds)
	n := float64(b.N)
	b.ReportMetric((float64(scan1)-float64(scan0))/n, "scan-B/set")
	b.ReportMetric((float64(obj1)-float64(obj0))/n, "objects/set")
	b.ReportMetric(float64(globals), "globals-scan-B")
}

// allPrograms compiles every block of s and returns its effect-model
// entries.
func allPrograms(tb testing.TB, s *Set) []*program {
	var out []*program
	for _, lp := range s.packs {
		bs := lp.packBlocks()
		s.compileBlocks(bs)
		for _, b := range bs {
			if b.err != nil {
				tb.Fatal(b.err)
			}
			if b.cp != nil {
				out = append(out, b.cp.programs...)
			}
		}
	}
	return out
}
