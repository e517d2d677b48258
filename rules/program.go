package rules

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// Program is one entry of the effect model (DESIGN §6): what an executable,
// or one sub-command of it, does with each word of its command line — which
// operands and option values it reads, writes, deletes or runs as code, the
// environment variables it obeys, and whether it reaches the network or
// prints credentials. A command is the read tier only when an entry accounts
// for every option it uses and nothing it does goes beyond reading.
//
// Roles of operands and option values:
//
//	text        data that is not a file (a pattern, a message, a number)
//	read        a file whose content is read
//	stat        a file whose name or metadata is read (ls, stat)
//	write       a file created or overwritten
//	delete      a file removed
//	exec        a program file that is run (or a module loaded)
//	shell       a shell command string that is run
//	script:LANG code in LANG (sed, awk, vim, find, gitconfig, sshoption, jq, less, crontab, ftp, sql,
//	            the interpreters, code: any other language, judged by the paths and
//	            commands it names, and json: a JSON document whose code keys — command,
//	            args, script, … at any depth — carry commands, as an MCP tool's arguments
//	            do: kubectl run --overrides)
//	library     a module or plugin loaded: a file when the word has "/" or ".",
//	            else a built-in name (pandoc -t html, -t custom.lua)
//	url, host   a URL or a host that is contacted
//	upload      a file whose content is sent over the network
//	method      an HTTP method (curl -X, gh api --method): GET, HEAD and OPTIONS only
//	            read; any other value, or one not known, sends
//	header      an HTTP header (curl -H): one that carries credentials (Authorization,
//	            Cookie, a name with token, key, secret, auth, session or password), one
//	            read from a file (@FILE) or one not known sends
//	dir         a directory the command works in (relative operands after it resolve there)
//	shell-args  (operands only) the arguments of a shell the program starts, with the rest
//	            of the words (capsh -- -c CMD): judged as "bash ARGS…"
//	mount       a bind mount given to a container (docker run -v HOST:CONT, --mount)
//	container-command (operands only) the command a container runs, with the rest of the
//	            words: judged through the container's bind mounts
//	into        a directory the command writes files into (unzip -d, git apply --directory):
//	            judged as writing everything below it
//	include     a base-name glob: a recursive walk touches only the files it matches (grep --include)
//	exclude     a base-name glob: a recursive walk leaves the files it matches out (grep --exclude)
//	name-glob   rg -g: "!GLOB" as exclude, GLOB as include
//	identity    a key file the program authenticates with (ssh -i): read by the
//	            program to sign, neither printed nor sent, as the keys it uses
//	            unasked are; not judged as a read of the file
//
// A word with a file role that is a URL (http://…) or a remote path
// (host:path, as scp and rsync write them) is contacted instead.
//
//	request-items (operands only) httpie's and xh's [METHOD] URL [ITEM…]: the
//	            method as a method, the URL as a word the URL specs find, a
//	            NAME==VALUE item as text (a query parameter), a Name:Value item
//	            as a header; every other item (NAME=VALUE, NAME:=JSON, @FILE,
//	            NAME=@FILE, NAME@FILE) sends a body or a file
//	subcommand  (operands only) a sub-command word no entry describes: the
//	            command is not proven (the entry of a CLI itself, "git")
//	command     (operands only) the program the command runs, with the rest
//	            of the words as its arguments (setarch ARCH CMD…, valgrind
//	            CMD…); options end at the first operand, and the command run
//	            is judged as if written alone
//
// Option effects (options without a value):
//
//	recursive     operands are directory trees (grep -r, cp -r, chmod -R)
//	inplace       operands are rewritten (sed -i, perl -i, gzip)
//	network       the command contacts the network
//	remote-read   the command contacts the network only to read remote state (an API's
//	              list/describe/get calls, an HTTP GET): it stays the read tier when nothing
//	              is sent (no option with the sends effect, no uploaded file, no method but
//	              GET/HEAD) and every word of it is literal
//	no-hooks      the option stops the repository's hooks (git push --no-verify); see the
//	              always effect hooks
//	sends         the option sends data or credentials (a request body, a header, a login):
//	              the network use is no longer a remote read
//	credentials   the command prints live credentials
//	runs-code     the command runs code it finds (a Makefile, a test suite, a hook)
//	writes-files  the command writes files it does not name on the command line
//	changes-state the command changes the running system, not files (kill, umount, sysctl -w)
//	extracts      the command writes an archive's members below its directory (".", or the dir
//	              option's): without operands naming them, that whole tree is written
//	dest-delete   files in the last operand that the sources lack are removed (rsync --delete)
//	dry-run       the command only reports what it would do: writes become reads of the names,
//	              the entry's always runs-code, writes-files and changes-state do not apply,
//	              and its network use is a remote read (git push --dry-run asks the remote
//	              for its refs and sends nothing)
//	offline       the command contacts nothing, whatever its entry says (cargo --offline, ssh -G)
//	untracked     the command also walks files git does not track (git grep --untracked, --no-index)
//	any-names     the command walks files of any name, whatever Only says (black --include REGEX)
//	names-only    the command prints names only (compose config --services): the entry's
//	              always credentials does not apply
//	tracked       (always only) a recursive walk touches only the files git tracks (git grep)
//	reports       the option puts the program in a mode that only reports (redis-cli --scan,
//	              --bigkeys): it runs no commands of its own, so the entry's always runs-code
//	              does not apply
//	operands:ROLE, first:ROLE, last:ROLE   the option changes that part's role (gzip -c: operands:read, shred -u: operands:delete)
//
// An option whose effect is a value role (read, write, exec, …) takes a
// value; one with an effect of the list above takes none. The key "+" gives
// the role of operands written +VALUE (vim +CMD, less +CMD). An option
// listed in Flags that is given a value with "=" is proven only when the
// value is a plain word (--color=auto).
type Program struct {
	// Exe names the executables. Required.
	Exe []string `toml:"exe"`
	// Sub is the sub-command path ("log", "stash|list"); empty means the
	// executable itself. The most specific matching entry applies.
	Sub []string `toml:"sub"`
	// Flags are options with no effect beyond what the entry's operands say.
	// An option listed nowhere (Flags, Values, Effects) keeps the command
	// from being proven read-only. Nil means none.
	Flags []string `toml:"flags"`
	// Values are options that take a value with no effect (head -n 5).
	// Nil means none.
	Values []string `toml:"values"`
	// Optional are options whose value is optional and, when given, written
	// attached with "=" (git log --pretty[=FORMAT], grep --color[=WHEN]); the
	// value has no effect. Nil means none.
	Optional []string `toml:"optional"`
	// Attached are single-letter options whose value is optional and, when
	// given, is the rest of their word (sed -i.bak, perl -pi.orig: GNU
	// getopt's "i::"); a following word is never their value. They are
	// listed in flags or effects as well. Nil means none.
	Attached []string `toml:"attached"`
	// Effects are options with an effect: option → role of its value, or
	// the option's own effect (see the type documentation). Nil means none.
	Effects map[string]string `toml:"effects"`
	// Operands is the role of every operand; empty means "text".
	Operands string `toml:"operands"`
	// First is the role of the first operand (grep's pattern, sed's
	// script); empty means the Operands role. ScriptFlags cancel it.
	First string `toml:"first"`
	// ScriptFlags are options whose presence means the first operand is
	// not special (sed -e, grep -e, awk -f). Nil means none.
	ScriptFlags []string `toml:"script_flags"`
	// Last is the role of the last operand when there are two or more
	// (cp's destination); empty means the Operands role.
	Last string `toml:"last"`
	// Env are the environment variables the program obeys: name → role
	// (shell, exec, library, read, write, url, script:LANG). Nil means none.
	Env map[string]string `toml:"env"`
	// Stdin is the role of what the program reads on standard input when
	// the command line feeds it text (a here-document, a pipe from echo):
	// "script:tcl" for tclsh, "script:crontab" for crontab -, "script:ftp"
	// for ftp; "read" when the program only reads the input itself and
	// sends none of it (kubeconform validates the manifests fed to it: a
	// remote read still). Empty means the input is data, which a network
	// command may send.
	Stdin string `toml:"stdin"`
	// Always are effects of every use: network, remote-read, hooks (the
	// repository's hooks run, even in a dry run, unless an option with the
	// no-hooks effect is given), credentials, runs-code,
	// writes-files, changes-state, recursive (operands are whole directory trees, as for mv). Nil means
	// none.
	Always []string `toml:"always"`
	// Interactive means that without an operand (with no First role,
	// operands that are only text, such as psql's database name, or the
	// file the program writes, such as script's typescript, do not
	// count), a script option
	// (ScriptFlags) or text fed on standard input the program reads the
	// commands it runs from the terminal (bash, python, sudo -s): it runs
	// code. False means a bare invocation is judged by its entry alone.
	Interactive bool `toml:"interactive"`
	// LoadsProject means the program runs code from the project before it
	// reads its arguments (yarn's yarnPath, ./gradlew), so even --help and
	// --version run it. False means --help and --version only print.
	LoadsProject bool `toml:"loads_project"`
	// HelpFlags are options that, wherever the program reads its own
	// options, make it print its usage and exit whatever else is written
	// (cobra's --help: kubectl delete ns prod --help deletes nothing). An
	// entry of the executable itself (no Sub) gives them to every entry of
	// that executable. Words after "--", or that the program hands to
	// another command (docker run IMAGE CMD --help), are not its options.
	// Nil means only a command made of help words alone (--help,
	// --version) is help.
	HelpFlags []string `toml:"help_flags"`
	// HelpWords are words that, as the last word of the command, make the
	// program print its usage and exit (aws s3 rm help). Like HelpFlags, an
	// entry of the executable itself gives them to all its entries. Nil
	// means none.
	HelpWords []string `toml:"help_words"`
	// InOrder means options end at the first operand, as for programs that
	// take another command line (ssh HOST CMD -x, docker run IMAGE CMD -x:
	// -x belongs to CMD). The command role implies it. False means options
	// may come anywhere (GNU order).
	InOrder bool `toml:"in_order"`
	// Only are the base-name globs of the files the program touches when it
	// walks a directory (gofmt: *.go; black: *.py, *.pyi, *.ipynb): a
	// denied file of another name below the directory is not touched. An
	// option with the effect any-names cancels them. Nil means every file.
	Only []string `toml:"only"`
	// LeaveOut is the option that makes a recursive walk leave one file
	// out, with NAME where the file's name goes ("--exclude=NAME" for
	// grep, "--glob=!NAME" for rg): a deny of a tree that holds a denied
	// file gives the command with it, to run instead. Empty means the
	// program has none.
	LeaveOut string `toml:"leave_out"`
	// Examples are commands this entry must apply to; Counter are commands
	// it must not apply to. Both are checked when the packs are compiled
	// eagerly (Compile, Set.Check): an entry that can never match is an
	// error. At least one example is required.
	Examples []string `toml:"examples"`
	Counter  []string `toml:"counter"`

	// pre is what compileProgram would build from the lists above, worked
	// out by the generator for the embedded packs (packs_gen.go) so that a
	// hook process does not sort the names on every call; zero otherwise.
	pre programSets
}

