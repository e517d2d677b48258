package analysis

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/internal/lazyre"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// This file finds the effects of command shapes that depend on more than
// one word and that the effect model alone cannot state: what find
// -delete and git clean remove, which directory a local web server
// exposes, what go install writes, which files Codex's apply_patch
// heredoc writes, and what text a command writes into files.

// shapes runs the checks of this file for one local command.
func (a *Analysis) shapes(cmd *shell.Command, dir string) {
	switch cmd.Name {
	case "find":
		a.findDelete(cmd, dir)
	case "git":
		a.gitClean(cmd, dir)
	case "go":
		a.goInstall(cmd)
	case "apply_patch", "applypatch":
		a.applyPatchHeredoc(cmd, dir)
	}
	a.directoryServer(cmd, dir)
	a.writes(cmd)
}

// findDelete judges find … -delete as the delete of the paths find visits,
// as find … -exec rm {} + is: find ~ -delete is rm -rf ~/*; find . -name
// '*.pyc' -delete removes only those files; an inexact expression (! -name
// x, -name a -o …) some part of the tree, a path not known.
func (a *Analysis) findDelete(cmd *shell.Command, dir string) {
	if !shell.FindActs(cmd.Args(), "-delete") {
		return
	}
	set := shell.FindSet(cmd.Args())
	if !set.Known { // as rm's operand from find -exec rm {} + is judged
		a.add(unknownPath(cmd, rules.PathRef{Word: set}, paths.Delete))
		a.unknownUnder(set, paths.Delete, dir)
		if set.Walked {
			a.walked(set, paths.Delete, dir) // some files of this walk: what it holds counts
		}
		return
	}
	a.judge.Path(Path{Word: set, Access: paths.Delete, Shape: Glob, Dir: dir})
	a.walked(set, paths.Delete, dir)
}

// gitClean judges git clean -f in a work tree that is a home directory, the
// root or a system directory: with everything untracked there (git init
// first, or --work-tree=~), it removes all of it. In a project, git clean
// removes build output and is judged by the rule packs.
func (a *Analysis) gitClean(cmd *shell.Command, dir string) {
	if !slices.ContainsFunc(cmd.Args(), func(w shell.Word) bool { return w.Value == "clean" }) {
		return // no clean sub-command: the values are not needed
	}
	args := cmd.ArgValues()
	worktree, sub, force := dir, "", false
	for i := 0; i < len(args); i++ {
		v := args[i]
		switch {
		case sub == "" && v == "-C" && i+1 < len(args):
			worktree = joinDir(worktree, args[i+1], a.PathEnv(dir).Cwd)
			i++
		case sub == "" && strings.HasPrefix(v, "--work-tree="):
			worktree = joinDir(worktree, strings.TrimPrefix(v, "--work-tree="), a.PathEnv(dir).Cwd)
		case sub == "" && v == "--work-tree" && i+1 < len(args):
			worktree = joinDir(worktree, args[i+1], a.PathEnv(dir).Cwd)
			i++
		case sub == "" && !strings.HasPrefix(v, "-"):
			sub = v
		case sub == "clean" && (v == "--force" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "f")):
			force = true
		case sub == "clean" && !strings.HasPrefix(v, "-"):
			return // a pathspec: only those paths
		}
	}
	if sub != "clean" || !force {
		return
	}
	env := a.PathEnv(dir)
	cp, err := paths.Canonicalize(cmpOr(worktree, env.Cwd), env, a.ctx.Home)
	if err != nil {
		return
	}
	if f := DeleteFinding(cp, env, a.ctx.Home); f != nil && f.Rule != "paths.delete-workspace" {
		f.Reason = "git clean -f in " + cp.Resolved + " removes every file git does not track there: " + f.Reason
		a.add(*f)
	}
}

func joinDir(base, d, cwd string) string {
	if path.IsAbs(d) || strings.HasPrefix(d, "~") {
		return d
	}
	return path.Join(cmpOr(base, cwd), d)
}

