package shell

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// special records c and analyses what its particular grammar implies.
func (w *walker) special(c *Command, st *state, cx *ctx) {
	if isShellName(c.Name) || isShellVariable(c.Argv[0]) {
		w.shell(c, st, cx)
		return
	}
	if h := specials()[c.Name]; h != nil {
		h(w, c, st, cx)
		return
	}
	if lang := interpreterLang(c.Name); lang != "" {
		w.interpreter(c, lang, st, cx)
		return
	}
	w.emit(c, cx)
}

// isShellVariable reports a command word such as $SHELL or ${BASH}: not
// static, but its -c code is still worth analysing.
func isShellVariable(w Word) bool {
	return !w.Known && (strings.Contains(w.Value, "SHELL") || strings.Contains(w.Value, "BASH"))
}

type specialFunc func(w *walker, c *Command, st *state, cx *ctx)

var (
	specialsOnce  sync.Once
	specialsTable map[string]specialFunc
)

// specials is built the first time a command is analysed, not at start-up
// (a sync.Once and a variable without an initialiser, because the table
// refers back to the walker).
func specials() map[string]specialFunc {
	specialsOnce.Do(func() { specialsTable = buildSpecials() })
	return specialsTable
}

func buildSpecials() map[string]specialFunc {
	return map[string]specialFunc{
		"eval": (*walker).eval, "su": (*walker).su, "ssh": (*walker).ssh,
		"source": (*walker).source, ".": (*walker).source,
		"docker": (*walker).containerExec, "podman": (*walker).containerExec, "nerdctl": (*walker).containerExec,
		"kubectl": (*walker).kubectlExec, "oc": (*walker).kubectlExec,
		"find": (*walker).find, "script": (*walker).scriptCmd,
		"cd": (*walker).cd, "pushd": (*walker).cd, "popd": (*walker).popd,
		"alias": (*walker).alias, "unalias": (*walker).unalias,
		"read": (*walker).forgetArgs, "mapfile": (*walker).forgetArgs, "readarray": (*walker).forgetArgs,
		"getopts": (*walker).forgetArgs, "unset": (*walker).forgetArgs, "printf": (*walker).printf,
		"set": (*walker).set, "shift": (*walker).shift,
		"test": (*walker).nameTest, "[": (*walker).nameTest, "wait": (*walker).nameTest,
		"trap": (*walker).trap, "at": (*walker).atJob, "batch": (*walker).atJob, "tmux": (*walker).tmux,
		"git": (*walker).gitAlias,
		"npx": (*walker).packageRunner, "bunx": (*walker).packageRunner, "pnpx": (*walker).packageRunner,
		"pnpm": (*walker).packageRunner, "yarn": (*walker).packageRunner, "npm": (*walker).packageRunner,
	}
}

// source runs a file in the current shell; a file that is not static (for
// example source <(curl …)) cannot be analysed.
func (w *walker) source(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	args := c.Args()
	switch {
	case len(args) == 0:
	case !args[0].Known:
		w.codeProblem(c, args[0], c.Name+" runs code from a file that is not static: "+args[0].Value, c.Span)
	case isStdinPath(args[0].Value):
		w.stdinCode(c, st, "", cx)
	}
}

// trap runs its first argument as code when a signal arrives or the shell
// exits.
func (w *walker) trap(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	args := c.Args()
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) < 2 || strings.HasPrefix(args[0].Value, "-") {
		return // trap -p, trap -l, trap - SIG, trap SIG (reset)
	}
	w.nested(c, args[0], nest{origin: "eval", via: "trap", state: st, stdin: true}, cx)
}

// atJob handles at and batch, which run the commands they read on stdin
// (or from -f FILE) later.
func (w *walker) atJob(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	for _, a := range c.Args() {
		if a.Value == "-f" || a.Value == "-l" || a.Value == "-r" || a.Value == "-d" || a.Value == "-c" {
			return // a job file, or a listing/removal
		}
	}
	w.stdinCode(c, st.childEnv(c), "", cx)
}

var dockerExecSpec = &optSpec{
	Short: "ditu:w:e:",
	Long:  []string{"detach", "interactive", "tty", "privileged", "user=", "workdir=", "env=", "env-file=", "detach-keys="},
}