// programSets are the name sets compiling a [Program] builds from its
// lists: sorting the names is most of what compiling an entry costs, and a
// hook process compiles the entries of its command on every call.
type programSets struct {
	opts     nameSet // Flags, Values and Optional, tagged pFlag, pValue, pOptional
	effNames nameSet // the options Effects names
	// grammar is what an entry without Sub adds to its executables'
	// grammars: its value options (gValue) and Attached (gAttached).
	grammar nameSet
}

// grammarOpts returns the options an entry without Sub adds to its
// executables' grammars: p's own set when the generator worked it out.
func grammarOpts(p Program, cp *program) nameSet {
	if p.pre.grammar.len() > 0 {
		return p.pre.grammar
	}
	return nameTags{}.add(gValue, cp.valueFlags()...).add(gAttached, cp.attached...).set()
}

// role is a compiled role name.
type role string

const (
	roleText      role = "text"
	roleRead      role = "read"
	roleStat      role = "stat"
	roleWrite     role = "write"
	roleDelete    role = "delete"
	roleExec      role = "exec"
	roleShell     role = "shell"
	roleURL       role = "url"
	roleHost      role = "host"
	roleUpload    role = "upload"
	roleDir       role = "dir"
	roleLibrary   role = "library"
	roleSub       role = "subcommand"
	roleCommand   role = "command"
	roleCommandPy role = "python-command" // uv run x.py: a command, or a Python script it runs (python x.py)
	roleEnvCmd    role = "env-command"    // hatch run ENV:CMD: a command whose first word may name the environment first
	roleInto      role = "into"
	roleShellArg  role = "shell-args"
	roleMount     role = "mount"
	roleInside    role = "container-command"
	roleMethod    role = "method"
	roleHeader    role = "header"
	roleDocument  role = "document"      // wget -O: a file written, or "-": what is fetched goes to standard output
	roleInclude   role = "include"       // a base-name glob: a recursive walk touches only matching files
	roleExclude   role = "exclude"       // a base-name glob: a recursive walk leaves matching files out
	roleNameGlob  role = "name-glob"     // rg -g: "!GLOB" leaves files out, GLOB touches only those
	roleEndpoint  role = "endpoint"      // gh api ENDPOINT: a path on the API's host, no file of this machine
	roleDatabase  role = "database"      // sqlite3 DB: read when every statement given only reads, else written
	roleIdentity  role = "identity"      // ssh -i KEY: a key the program authenticates with, neither printed nor sent
	roleItems     role = "request-items" // (operands only) httpie's [METHOD] URL [ITEM…]: see requestItem
	scriptPrefix       = "script:"
)

