// Package shell analyses a shell command string the way a shell would, without
// running any of it.
//
// [Parse] reads the text with mvdan.cc/sh/v3 (bash dialect) and produces a
// [Script]: every simple command that could run, with its argv resolved
// statically, its assignments and redirects, and wrappers such as sudo, env
// or timeout removed. Code nested in strings (bash -c, eval, ssh host CMD,
// here-docs or pipes fed to a shell) is parsed again and its commands are
// added with an Origin that says how they were reached. Anything that cannot
// be known statically is recorded as a [Problem]; callers must treat a script
// with problems as unverifiable.
//
// # Words
//
// Words are expanded with mvdan.cc/sh/v3/expand using a fresh configuration
// per call that can neither run commands nor read the filesystem: no
// globbing (Word.Glob marks unquoted glob characters), no command
// substitution, no ~user lookup. Variables come from Options.Env, Options.Home
// and assignments earlier in the same script (X=rm; $X -rf /), tracked in
// straight lines: an assignment inside a branch, a loop or after && makes the
// variable unknown afterwards, and a subshell, pipeline element or $(…) keeps
// its assignments to itself. An unknown variable never becomes "": the word
// is marked Known=false and keeps the unknown part in source form. A command
// name that is not Known is a Problem.
//
// # Unwrapping and nesting
//
// Wrappers that run the rest of their words (sudo, doas, pkexec, run0, env,
// command, builtin, exec, nice, ionice, nohup, timeout, time, stdbuf, setsid,
// chroot, flock, xargs, watch -x, busybox, shx, unshare, …) are removed and listed
// in Command.Wrappers; an option a wrapper does not know is a Problem, since
// it could change which word is the command. Code carried as a string is
// parsed again, one level deeper (Options.MaxDepth): sh/bash/zsh/… -c, eval,
// su -c, script -c, flock -c, watch, parallel, ssh (Remote is the host),
// docker/podman/kubectl exec, here-documents, here-strings and pipes into a
// shell (echo/printf/cat output and base64 -d or xxd -r of known text are
// known; anything else piped into a shell is a Problem), functions and
// aliases defined earlier in the script, find -exec and xargs commands.
//
// Interpreter one-liners (python -c, node -e, perl -e, ruby -e, php -r,
// lua -e, awk programs, osascript -e, pwsh -Command and -EncodedCommand) and
// code fed to an interpreter's stdin set Command.Inline. The package does not
// judge that code, except that a literal shell command it spawns
// (os.system("…"), subprocess.run([…]), system("…"), `…`, execSync("…"),
// do shell script "…") is parsed as nested code with Origin "interpreter",
// and a spawn with a non-literal argument is a Problem.
//
// Data is not code: the arguments of echo or printf, commit messages, grep
// patterns and here-documents fed to cat or tee are never parsed as commands.
//
// # Budgets
//
// Options.MaxBytes, MaxDepth and MaxCommands bound the input size, the
// nesting and the number of commands; brace expansion and the size of an
// expanded word are bounded too. Above them, a [Budget] of work units
// bounds the work itself: the bytes parsed (estimated before the parser
// runs, with the operators and the bracket nesting that make parsing
// dear), the statements walked, the words expanded and the state copied,
// across every nested re-parse. A caller passes one Budget (Options.Budget)
// to every Parse of one call and charges it for its own work. Exceeding
// any bound adds a Problem whose reason starts with "budget exceeded"
// ([Problem.OverWorkLimit] tells the work budget apart), so a truncated
// analysis is never mistaken for a clean one.
//
// Parse is safe for concurrent use; the returned Script is not shared.
package shell