// containerExec analyses "docker exec [opts] CONTAINER CMD…" (and podman,
// nerdctl, "docker container exec").
func (w *walker) containerExec(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	args := c.Args()
	if len(args) > 1 && args[0].Value == "container" {
		args = args[1:]
	}
	if len(args) > 0 && args[0].Value == "run" {
		w.containerRun(c, args[1:], st, cx)
		return
	}
	if len(args) == 0 || args[0].Value != "exec" {
		return
	}
	res := dockerExecSpec.scan(args[1:])
	if res.bad != "" {
		w.badOption(c, c.Name+" exec", res.bad)
		return
	}
	if len(res.rest) < 2 {
		return
	}
	w.runInside(c, res.rest[1:], c.Name+":"+res.rest[0].Value, cx)
}

// kubectlExec analyses "kubectl exec [opts] POD -- CMD…".
func (w *walker) kubectlExec(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	args := c.Args()
	i := slices.IndexFunc(args, func(a Word) bool { return a.Value == "exec" })
	j := slices.IndexFunc(args, func(a Word) bool { return a.Value == "--" })
	if i < 0 || j < i || j+1 >= len(args) {
		return
	}
	pod := ""
	for k := i + 1; k < j; k++ {
		if !strings.HasPrefix(args[k].Value, "-") && !kubectlValueFlag(args[k-1].Value) {
			pod = args[k].Value
			break
		}
	}
	w.runInside(c, args[j+1:], c.Name+":"+pod, cx)
}

func kubectlValueFlag(s string) bool {
	switch s {
	case "-c", "--container", "-n", "--namespace", "--context", "--kubeconfig", "-f", "--filename", "--pod-running-timeout":
		return true
	}
	return false
}

// runInside analyses a command that runs inside a container.
func (w *walker) runInside(c *Command, argv []Word, remote string, cx *ctx) {
	inner := w.derived(c, "container exec", cx)
	inner.Remote = remote
	w.runNestedArgv(inner, argv, w.newState(), cx)
}

// derived starts a command reached through c (find -exec, docker exec, …).
func (w *walker) derived(c *Command, origin string, cx *ctx) *Command {
	return &Command{
		Wrappers:   append(slices.Clip(c.Wrappers), c.Name),
		Privileged: c.Privileged,
		Remote:     c.Remote,
		Origin:     origin,
		Depth:      c.Depth + 1,
		Span:       c.Span,
		Dir:        c.Dir,
		Background: c.Background,
		Redirects:  c.Redirects,
		Stdin:      c.Stdin,
	}
}

func (w *walker) runNestedArgv(c *Command, argv []Word, st *state, cx *ctx) {
	if len(argv) == 0 || !w.depthOK(c.Depth, c.Span) {
		return
	}
	inner := *cx
	inner.leaves = nil
	w.runArgv(c, argv, st, &inner)
}