// valueRoles are the roles of an operand or an option's value.
var valueRoles = []role{roleText, roleRead, roleStat, roleWrite, roleDelete, roleExec, roleShell, roleURL, roleHost,
	roleUpload, roleDir, roleLibrary, roleSub, roleCommand, roleCommandPy, roleEnvCmd, roleShellArg, roleInto, roleMount, roleInside, roleMethod, roleHeader,
	roleInclude, roleExclude, roleNameGlob, roleDocument, roleEndpoint, roleDatabase, roleIdentity, roleItems}

// flagEffects are the effects an option may have by itself.
// exec, write and delete are value roles (the option's value is run,
// written, deleted); runs-code and writes-files are the same effects of an
// option that takes no value.
var flagEffects = []string{"recursive", "inplace", "network", "offline", "credentials", "runs-code", "writes-files",
	"changes-state", "extracts", "dest-delete", "dry-run", "remote-read", "sends", "no-hooks", "untracked", "any-names",
	"names-only", "private", "reports"}

// alwaysEffects are the effects an entry may have on every use.
var alwaysEffects = []string{"network", "remote-read", "remote-command", "hooks", "credentials", "runs-code", "writes-files", "changes-state", "extracts", "recursive",
	"tracked", "private"}

// scriptLangs are the languages a script: role may name.
// "code" is any other language: its text is judged by what it names and
// the commands it embeds.
var scriptLangs = []string{"sed", "awk", "vim", "find", "gitconfig", "sshoption", "jq", "less", "lessopen", "crontab", "ftp", "tarcheckpoint",
	"python", "perl", "ruby", "node", "php", "lua", "sql", "duckdb", "tcl", "shell", "code", "json"}

