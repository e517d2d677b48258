//go:build !linux

package relay

// Running is 0: there are no daemons where relaying is not supported.
func Running(string) int { return 0 }

// Daemons is empty: there are no daemons where relaying is not supported.
func Daemons(string) []int { return nil }