// find records find itself and every command its -exec/-ok actions run.
func (w *walker) find(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	args := c.Args()
	for i := 0; i < len(args); i++ {
		switch args[i].Value {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		end := i + 1
		for end < len(args) && args[end].Value != ";" && args[end].Value != "+" {
			end++
		}
		if !w.spend(copyCost(4*(end-i)), c.Span) {
			return
		}
		set := findSet(args)
		w.noteWalkedText(args[i+1:end], "{}", set)
		action := fillPlaceholder(args[i+1:end], set)
		w.runNestedArgv(w.derived(c, "find -exec", cx), action, st.childEnv(c), cx)
		i = end
	}
}

// findRoot is the first starting point of a find command ("." when none is
// given): every path find passes to its actions lies below it, or is it.
func findRoot(args []Word) Word {
	for _, a := range args {
		switch {
		case a.Value == "-H" || a.Value == "-L" || a.Value == "-P" || strings.HasPrefix(a.Value, "-O") || strings.HasPrefix(a.Value, "-D"):
			continue
		case strings.HasPrefix(a.Value, "-") || a.Value == "(" || a.Value == "!" || a.Value == ",":
			return Word{Value: ".", Known: true}
		}
		return a
	}
	return Word{Value: ".", Known: true}
}

// FindSet is the glob that stands for the paths a find command with the
// given arguments visits (see findSet); its Known is false when the
// command's tests narrow the paths in a way a glob cannot say.
func FindSet(args []Word) Word { return findSet(args) }

// findSet is the glob that stands for the paths a find command visits:
// ROOT/* when no test narrows them (-type, -maxdepth and the like do not),
// so that `find / -exec rm -rf {} +` is judged as the delete of everything
// under / that it is; ROOT/PATTERN for a lone -name or -iname; and, for
// tests a glob cannot say (-newer, -size, -path, !, -o, a second or
// unknown -name …), ROOT/* or ROOT/PATTERN marked not Known: some
// unknown part of ROOT. The set is Walked (every depth, hidden
// directories too) whenever ROOT is known; an inexact set still names
// the walk it is part of, narrowed by -name only while nothing negates,
// joins or repeats it.
func findSet(args []Word) Word {
	root := findRoot(args)
	set := Word{Value: strings.TrimSuffix(root.Value, "/") + "/*", Known: root.Known, Glob: true, Walked: root.Known, Span: root.Span}
	name := ""      // "*" once a -name is negated, joined, repeated or not known
	depth1 := false // -maxdepth 1: only ROOT's own entries
	deeper := false // another -maxdepth, or one not known
	for i := findExprStart(args); i < len(args); i++ {
		switch v := args[i].Value; v {
		case "-exec", "-execdir", "-ok", "-okdir":
			for i < len(args) && args[i].Value != ";" && args[i].Value != "+" {
				i++
			}
		case "-maxdepth":
			if i+1 < len(args) && args[i+1].Known && args[i+1].Value == "1" {
				depth1 = true
			} else {
				deeper = true
			}
			i++
		case "-type", "-xtype", "-mindepth", "-fstype", "-fprint", "-fprint0", "-fls", "-printf":
			i++
		case "-fprintf":
			i += 2
		case "-depth", "-xdev", "-mount", "-follow", "-print", "-print0", "-ls", "-delete", "-prune", "-quit",
			"-noleaf", "-ignore_readdir_race", "-a", "-and", "(", ")":
		case "-name", "-iname":
			if i+1 >= len(args) || name != "" || !args[i+1].Known || strings.Contains(args[i+1].Value, "/") {
				set.Known, name = false, "*"
			} else if name = args[i+1].Value; v == "-iname" {
				name = foldGlob(name)
			}
			i++
		case "!", "-not", "-o", "-or", ",":
			set.Known, name = false, "*" // a -name may be negated or joined
		default:
			// a test a glob cannot express (-path, -newer, -size…): an
			// unknown part of the walk, still below ROOT
			set.Known = false
			if findTakesValue(v) {
				i++
			}
		}
	}
	if name != "" && name != "*" {
		set.Value = strings.TrimSuffix(root.Value, "/") + "/" + name
		// find ~ -maxdepth 1 -name .bashrc: ROOT's entry of that name, no
		// deeper, which the glob ROOT/NAME names as it is
		set.Walked = set.Walked && !(depth1 && !deeper && set.Known && depth1Glob(name))
	}
	return set
}

// depth1Glob reports whether the glob ROOT/NAME names the entries of ROOT
// that find ROOT -maxdepth 1 -name NAME visits, no fewer: a name without
// glob characters, or one that starts with a "." (which a glob needs to
// match a hidden entry, and find does not).
func depth1Glob(name string) bool {
	return !strings.ContainsAny(name, "*?[\\") || name[0] == '.'
}

// foldGlob is the glob that matches, case-sensitively, what find -iname
// NAME matches: each ASCII letter outside a bracket expression becomes
// the class of its two cases (id_* → [iI][dD]_*); a bracket expression
// gets the other case of each letter it lists. A name that is not plain
// enough to fold exactly (a range, a backslash, a letter outside ASCII)
// is given as *, which matches every name: more than -iname, never less.
func foldGlob(name string) string {
	if strings.IndexByte(name, '\\') >= 0 || !isASCII(name) {
		return "*" // find folds the case of other letters too
	}
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '[':
			end := strings.IndexByte(name[i+1:], ']')
			class := name[i+1 : i+1+max(end, 0)]
			if end <= 0 || strings.IndexByte(class, '-') >= 0 {
				return "*" // unclosed, []…] or a range
			}
			b.WriteByte('[')
			for j := 0; j < len(class); j++ {
				b.WriteByte(class[j])
				if o := otherCase(class[j]); o != 0 {
					b.WriteByte(o)
				}
			}
			b.WriteByte(']')
			i += end + 1
		case otherCase(c) != 0:
			b.WriteByte('[')
			b.WriteByte(c)
			b.WriteByte(otherCase(c))
			b.WriteByte(']')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// otherCase is c's other ASCII case; 0 when c is not a letter.
func otherCase(c byte) byte {
	switch {
	case 'a' <= c && c <= 'z':
		return c - 'a' + 'A'
	case 'A' <= c && c <= 'Z':
		return c - 'A' + 'a'
	}
	return 0
}

// FindActs reports whether find's expression, given its arguments, holds
// the action (such as "-delete") as an expression word: the words of an
// -exec command (up to ";" or "+") and the values of tests (-name -delete
// names a file) are not.
func FindActs(args []Word, action string) bool {
	for i := findExprStart(args); i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == action:
			return true
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			for i+1 < len(args) && args[i+1].Value != ";" && args[i+1].Value != "+" {
				i++
			}
			i++
		case v == "-fprintf":
			i += 2
		case findTakesValue(v):
			i++
		}
	}
	return false
}