// Tags of an entry's options without effect.
const (
	pFlag uint8 = 1 << iota
	pValue
	pOptional
)

// program is a compiled [Program].
type program struct {
	exe          []string
	sub          [][]string
	opts         nameSet     // the options without effect, tagged pFlag, pValue or pOptional
	attached     []string    // options whose value is the rest of their word
	effNames     nameSet     // the options with an effect
	effs         []optEffect // what each does, in effNames's order
	operands     role
	first        role
	last         role
	scriptFlags  []string
	stdin        role
	inOrder      bool
	interactive  bool
	loadsProject bool
	helpFlags    []string
	helpWords    []string
	env          map[string]string
	always       []string
	examples     []string
	counter      []string
	only         []string
	leaveOut     string
	where        string
	// sum and ident are summary() and id(), worked out when the entry is
	// compiled: every command an entry judges reports its summary, and
	// choosing between entries compares their ids.
	sum, ident string
}

// isValueRole reports whether r is the role of a value (so an option with
// it takes a value).
func isValueRole(r string) bool {
	return slices.Contains(valueRoles, role(r)) || strings.HasPrefix(r, scriptPrefix)
}

func checkRole(where, field, r string, pr *problems) {
	if r == "" || isValueRole(r) {
		if lang, ok := strings.CutPrefix(r, scriptPrefix); ok && !slices.Contains(scriptLangs, lang) {
			pr.addf(where, "field %s: unknown script language %q (valid: %s)", field, lang, strings.Join(scriptLangs, ", "))
		}
		return
	}
	pr.addf(where, "field %s: unknown role %q (valid: %s, script:LANG)", field, r, joinRoles(valueRoles))
}

func joinRoles(rs []role) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = string(r)
	}
	return strings.Join(out, ", ")
}

// optEffect is a compiled option effect: the role of the option's value
// (empty when it takes none), its own effects, and the roles it gives other
// parts of the command line.
type optEffect struct {
	value role
	own   []string
	parts []partRole
}