// goInstall reports go install PKG@VERSION as the install of the program
// it builds.
func (a *Analysis) goInstall(cmd *shell.Command) {
	args := cmd.Args()
	if len(args) == 0 || args[0].Value != "install" {
		return
	}
	bin, known := goBin(cmd)
	if !known {
		a.add(unknownPath(cmd, rules.PathRef{Word: bin}, paths.Write))
		return
	}
	for _, w := range args[1:] {
		v := w.Value
		if strings.HasPrefix(v, "-") {
			continue
		}
		if !a.judge.Install(Install{Cmd: cmd, Word: shell.Word{Value: v, Known: true, Span: cmd.Span}, Name: goBinaryName(v), Bin: bin}) {
			return
		}
	}
}

// goBin is the directory go install puts programs in as the command's own
// variables choose it: GOBIN, else the bin directory of GOPATH's first
// entry; the zero Word for go's default (~/go/bin: the process
// environment's variables are not known here). known is false when a
// variable is set to a value not known before the command runs.
func goBin(cmd *shell.Command) (bin shell.Word, known bool) {
	var gobin, gopath *shell.Word
	for _, as := range [][]shell.Assign{cmd.Env, cmd.Assigns} {
		for i := range as {
			switch as[i].Name {
			case "GOBIN":
				gobin = &as[i].Value
			case "GOPATH":
				gopath = &as[i].Value
			}
		}
	}
	switch {
	case gobin != nil:
		return *gobin, gobin.Known
	case gopath != nil:
		w := *gopath
		first, _, _ := strings.Cut(w.Value, ":")
		w.Value = path.Join(first, "bin")
		return w, w.Known
	}
	return shell.Word{}, true
}

var majorVersion = lazyre.Regexp{Expr: `^v[0-9]+$`}

// goBinaryName is the program go install builds from an import path: its
// last element, or the one before a /vN major-version suffix.
func goBinaryName(pkg string) string {
	pkg, _, _ = strings.Cut(pkg, "@")
	parts := strings.Split(strings.TrimSuffix(pkg, "/"), "/")
	name := parts[len(parts)-1]
	if majorVersion.Get().MatchString(name) && len(parts) > 1 {
		name = parts[len(parts)-2]
	}
	return name
}

// applyPatchHeredoc judges Codex's `apply_patch <<'EOF' … EOF`, which Codex
// applies as a patch instead of running it: as the writes of every file
// the patch adds, updates, moves or deletes.
func (a *Analysis) applyPatchHeredoc(cmd *shell.Command, dir string) {
	if cmd.Stdin == nil {
		return
	}
	if !cmd.Stdin.Known {
		a.add(Unverifiable(shell.Problem{Reason: "the patch given to apply_patch is not known before it runs", Span: cmd.Span}))
		return
	}
	for _, p := range call.PatchPaths(cmd.Stdin.Text) {
		a.judge.Path(Path{Word: shell.Word{Value: p, Known: true}, Access: paths.Write, Shape: File, Dir: dir})
	}
	for _, f := range call.PatchAdded(cmd.Stdin.Text) {
		a.judge.Write(Write{Cmd: cmd, Text: f.Added, Targets: []shell.Word{{Value: f.Path, Known: true}}})
	}
	a.judge.Raise(risk.Write)
}

// directoryServer reports a local web server over a directory (python -m
// http.server, php -S -t, ruby -run -e httpd, busybox httpd, http-server,
// serve): whatever the directory holds can be fetched by anyone who can
// reach the port.
func (a *Analysis) directoryServer(cmd *shell.Command, dir string) {
	cmd = packageRunnerTarget(cmd)
	root, ok := servedDirectory(cmd)
	if !ok {
		return
	}
	addr, public := listensBeyondLoopback(cmd)
	a.judge.Serve(Serve{Cmd: cmd, Root: cmpOr(root, "."), Dir: dir, Addr: addr, Public: public})
}

