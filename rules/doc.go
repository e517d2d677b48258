// Package rules classifies one simple shell command with data-driven rule
// packs.
//
// The input is a [shell.Command] from the shell analysis: the resolved argv,
// assignments, redirects, wrappers, the pipeline around it and any inline
// interpreter code. [Set.Classify] returns a [Result]: every matching rule as
// a risk.Finding, the command's tier (read for known read-only shapes, write
// for known writes, execute for anything unknown, or the worst tier of a
// matching rule), whether any pack knows the executable, the operands that are
// paths (with read/write/delete access, for the path policy) and the URLs and
// hosts it contacts (for the network policy). Nothing is matched against the
// raw command text: conditions look at parsed argv words.
//
// # Packs
//
// The built-in packs are TOML files embedded from packs/*.toml, one per
// domain (filesystem, git, system, remote-code, secrets, containers,
// kubernetes, cloud, databases, iac, packages, remote-copy, forges, generic,
// safe). [Builtin] reads only each file's header. The first time a command
// names an executable, the packs listing it are cut into their top-level
// entries (without decoding), and only the entries for that executable — and,
// for sub-command entries, only those of the sub-command the command names —
// are decoded (one TOML decode per pack) and compiled; entries for any
// executable ("*") are decoded only when the command has the feature they
// look at (inline code, redirects, assignments, …). Results are cached, so
// the first call stays well under a millisecond and later calls cost
// microseconds. [Compile] takes packs eagerly and reports every problem at
// once; [Set.Check] does the same for a lazily loaded set.
//
// A pack file starts with its header, before any table:
//
//	name = "git"                      # unique; rule ids and Options.Disable may use it
//	description = "…"
//	executables = ["git", "*"]        # every executable an entry names ("*" = any command)
//
// The header's executables list is the index: the loader consults only the
// packs that list a command's name (and those listing "*"). A pack-lint test
// checks that every listed name is used and that compile rejects any entry
// naming an unlisted executable.
//
// # Argument grammar: [exe.NAME]
//
//	[exe.git]
//	value_flags = ["-C", "-c", "-m"]  # take the next word (or the rest of a short cluster) as value
//	list_flags = ["-exec"]            # take words up to ";" or "+" (find)
//	raw_flags = false                 # true: "-delete" is one option, not -d -e -l …; "-x" == "--x"
//	no_flags = false                  # true: every word is an operand (echo)
//	abbreviations = true              # "--forc" matches "--force" (git, GNU getopt_long)
//	default_operand = "."             # operand used when none is given (find)
//	own_options_first = true          # options before a sub-command are the program's (git -C DIR branch)
//
// Without a grammar, short clusters are split (-rf is -r -f), "--name=value"
// carries its value, "--" ends the options, and no flag takes a separate
// value. Several packs may describe one executable; their grammars merge.
//
// # Rules: [[rule]]
//
//	[[rule]]
//	id = "git.push-force"             # unique across all packs
//	exe = ["git"]                     # or ["*"]
//	sub = ["push"]                    # sub-command path; "a|b" alternatives; globs allowed
//	category = "vcs-history"          # a risk.Category
//	tier = "destructive"              # read | write | execute | destructive
//	blast = "high"                    # none | low | medium | high | critical | unknown
//	verdict = "ask"                   # optional floor: allow (default) | ask | deny
//	unverifiable = false              # true: the finding is about something not knowable statically
//	reason = "One sentence."
//	suggestion = "What to do instead."
//	[rule.match]                      # every condition given must hold
//	flags_any = ["-f", "--force"]
//
// The sub-command path is matched against the positional words after the
// executable's own options; a positional that may be the value of an option
// of unknown arity is skipped. Conditions in [rule.match]:
//
//   - flags_all (groups, each satisfied by any member), flags_any,
//     flags_none (a long option switched off by its own value, as
//     --dry-run=false, --dry-run=$X or npm's --dry-run false, is not
//     present), flags_no_value (a value flag given without its value),
//     flag_values (flag → globs on its value; any one flag matching is
//     enough).
//   - operands_any, operands_none, operands_outside (some operand matches
//     none of the patterns), operand_at + operand_at_any, last_operand_any
//     (every pattern "!PATTERN": the destination matches none of them),
//     min_operands, dashdash (operands follow "--"), words_any (any
//     argument word), verbs + verb_depth (one of the first positionals).
//   - assigns (VAR=value names; with assigns_loaded, only a value that is
//     not empty and not /dev/null counts), redirects (output targets), redirects_any,
//     privileged (sudo/doas/su), remote (ssh host CMD), origins (how the
//     command was reached: "xargs", "find -exec", …), dir (where an earlier
//     cd moved).
//   - stdin_from (a producer earlier in the pipeline: a name or @downloader,
//     @decoder, @envdump, @shell, @any), stdin_operands, stdin_not_known
//     (the stdin is not text the shell analysis decoded statically).
//   - sql with sql_flags, sql_operands, sql_skip: statement kinds found in
//     the text the client will run (flag values, operands, here-docs,
//     here-strings, text piped from echo/printf; any other stdin is
//     "unknown"). A small splitter separates statements on semicolons
//     outside quotes and comments; kinds are drop-database, drop-table,
//     drop-other, truncate, delete-all and update-all (no WHERE),
//     alter-drop, flush and shutdown (Redis), mongo-drop, mongo-delete-all,
//     unknown.
//   - inline (languages of interpreter one-liners, "*" for any),
//     inline_any, inline_all, inline_also (substrings of the code, case
//     folded, with \040 and \x20 escapes decoded), inline_unknown,
//     inline_not_known.
//   - pipe_self_background (a command piping into itself in the
//     background: the fork-bomb shape), unknown_exe (only for commands no
//     pack knows), name_unknown (the executable word is dynamic).
//
// Patterns for operands, redirects and directories are globs where "*"
// stays within one path component, "**" crosses them and "?" is one
// character; matching ignores case and is tried on the word as written, on
// its cleaned form (/tmp/../etc is /etc) and with a home directory
// (/home/USER, /Users/USER, /root, $HOME) spelled "~". Classes: @root (/ and
// /*), @home (a home directory or its /*), @cwd (., *), @parent (.., ../*),
// @system (top-level system directories), @temp (below /tmp, /var/tmp,
// $TMPDIR …), @outputs (build outputs and caches: dist, build,
// node_modules, target, __pycache__ …), @unknown (not statically known), @glob, @abs, @any. Globs on
// flag values, sub-commands, verbs and variable names are flat: "*" matches
// anything.
//
// # Safe shapes: [[safe]]
//
//	[[safe]]
//	exe = ["sed"]
//	sub = []                          # optional sub-command path
//	tier = "read"                     # read (default) | write
//	unsafe_flags = ["-i"]             # any of these cancels the shape…
//	unsafe_operands = []              # …or an operand matching these
//	unsafe_tier = "write"             # …and gives this tier (default execute)
//	no_operands = false               # cancel when there is any operand
//	max_operands = 0                  # cancel above this many operands (0: no limit)
//	verbs = []                        # apply only when a verb matches (like rules)
//
// The most specific matching shape (longest sub-command path) sets the
// command's base tier; a command no shape covers is tier execute. Rules then
// raise the tier.
//
// # Paths and URLs: [[paths]], [[urls]]
//
//	[[paths]]
//	exe = ["mv"]
//	operands = "delete"               # access of every operand: read | write | delete
//	last = "write"                    # access of the last operand when there are two or more
//	skip = 0                          # leave out the first operands (chmod's mode)
//	script_flags = ["-e"]             # without these, the first operand is a program (sed, grep)
//	when_flags = ["-i"]               # apply only when one of these is present
//	flag_values = { "-o" = "write", "of=" = "write" }   # flag values and key= operands
//
//	[[urls]]
//	exe = ["curl"]
//	operands = "http"                 # all | http (scheme added) | httpie | first (a host) | remote (host:path) | url
//	flags = ["--url"]
//
// Redirect targets are paths too (">" and ">>" write, "<" reads; /dev/null
// and descriptors are left out), and any written path raises the tier to at
// least write.
//
// # Users
//
// [Options] disables rules or whole packs by name and adds user rules, which
// use the same [Rule] shape. [Set.Rules] lists every enabled rule with a
// summary of what it matches, for `toolguard rules`.
package rules
