//go:build linux && !race

package sandbox

const raceEnabled = false
