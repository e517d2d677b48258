//go:build race

package server

// raceEnabled: the race detector slows the code several times, so the load
// tests' timing bounds mean nothing under it.
const raceEnabled = true
