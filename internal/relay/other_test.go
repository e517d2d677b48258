//go:build !linux

package relay_test

// leftDaemons finds nothing: no daemon runs on this system.
func leftDaemons() string { return "" }