// partRole is PART:ROLE: operands, first or last, or another option's
// value ("-f:write": tar -c makes -f's archive an output).
type partRole struct {
	part string
	role role
}

// compileEffect parses an option's effect: comma-separated items, each a
// value role, an own effect or PART:ROLE, at most one value role.
func compileEffect(where, flag, eff string, pr *problems) optEffect {
	field := "effects." + flag
	var out optEffect
	for _, item := range strings.Split(eff, ",") {
		item = strings.TrimSpace(item)
		if part, r, ok := strings.Cut(item, ":"); ok && !strings.HasPrefix(item, scriptPrefix) {
			if part != "operands" && part != "first" && part != "last" && !strings.HasPrefix(part, "-") {
				pr.addf(where, "field %s: %q names no part (valid: operands, first, last or an option)", field, part)
			}
			checkRole(where, field, r, pr)
			out.parts = append(out.parts, partRole{part: part, role: role(r)})
			continue
		}
		if isValueRole(item) {
			checkRole(where, field, item, pr)
			if out.value != "" {
				pr.addf(where, "field %s: two value roles (%s, %s); an option has one value", field, out.value, item)
			}
			out.value = role(item)
			continue
		}
		if !slices.Contains(flagEffects, item) {
			pr.addf(where, "field %s: unknown effect %q (valid: a value role (%s, script:LANG), %s, operands:ROLE, first:ROLE, last:ROLE, -OPTION:ROLE)",
				field, item, joinRoles(valueRoles), strings.Join(flagEffects, ", "))
			continue
		}
		out.own = append(out.own, item)
	}
	return out
}

func compileProgram(where string, p Program, pr *problems) *program {
	out := &program{exe: p.Exe, sub: compileSub(p.Sub), attached: p.Attached,
		operands: role(p.Operands), first: role(p.First), last: role(p.Last),
		scriptFlags: p.ScriptFlags, stdin: role(p.Stdin), inOrder: p.InOrder, interactive: p.Interactive, loadsProject: p.LoadsProject, helpFlags: p.HelpFlags, helpWords: p.HelpWords, env: p.Env, always: p.Always, examples: p.Examples, counter: p.Counter, only: p.Only, leaveOut: p.LeaveOut, where: where}
	out.opts = p.pre.opts
	if out.opts.len() == 0 && len(p.Flags)+len(p.Values)+len(p.Optional) > 0 {
		out.opts = nameTags{}.add(pFlag, p.Flags...).add(pValue, p.Values...).add(pOptional, p.Optional...).set()
	}
	if out.operands == "" {
		out.operands = roleText
	}
	out.effNames = p.pre.effNames
	if out.effNames.len() == 0 && len(p.Effects) > 0 {
		out.effNames = nameTags{}.add(1, slices.Collect(maps.Keys(p.Effects))...).set()
	}
	if out.effNames.len() > 0 {
		out.effs = make([]optEffect, out.effNames.len())
	}
	for i := range out.effNames.len() { // sorted
		f := out.effNames.name(i)
		out.effs[i] = compileEffect(where, f, p.Effects[f], pr)
	}
	if !pr.checked {
		checkProgram(where, p, out, pr)
	}
	out.sum = out.buildSummary()
	out.ident = out.sum + "\x00" + strings.Join(out.examples, "\x00")
	return out
}

