// Package analysis says what code does: given a parsed command line
// ([shell.Script]) and the call's [Context] (home, working directory,
// workspace, the rule packs and the call's work budget), it follows every
// simple command the code reaches — nested shell code, code in other
// languages carried in options and variables, scripts the same command
// line writes and then runs, container commands through their bind mounts,
// destinations read from input — and reports each effect it finds, in the
// order the code has them, to a [Judge]: the commands with what the rule
// packs and the effect model say about them ([Command]), the files they
// read, write, delete, search or name ([Path]), the URLs and hosts they
// contact, the addresses they name ([Contact]), the trees they serve
// ([Serve]), the programs they install ([Install]), the known text they
// write ([Write]). Effects that are harmful whatever the policy says — fork
// bombs, fetching code and running it, reverse shells, secrets sent to the
// network, deleting the root, a home directory, a system directory or the
// project (critical by effect, DESIGN §3) — and the parts of the code that
// cannot be known before it runs are findings the analysis makes itself.
//
// Package policy is the judge: it weighs each effect against the policy
// (the configured roots and deny lists, URL rules, modes, user rules,
// toolguard's own files, processes and ports). The analysis knows nothing
// of the policy, and the policy does not look inside code.
//
// # Order and budget
//
// Effects are reported as they are found, not collected first, for two
// reasons. The call's findings — the analysis's and the judge's — form one
// list whose order decides which of two equally bad findings explains the
// decision. And one work budget ([shell.Budget]) covers the whole call:
// the analysis charges it for parsing and following code, the judge for
// judging what it is told; when the budget runs out at some command, the
// commands before it have been judged whole (a deny among them still
// denies). The [Report] after the walk holds the commands reached.
//
// # Where new analysis goes
//
// A file a command runs is judged by its kind (files.go: [Files] gives the
// text of a file; the store of files the same command line wrote is one,
// package policy's bounded reader of the disk that follows the path rules
// is the other): a script or another language's file by lang.go, a sed or
// awk program or SQL by being put in place of its name on the command line
// before the rule packs classify it (filecode.go); code carried in a
// command by its language (lang.go), the directory a command's relative
// operands resolve in by [Analysis.Dir].
//
// An Analysis belongs to one call and is not safe for concurrent use;
// nothing in this package keeps state between calls.
package analysis
