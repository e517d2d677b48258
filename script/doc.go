// Package script analyses the small languages ordinary programs carry in
// their arguments — sed and awk programs, vim and ex commands, git
// configuration settings, ssh options, jq filters, less commands, crontabs
// and the commands of file-transfer clients — far
// enough to say what running them would do: the files they read and write,
// the shell commands they start, and whether they reach the network or
// print the environment.
//
// Each analyser returns [Effects]. A script is proven harmless only when
// [Effects.Proven] holds: everything it does was understood and it writes,
// runs and sends nothing. Anything the analyser does not understand makes
// it unproven, with the reason in Effects.Unknown, so that callers never
// mistake an unfamiliar construct for a read (DESIGN §6, "read only when
// proven").
//
// The analysers are lexical: they skip strings, regular expressions and
// comments the way each language does and look at the commands, functions
// and redirections that have effects. They never run anything, never touch
// the file system and bound their work by the length of the input.
package script