// checkProgram reports what is wrong in an effect-model entry: names that
// are not options, options listed twice, unknown roles and effects.
func checkProgram(where string, p Program, out *program, pr *problems) {
	checkRole(where, "operands", p.Operands, pr)
	checkRole(where, "first", p.First, pr)
	checkRole(where, "last", p.Last, pr)
	checkRole(where, "stdin", p.Stdin, pr)
	for i := range out.effNames.len() {
		checkFlagName(where, "effects", out.effNames.name(i), pr)
	}
	for i := range out.effNames.len() {
		f := out.effNames.name(i)
		for _, pt := range out.effs[i].parts {
			if eff, _ := out.effect(pt.part); strings.HasPrefix(pt.part, "-") && eff.value == "" {
				pr.addf(where, "field effects.%s: %s is not an option of this entry whose value has a role", f, pt.part)
			}
		}
	}
	for _, f := range p.Flags {
		checkFlagName(where, "flags", f, pr)
		if _, ok := p.Effects[f]; ok || out.opts.has(f, pValue) {
			pr.addf(where, "option %s is listed in flags and in values or effects; list it once", f)
		}
	}
	for _, f := range p.Optional {
		checkFlagName(where, "optional", f, pr)
		if _, ok := p.Effects[f]; ok || out.opts.has(f, pValue|pFlag) {
			pr.addf(where, "option %s is listed in optional and in flags, values or effects; list it once", f)
		}
	}
	for _, f := range p.Attached {
		checkFlagName(where, "attached", f, pr)
		if len(f) != 2 || f[0] != '-' {
			pr.addf(where, "field attached: %q is not a single-letter option (write -x)", f)
		}
		if _, ok := p.Effects[f]; !ok && !out.opts.has(f, pFlag) {
			pr.addf(where, "field attached: %s is listed in neither flags nor effects; list it in one of them too", f)
		}
	}
	for _, f := range p.Values {
		checkFlagName(where, "values", f, pr)
		if _, ok := p.Effects[f]; ok {
			pr.addf(where, "option %s is listed in values and in effects; list it once", f)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p.Env)) {
		checkRole(where, "env."+name, p.Env[name], pr)
	}
	for _, a := range p.Always {
		if !slices.Contains(alwaysEffects, a) {
			pr.addf(where, "field always: unknown effect %q (valid: %s)", a, strings.Join(alwaysEffects, ", "))
		}
	}
	for _, g := range p.Only {
		if _, err := path.Match(g, ""); err != nil || g == "" || strings.Contains(g, "/") {
			pr.addf(where, "field only: %q is not a base-name glob", g)
		}
	}
	if p.LeaveOut != "" && (strings.Count(p.LeaveOut, "NAME") != 1 || !strings.HasPrefix(p.LeaveOut, "-") && !strings.HasPrefix(p.LeaveOut, ":")) {
		pr.addf(where, "field leave_out: %q must be an option (--exclude=NAME) or a git pathspec (:!NAME) with NAME once where the file name goes", p.LeaveOut)
	}
	if len(p.Examples) == 0 {
		pr.addf(where, "field examples: required (commands the entry must apply to)")
	}
}

func checkFlagName(where, field, f string, pr *problems) {
	if f == "+" && field == "effects" {
		return // the role of operands written +VALUE (vim +CMD, less +CMD)
	}
	if len(f) < 2 || f[0] != '-' && f[0] != '+' || strings.ContainsAny(f, " =") {
		pr.addf(where, "field %s: %q is not an option (write -x, --long or +x, without a value; effects also take \"+\", the role of +VALUE operands)", field, f)
	}
}

// effect returns what the option name does; false when it has no effect.
func (p *program) effect(name string) (optEffect, bool) {
	if i := p.effNames.index(name); i >= 0 {
		return p.effs[i], true
	}
	return optEffect{}, false
}

// runsCommand reports whether the entry's operands include a command line.
func (p *program) runsCommand() bool {
	return p.operands == roleCommand || p.first == roleCommand || p.last == roleCommand || p.operands == roleCommandPy ||
		p.operands == roleEnvCmd || p.operands == roleShellArg || p.first == roleShellArg || p.operands == roleInside
}

// valueFlags lists the options of p that take a value, for the grammar.
func (p *program) valueFlags() []string {
	var out []string
	for i := range p.opts.len() {
		if p.opts.tagAt(i)&pValue != 0 {
			out = append(out, p.opts.name(i))
		}
	}
	for i, eff := range p.effs {
		if eff.value != "" {
			out = append(out, p.effNames.name(i))
		}
	}
	slices.Sort(out)
	return out
}

// summary describes an entry for listings and errors ("git stash|list").
func (p *program) summary() string { return p.sum }

// buildSummary spells summary.
func (p *program) buildSummary() string {
	s := strings.Join(p.exe, "|")
	for _, alts := range p.sub {
		s += " " + strings.Join(alts, "|")
	}
	return s
}

// tierOfRole is the least tier a command reaches when one of its words has
// role r.
func tierOfRole(r role) risk.Tier {
	switch {
	case r == roleText || r == roleRead || r == roleStat || r == roleDir || r == roleMount:
		return risk.Read
	case r == roleWrite || r == roleDelete || r == roleInto:
		return risk.Write // recursive and wholesale deletes are raised by rules and the path policy
	}
	return risk.Execute
}

func (p *program) String() string { return fmt.Sprintf("program %s", p.summary()) }

// id identifies an entry across the two ways packs are compiled (whole, or
// entry by entry when loaded lazily).
func (p *program) id() string { return p.ident }
