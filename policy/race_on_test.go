//go:build race

package policy_test

// raceEnabled: the race detector slows the analysis about ten times, so a
// CPU bound that catches a runaway is ten times looser under it.
const raceEnabled = true
