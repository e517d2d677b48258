//go:build servecpuprofile

package cli

import (
	"os"
	"runtime/pprof"
)

// profileServe writes a CPU profile of serve to the file named by
// $SERVE_CPUPROFILE (not TOOLGUARD_: those are policy settings) until serve stops. Only builds with the tag
// servecpuprofile have it (for benchmarking: `go build -tags
// servecpuprofile`); the shipped build has no profile switch at all.
func profileServe() func() {
	name := os.Getenv("SERVE_CPUPROFILE")
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}
