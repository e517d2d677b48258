//go:build linux && race

package sandbox

// raceEnabled: the race detector maps terabytes of shadow memory, so Go
// targets run from a race-enabled test binary cannot take a memory limit.
const raceEnabled = true
