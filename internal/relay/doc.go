// Package relay carries one toolguard command from the small `toolguard`
// launcher to a warm engine process and its answer back.
//
// A hook process is started for every tool call an agent makes, so its
// start-up is most of its cost. The launcher links almost nothing; the
// engine (`toolguard-engine`) links the policy engine, the server and the
// rest. Instead of starting the engine for every call, the launcher hands
// the call to an engine it started earlier (a relay daemon) over a UNIX
// socket, and the daemon runs the very same command in process.
//
// The daemon must behave exactly as a fresh engine process would, so a
// daemon serves one context only: one engine binary, user, working
// directory, umask and environment. [Key] names that context and the
// socket; [Verify], which [Exchange] runs before it takes an answer,
// refuses a peer that is not the engine binary started with
// exactly the caller's environment, working directory, umask and arguments, so a
// process an agent started with another environment (say, a laxer
// TOOLGUARD_MODE) cannot answer for the launcher.
//
// The wire format is length-prefixed and versioned; [ReadRequest] and
// [ReadResponse] check every length against the limits below before
// allocating.
package relay