// findTakesValue reports whether find's test or action v takes the next word
// as its value.
func findTakesValue(v string) bool {
	switch v {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype",
		"-newer", "-anewer", "-cnewer", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-maxdepth",
		"-mindepth", "-size", "-user", "-group", "-uid", "-gid", "-perm", "-printf", "-fprint", "-fprint0", "-fls",
		"-links", "-inum", "-samefile", "-used", "-fstype", "-context", "-regextype", "-lname", "-ilname",
		"-files0-from":
		return true
	}
	return len(v) == 8 && strings.HasPrefix(v, "-newer") // -newerXY
}

// findExprStart is the index of the first word of find's expression.
func findExprStart(args []Word) int {
	for i, a := range args {
		switch {
		case a.Value == "-H" || a.Value == "-L" || a.Value == "-P" || strings.HasPrefix(a.Value, "-O") || strings.HasPrefix(a.Value, "-D"):
		case strings.HasPrefix(a.Value, "-") || a.Value == "(" || a.Value == "!" || a.Value == ",":
			return i
		}
	}
	return len(args)
}

// fillPlaceholder replaces find's {} in an action with the set of paths it
// stands for (findSet).
func fillPlaceholder(action []Word, set Word) []Word {
	out := make([]Word, len(action))
	for i, a := range action {
		if strings.Contains(a.Value, "{}") {
			// {} alone is each path the walk visits; inside a longer
			// word (f=@{}, {}.bak) it is judged as the glob only.
			a.Walked = a.Value == "{}" && set.Walked
			a.Value = strings.ReplaceAll(a.Value, "{}", set.Value)
			a.Known, a.Glob = a.Known && set.Known, true
		}
		out[i] = a
	}
	return out
}

// script (util-linux) runs -c code under a pseudo-terminal.
func (w *walker) scriptCmd(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	res := (&optSpec{Short: "aeEfqtTB:I:O:m:c:", Long: []string{"append", "command=", "echo=", "return", "flush", "force", "quiet", "timing=", "log-in=", "log-out=", "log-io=", "log-timing=", "logging-format=", "output-limit="}}).scan(c.Args())
	if v, ok := res.get("c", "command"); ok {
		w.nested(c, v, nest{origin: "bash -c", via: "script", state: st.childEnv(c), stdin: true}, cx)
	}
}

