// Package relayd is the engine side of package relay: a daemon that
// listens on one UNIX socket, runs each relayed command in process and
// writes back what it printed. It exits when it has been idle for a while,
// when its binary is replaced, or when its context is cancelled. It runs
// on Linux only, like the launcher's side of the relay.
package relayd