// isConfiguredWebServer reports whether name is one of the servers whose
// configuration file names the directories they serve.
func isConfiguredWebServer(name string) bool {
	switch name {
	case "nginx", "apache2", "httpd", "apachectl", "apache2ctl", "lighttpd", "caddy":
		return true
	}
	return false
}

// docRootRE finds the document roots a web server configuration names:
// nginx root/alias, Apache DocumentRoot and Alias, lighttpd
// server.document-root, Caddy root * and file_server root.
var docRootRE = lazyre.Regexp{
	Expr: `(?im)(?:^|[;{\s])(?:root|alias|documentroot|server\.document-root\s*=|root\s+\*)\s+(?:/\S*\s+)?["']?(/[^"';\s{}]*|~[^"';\s{}]*)`,
}

// configuredRoots returns the directories a web server configuration
// serves.
func configuredRoots(text string) []string {
	var out []string
	for _, m := range docRootRE.Get().FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// servedByConfig reports a web server started with a configuration the
// call wrote: each directory it serves, reachable by other machines (their
// default).
func (a *Analysis) servedByConfig(cmd *shell.Command, text, dir string) {
	if !isConfiguredWebServer(cmd.Name) {
		return
	}
	for _, root := range configuredRoots(text) {
		a.judge.Serve(Serve{Cmd: cmd, Root: root, Dir: dir, Addr: "the addresses it listens on", Public: true})
	}
}

// isNodeServerValueFlag reports whether a is one of the options of
// http-server, serve and live-server that take the next word as their
// value.
func isNodeServerValueFlag(a string) bool {
	switch a {
	case "-p", "--port", "-a", "--address", "--host", "-c", "-e", "--ext", "-P", "--proxy", "-l", "--listen",
		"-C", "--cert", "-K", "--key", "-t", "--timeout", "-U", "--username", "--password", "--ssl-cert",
		"--ssl-key", "--config", "--entry-file", "--mount", "--open", "--wait", "--ignore", "--watch",
		"--middleware":
		return true
	}
	return false
}

// packageRunnerTarget is the command a package runner starts (npx
// http-server, bunx serve, pnpm dlx live-server), or cmd itself.
func packageRunnerTarget(cmd *shell.Command) *shell.Command {
	argv := cmd.Argv
	switch {
	case cmd.Name == "npx" || cmd.Name == "bunx" || cmd.Name == "pnpx":
		argv = argv[1:]
	case (cmd.Name == "pnpm" || cmd.Name == "yarn") && len(argv) > 1 && argv[1].Value == "dlx":
		argv = argv[2:]
	default:
		return cmd
	}
	for len(argv) > 0 && strings.HasPrefix(argv[0].Value, "-") {
		argv = argv[1:] // -y, --yes, --quiet
	}
	if len(argv) == 0 {
		return cmd
	}
	inner := *cmd
	inner.Argv = argv
	inner.Name = path.Base(argv[0].Value)
	return &inner
}

// listensBeyondLoopback reports the address a one-line web server listens
// on and whether other machines can reach it: an address that is not
// loopback, or none given where the server's default is every interface
// (python -m http.server, busybox httpd, ruby httpd, http-server,
// live-server, serve).
func listensBeyondLoopback(cmd *shell.Command) (string, bool) {
	args := cmd.ArgValues()
	addr := "all interfaces"
	switch {
	case strings.HasPrefix(cmd.Name, "python"):
		addr = cmpOr(flagValue(args, "--bind", "-b"), addr)
	case strings.HasPrefix(cmd.Name, "php"):
		host, _, _ := strings.Cut(flagValue(args, "-S"), ":")
		addr = host
	case strings.HasPrefix(cmd.Name, "ruby"):
		addr = cmpOr(flagValue(args, "--bind-address"), addr)
	case cmd.Name == "busybox":
		if host, _, ok := strings.Cut(flagValue(args, "-p"), ":"); ok {
			addr = host
		}
	case cmd.Name == "http-server" || cmd.Name == "live-server":
		addr = cmpOr(flagValue(args, "-a", "--address", "--host"), addr)
	case cmd.Name == "serve":
		l := strings.TrimPrefix(flagValue(args, "-l", "--listen"), "tcp://")
		if host, _, ok := strings.Cut(l, ":"); ok || l != "" && !isPort(l) {
			addr = host
		}
	}
	return addr, !isLoopbackHost(addr)
}

// isLoopbackHost reports whether a listen address only this machine reaches.
func isLoopbackHost(h string) bool {
	h = strings.Trim(strings.ToLower(h), "[]")
	return h == "localhost" || h == "::1" || strings.HasPrefix(h, "127.") || h == "ip6-localhost"
}

func isPort(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// servedDirectory recognises the usual one-line web servers and returns
// the directory each serves ("" for the current one).
func servedDirectory(cmd *shell.Command) (string, bool) {
	if !mayServe(cmd.Name) {
		return "", false
	}
	args := cmd.ArgValues()
	switch {
	case isInterpreter(cmd.Name) && strings.HasPrefix(cmd.Name, "python"):
		i := slices.Index(args, "-m")
		if i < 0 || i+1 >= len(args) || args[i+1] != "http.server" && args[i+1] != "SimpleHTTPServer" {
			return "", false
		}
		return cmpOr(flagValue(args, "--directory", "-d"), ""), true
	case strings.HasPrefix(cmd.Name, "php") && slices.Contains(args, "-S"):
		return flagValue(args, "-t"), true
	case strings.HasPrefix(cmd.Name, "ruby") && slices.Contains(args, "httpd"):
		for i, a := range args {
			if a == "httpd" && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				return args[i+1], true
			}
		}
		return "", true
	case cmd.Name == "busybox" && slices.Contains(args, "httpd"):
		return flagValue(args, "-h"), true
	case cmd.Name == "http-server" || cmd.Name == "serve" || cmd.Name == "live-server":
		for i := 0; i < len(args); i++ {
			switch a := args[i]; {
			case isNodeServerValueFlag(a):
				i++
			case !strings.HasPrefix(a, "-"):
				return a, true
			}
		}
		return "", true
	}
	return "", false
}

// writesFile reports whether one of rs writes its target (>, >>, >|).
func writesFile(rs []shell.Redirect) bool {
	for _, r := range rs {
		if r.Op == ">" || r.Op == ">>" || r.Op == ">|" {
			return true
		}
	}
	return false
}

// mayServe reports whether name is one servedDirectory recognises: each of
// its cases needs one of these names.
func mayServe(name string) bool {
	switch name {
	case "busybox", "http-server", "serve", "live-server":
		return true
	}
	return strings.HasPrefix(name, "python") || strings.HasPrefix(name, "php") || strings.HasPrefix(name, "ruby")
}

// writes reports the text a command writes into files when it is known
// before the command runs: echo, printf or cat of a here-document
// redirected with >, >> or >|, and tee of a known input into its operands.
func (a *Analysis) writes(cmd *shell.Command) {
	if cmd.Name != "tee" && !writesFile(cmd.Redirects) {
		return // no target: the text is not needed
	}
	text, ok := shell.Output(cmd)
	if cmd.Name == "tee" && cmd.Stdin != nil {
		text, ok = cmd.Stdin.Text, cmd.Stdin.Known
	}
	if !ok {
		return
	}
	var targets []shell.Word
	for _, r := range cmd.Redirects {
		if r.Op == ">" || r.Op == ">>" || r.Op == ">|" {
			targets = append(targets, r.Target)
		}
	}
	if cmd.Name == "tee" {
		targets = append(targets, cmd.Args()...)
	}
	if len(targets) > 0 {
		a.judge.Write(Write{Cmd: cmd, Text: text, Targets: targets})
	}
}