// cd changes the directory later commands of the same shell run in, and
// $PWD with it; cd - goes back where the last cd left, pushd does as cd
// and pushes the directory it leaves (dirstack.go).
func (w *walker) cd(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	res := (&optSpec{Short: "LPe@n"}).scan(c.Args())
	prev := st.here()
	if c.Name == "pushd" {
		if len(res.rest) == 0 || res.rest[0].Value == "-n" || !res.rest[0].Known ||
			strings.HasPrefix(res.rest[0].Value, "+") || strings.HasPrefix(res.rest[0].Value, "-") {
			st.goBack(unknownDir) // rotates the stack, or leaves the directory with a name nobody knows
			st.loseDirs()
			return
		}
		st.push(prev)
	}
	if len(res.rest) > 0 && res.rest[0].Value == "-" && res.rest[0].Known && c.Name == "cd" {
		st.goBack(st.previous())
		return
	}
	defer func() { st.old = &prev }()
	var target Word
	switch {
	case len(res.rest) == 0:
		home, ok := w.opts.lookupBase("HOME")
		target = Word{Value: cmpOr(home, "~"), Known: ok, Span: c.Span}
	case res.rest[0].Value == "-" || strings.HasPrefix(res.rest[0].Value, "~") || strings.HasPrefix(res.rest[0].Value, "+"):
		target = res.rest[0]
		target.Known = false
	default:
		target = res.rest[0]
	}
	if pwd, ok := st.lookup("PWD", &w.opts); !st.dirSet && ok && !pwd.isList && path.IsAbs(pwd.str) && target.Known && !path.IsAbs(target.Value) {
		target.Value = path.Join(pwd.str, target.Value)
	}
	st.chdir(target)
	st.set("PWD", value{str: st.dir.Value, known: st.dir.Known && path.IsAbs(st.dir.Value)})
}

// popd returns to the directory the last pushd left.
func (w *walker) popd(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	if len(c.Args()) > 0 { // popd +N, -N, -n: another entry of the stack
		st.goBack(unknownDir)
		st.loseDirs()
		return
	}
	st.goBack(st.pop())
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// alias records alias definitions (alias x='rm -rf'); a definition never
// used in the script is analysed at its end (finishAliases).
func (w *walker) alias(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	for _, a := range c.Args() {
		name, val, ok := strings.Cut(a.Value, "=")
		if !ok || !a.Known {
			continue
		}
		if w.script.Aliases == nil {
			w.script.Aliases = make(map[string]string)
		}
		w.script.Aliases[name] = val
		w.aliasDefs = append(w.aliasDefs, aliasDef{name: name, val: val, c: c, st: w.cloneState(st), cx: *cx})
	}
}

func (w *walker) unalias(c *Command, _ *state, cx *ctx) {
	w.emit(c, cx)
	for _, a := range c.Args() {
		if a.Value == "-a" {
			clear(w.script.Aliases)
		}
		delete(w.script.Aliases, a.Value)
	}
}

// forgetArgs handles read, mapfile, unset, …: every name argument becomes
// unknown.
func (w *walker) forgetArgs(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	w.nameArgs(c, nameOperands(c), st, cx)
	for _, a := range c.Args() {
		if isName(a.Value) {
			st.forget(a.Value)
		}
	}
	if c.Name == "read" || c.Name == "mapfile" || c.Name == "readarray" {
		st.forget("REPLY")
		st.forget("MAPFILE")
	}
	if c.Name == "mapfile" || c.Name == "readarray" {
		if name, lines, ok := mapfileValues(c); ok {
			st.set(name, value{list: lines, isList: true, known: true})
		} else if name, set, ok := mapfileSet(c); ok {
			// not known: judged as the walk and as a path not known
			st.set(name, value{str: set.Value, walked: true})
		}
	}
	if c.Name == "read" && !bindRead(c, st) {
		if names, vals, ok := readValues(c, st); ok {
			for i, n := range names {
				st.set(n, value{str: vals[i], known: true})
			}
		}
	}
}

func (w *walker) printf(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	w.nameArgs(c, nameOperands(c), st, cx)
	args := c.Args()
	for i := 0; i+1 < len(args); i++ {
		if args[i].Value == "-v" {
			st.forget(args[i+1].Value)
			// the value printf would print, when it is known: d=build;
			// printf -v d '%s' ~; rm -rf "$d" deletes the home
			if rest := args[i+2:]; isName(args[i+1].Value) && len(rest) > 0 && allKnown(rest) {
				var vals []string
				for _, a := range rest[1:] {
					vals = append(vals, a.Value)
				}
				if v, ok := formatText(rest[0].Value, vals); ok && len(v) <= w.opts.MaxBytes {
					st.set(args[i+1].Value, value{str: v, known: true})
				}
			}
			break
		}
	}
}

// set -- a b sets the positional parameters.
func (w *walker) set(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	args := c.Args()
	if i := slices.IndexFunc(args, func(a Word) bool { return a.Value == "--" }); i >= 0 {
		st.setPositional(args[i+1:])
	}
}

func (w *walker) shift(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	for _, name := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*", "#"} {
		st.forget(name)
	}
}
