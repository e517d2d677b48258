package analysis

import (
	"fmt"
	"iter"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/internal/lazyre"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// Code in a language toolguard does not parse (python -c, node -e, a
// Julia -e, a gdb -ex, a Makefile --eval, a Tcl script fed to tclsh, a
// file the call wrote and then loads) can do anything with what it names.
// It is judged by what it holds: the paths it names, read, written or
// deleted as the code reads, writes or deletes (the home directory however
// spelled); fork loops, fetching and running code, secrets sent out and
// whole data stores dropped; the addresses it names; and the shell
// commands it embeds (os.execute("…"), .system …, shell …), analysed as
// shell.

// code judges interpreter code (python -c, node -e, a script the call
// wrote) by what it does, whatever it is called: files named in it are
// read (a denied one is denied), written when the code writes files,
// deleted when it deletes (the home directory however spelled); code that
// fetches and evaluates, forks in a loop, or sends a secret variable to the
// network is critical; URLs in it are judged as the call's.
func (a *Analysis) code(cmd *shell.Command, code string, span risk.Span, dir string) {
	if !a.spend(inlineCost(len(code))) {
		return
	}
	h := codeMarkers().scan(code)
	lits := quotedPaths(pathText(cmd, code))
	access := paths.Read
	switch {
	case h.has(mDelete):
		access = paths.Delete
	case h.has(mWrite):
		access = paths.Write
	}
	removes := access == paths.Delete
	var written []shell.Word                                               // the files code that writes may write
	joins := append(homeJoins(code), homeTemplates(code, h.has(mHome))...) // path.join(os.homedir(), ".ssh", "id_rsa"), f"{home}/.ssh"
	joins = append(joins, homeMethodJoins(code)...)                        // home_dir().unwrap().join(".ssh")
	joins = append(joins, homeVarParts(code)...)                           // `${homedir()}/${p}` with grab(".npmrc")
	for _, p := range lits {
		if a.imported && (joinedBelow(p.text, joins) || p.text == "~" && homeJoinedLit(lits)) {
			continue // os.path.join(os.path.expanduser('~'), '.cache'): the "~" is where the joined path starts
		}
		switch {
		case p.joined && p.home: // os.homedir() + "/.ssh/id_rsa"
			p.text = "~" + p.text
		case p.joined: // __DIR__ . '/../var/cache': the end of a path whose start is not known
			a.judge.Path(Path{Word: shell.Word{Value: p.text, Known: true}, Access: access, Shape: Mention, Dir: dir})
			continue
		}
		a.judge.Path(Path{Word: shell.Word{Value: p.text, Known: true}, Access: access, Shape: File, Dir: dir, Removes: removes})
		written = append(written, shell.Word{Value: p.text, Known: true})
	}
	for _, p := range joins {
		a.judge.Path(Path{Word: shell.Word{Value: p, Known: true}, Access: access, Shape: File, Dir: dir, Removes: removes})
		written = append(written, shell.Word{Value: p, Known: true})
	}
	if h.has(mWrite) && len(written) > 0 {
		// What code writes is among its string literals: a file a shell or a
		// service runs by itself (~/.bashrc) is judged by the commands they
		// hold, as echo '…' >> ~/.bashrc is.
		// Their escapes are decoded: f.write("\ncurl … | sh\n") appends a
		// line of its own, not a word "ncurl".
		lits := stringLiterals(code)
		for i, l := range lits {
			lits[i] = unescapeLiteral(l)
		}
		a.judge.Write(Write{Cmd: cmd, Text: strings.Join(lits, "\n"), Targets: written})
	}
	if access == paths.Delete && (!a.imported && h.has(mHome) || a.imported && deletesHome(code)) {
		a.judge.Path(Path{Word: shell.Word{Value: a.ctx.Home, Known: true}, Access: paths.Delete, Shape: File, Dir: dir, Removes: true})
	}
	if forkLoopIn(&h) {
		a.add(forkBombFinding(span, Shorten(code)))
	}
	if m := h.first(mDataDrop); m != "" {
		a.add(risk.Finding{Rule: "effects.data-drop", Category: risk.CatDBDrop, Tier: risk.Destructive,
			Blast: risk.BlastHigh, Span: span, Subject: Shorten(code),
			Reason:     fmt.Sprintf("The code calls %s, which deletes a whole index, collection, table, bucket or queue of a database or service.", strings.TrimSuffix(m, "(")),
			Suggestion: "ask before deleting stored data; delete specific records, or copy the data first"})
	}
	network := h.has(mNetwork)
	if (network || h.has(mSocket)) && h.has(mNetShell) {
		a.add(Critical("effects.network-shell", risk.CatReverseShell, span, Shorten(code),
			"The code opens a network connection and starts a shell: a remote shell.",
			"run the commands you need directly"))
	} else if (network && evaluates(code, &h) || importsURL(code)) && !goSource(cmd) {
		a.add(Critical("effects.download-eval", risk.CatRemoteCode, span, Shorten(code),
			"The code fetches code from the network and runs it: code from the internet runs unreviewed.",
			"download, review, then run in separate steps with a person watching"))
	}
	if spawns(cmd, &h) {
		d := droppedRun(code, network)
		if !a.spend(ScanCost(d.Read)) {
			return // over the work limit: the caller says so once for the call
		}
		if d.File != "" {
			a.add(Critical("effects.download-run", risk.CatRemoteCode, span, Shorten(d.Line),
				fmt.Sprintf("The code downloads %s and then runs it: code from the internet runs unreviewed.", d.File),
				"download, review, then run in separate steps with a person watching"))
		}
	}
	if network {
		if f := homeCredentialFile(lits, joins); f != "" {
			a.add(Critical("effects.secret-to-network", risk.CatExfiltration, span, Shorten(code),
				fmt.Sprintf("The code reads %s, a credential file in the home directory, and reaches the network.", f),
				"pass credentials only to the tool that needs them"))
		}
	}
	if network && (inlineSecretVar(code) != "" && !a.imported || h.has(mEnvDump)) {
		a.add(Critical("effects.secret-to-network", risk.CatExfiltration, span, Shorten(code),
			fmt.Sprintf("The code reads a secret from the environment (%s) and reaches the network.", cmpOr(inlineSecretVar(code), "the whole environment")),
			"pass credentials only to the tool that needs them"))
	}
	for _, u := range inlineURLs(code) {
		a.judge.Contact(Contact{URL: u, Span: span})
	}
	a.embedded(cmd, code, span, spawns(cmd, &h))
	a.decoded(cmd, code, span, dir, &h)
}

// homeJoinedLit reports whether one of lits ends a path joined to a home
// expression (os.path.expanduser("~") + "/.lock"): a "~" beside it is
// where that path starts.
func homeJoinedLit(lits []quotedLit) bool {
	for _, l := range lits {
		if l.joined && l.home {
			return true
		}
	}
	return false
}

// deleteHomeCall matches a delete call whose whole argument is the home
// directory, in the spellings of the languages toolguard reads:
// shutil.rmtree(os.path.expanduser("~")), fs.rmSync(os.homedir(), …),
// FileUtils.rm_rf(Dir.home), remove_tree($ENV{HOME}), os.RemoveAll(home)
// with home from os.UserHomeDir is not one (a variable).
var deleteHomeCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:rmtree|rmsync|rmdirsync|rm_rf|rm_r|remove_tree|removeall|rimraf(?:\.sync)?|deleterecursively|remove_dir_all|fs\.rm|fs\.promises\.rm|rmdir)\s*\(\s*(?:str\(\s*)?` +
		`(?:os\.path\.expanduser\(\s*['"]~/?['"]\s*\)|os\.homedir\(\)|(?:pathlib\.)?path\.home\(\)|dir\.home|env\[\s*['"]home['"]\s*\]|\$env\{\s*['"]?home['"]?\s*\}|` +
		`os\.environ\[\s*['"]home['"]\s*\]|os\.environ\.get\(\s*['"]home['"]\s*\)|os\.getenv\(\s*['"]home['"]\s*\)|process\.env\.home|process\.env\[\s*['"]home['"]\s*\]|` +
		`os\.getenv\("home"\)|deno\.env\.get\(\s*['"]home['"]\s*\)|['"]~/?['"])\s*\)?\s*[,)]`)
})

// deletesHome reports whether a line of code deletes the home directory
// itself (deleteHomeCall): on a line of an imported module, a delete and a
// home expression are the home's delete only so, not when the line
// deletes a path it builds below the home.
func deletesHome(line string) bool { return deleteHomeCall().MatchString(line) }

// joinedBelow reports whether the literal text is "~" or a home path that
// one of joins (home paths a line builds) lies below.
func joinedBelow(text string, joins []string) bool {
	for _, j := range joins {
		if j != text && (text == "~" && strings.HasPrefix(j, "~/") || strings.HasPrefix(j, strings.TrimSuffix(text, "/")+"/")) {
			return true
		}
	}
	return false
}

// homeCredentialFile returns the first path code names in the home
// directory (~/…, or a literal joined to a home expression:
// getenv('HOME').'/.config/composer/auth.json') whose file name says it
// holds a credential (auth, token, key, secret, password, …); "" for none.
func homeCredentialFile(lits []quotedLit, joins []string) string {
	names := joins
	for _, p := range lits {
		switch {
		case p.joined && p.home:
			names = append(names, "~"+p.text)
		case !p.joined && strings.HasPrefix(p.text, "~/"):
			names = append(names, p.text)
		}
	}
	for _, n := range names {
		if strings.HasPrefix(n, "~/") && containsSecretWord(path.Base(n)) {
			return n
		}
	}
	return ""
}

// spawns reports whether code starts programs, as its markers say. In
// JavaScript and TypeScript a backquote opens a template literal, not a
// command as in Ruby, Perl or the shell: node's code with no other marker
// starts none.
func spawns(cmd *shell.Command, h *markerHits) bool {
	if cmd != nil && jsRuntime(cmd.Name) {
		return h.hasBut(mSpawn, "`")
	}
	return h.has(mSpawn)
}

// goSource reports code that go run builds (its own files, or a
// //go:generate line's): Go has no eval, and its spellings of the eval
// markers are ordinary calls (regexp.MustCompile, config.Load), so
// fetching and running code is found by the commands it starts instead.
func goSource(cmd *shell.Command) bool { return cmd != nil && cmd.Name == "go" }

// jsRuntime reports the programs that run JavaScript or TypeScript.
func jsRuntime(name string) bool {
	switch name {
	case "node", "nodejs", "deno", "bun", "tsx", "ts-node":
		return true
	}
	return false
}

var (
	inlineDeleteMarkers = []string{"rmtree", "os.remove", "os.unlink", "os.rmdir", "removedirs", ".unlink(", ".rmdir(",
		"rmsync", "rmdirsync", "unlinksync", "fs.rm(", "fs.rmdir(", "fs.unlink(", "fs.promises.rm", "rimraf",
		"fileutils.rm", "fileutils.remove", "file.delete", "dir.delete", "unlink(", "unlink ", "rmdir(", "remove_tree",
		"rmtree(", "deno.remove", "truncate(", "os.truncate", "shutil.move", "os.rename", "fs.renamesync", "file.rename",
		"remove-item", "rm -r", "rd /s", "rmdir /s", "del /s", "delete-directory", "rm(", "file.rm", "rm_rf",
		"remove_dir", "remove_file(", "removeitem(at", // Rust's std::fs, Swift's FileManager (not localStorage.removeItem)
		"removeall(", // Go's os.RemoveAll
		// the JVM's and .NET's: Kotlin, Groovy, java.nio, commons-io, System.IO
		"deleterecursively", "deletedir(", "files.delete", "deletedirectory", "directory.delete(", "forcedelete", "cleandirectory"}
	// inlineDataDropMarkers are SDK calls that delete a whole index,
	// collection, table, bucket or queue of a database or hosted service.
	inlineDataDropMarkers = []string{"deleteindex(", "delete_index(", "clearobjects(", "clear_objects(",
		"dropdatabase(", "drop_database(", "dropcollection(", "drop_collection(", ".drop()", "deletemany({})",
		"delete_many({})", "flushall(", "flushdb(", "deletetable(", "delete_table(", "droptable(", "drop_table(",
		"purgequeue(", "purge_queue(", "deletebucket(", "delete_bucket(", "deleteindices(", "indices.delete(",
		"truncatetable(", "truncate_table(", "deleteallobjects(", "delete_all_objects("}
	inlineWriteMarkers = []string{"open(", "writefile", "write_text", "write_bytes", "file_put_contents", "fs.write",
		"appendfile", "file.write", "io.write", "fopen(", "chmod(", "shutil.copy", "os.replace", "symlink", "copyfile",
		"createwritestream", "file.open", "print {", ">>", "syswrite"}
	inlineNetworkMarkers = []string{"urlopen", "urllib", "requests.", "http.get", "https.get", "http.request",
		"https.request", "fetch(", "lwp", "get(\"http", "get('http", "uri.open", "open-uri", "net::http", "net/http",
		"file_get_contents(\"http", "file_get_contents('http", "curl_exec", "httpx", "socket", "xmlhttprequest",
		"axios", "aiohttp", "http.client", "httplib", "io::socket", "tcpsocket", "fsockopen", "deno.connect",
		"tcpstream", "reqwest", "ureq::", "httpoison", ":httpc", "urlsession", "urlrequest", // Rust, Elixir, Swift
		// the JVM's and .NET's clients
		// (not url("https://…") or uri(…): Gradle and Maven declare repositories so)
		"httpclient", "openconnection", "java.net.url", "new url(", "okhttp", "webclient", "httpwebrequest"}
	inlineEvalMarkers = []string{"exec(", "eval(", "eval ", "execfile", "compile(", "new function", "vm.run",
		"instance_eval", "module_eval", "then(eval", "load(", "require(", "import(", "code.eval_string",
		"evaluate(", "groovyshell", "scriptengine"}
	inlineEnvDumpMarkers = []string{"dict(os.environ", "os.environ.copy", "os.environ)", "json.stringify(process.env",
		"process.env)", "%env", "env.to_h", "environ.items", "os.environ.items", "system.getenv()", "getenvironmentvariables("}
)

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

var secretVarRE = lazyre.Regexp{
	Expr: `(?:environ(?:\.get)?\s*[\[(]\s*|getenv\s*\(\s*|process\.env\.|process\.env\[\s*|ENV\[\s*|\$ENV\{\s*|System\.env\.|System\.env\[\s*|GetEnvironmentVariable\s*\(\s*)['"]?([A-Za-z_][A-Za-z0-9_]*)`,
}

// inlineSecretVar returns the first secret-named environment variable the
// code reads ("" when none).
func inlineSecretVar(code string) string {
	for _, m := range secretVarMatches(code) {
		if risk.IsSecretName(m[1]) {
			return m[1]
		}
	}
	return ""
}

// secretVarStarts are the texts a match of secretVarRE starts with: the
// expression has no literal prefix, so it would be tried at every byte.
var secretVarStarts = [...]string{"environ", "getenv", "process.env", "ENV[", "$ENV{", "System.env", "GetEnvironmentVariable"}

// secretVarMatches is secretVarRE's FindAllStringSubmatch(code, -1), the
// expression run from the first place a match can start (none: no match).
// The expression has no anchors or word boundaries, so the text before
// that place changes none of its matches.
func secretVarMatches(code string) [][]string {
	from := -1
	for _, s := range secretVarStarts {
		if i := strings.Index(code, s); i >= 0 && (from < 0 || i < from) {
			from = i
		}
	}
	if from < 0 {
		return nil
	}
	return secretVarRE.Get().FindAllStringSubmatch(code[from:], -1)
}

var urlRE = lazyre.Regexp{Expr: `https?://[^\s'"<>()\x60]+`}

func inlineURLs(code string) []string { return urlRE.Get().FindAllString(code, -1) }

// forkLoop reports code that forks inside a loop with no bound: os.fork()
// in while True, fork while fork, loop { fork }, for(;;) fork().
func forkLoop(code string) bool {
	c := strings.ToLower(code)
	return containsAny(c, forkMarkers) && (containsAny(c, forkPairMarkers) || containsAny(c, loopMarkers))
}

// forkLoopIn is forkLoop of the text whose markers h holds.
func forkLoopIn(h *markerHits) bool {
	return h.has(mFork) && (h.has(mForkPair) || h.has(mLoop))
}

// firstMarker returns the first marker that text contains, or "".
func firstMarker(text string, markers []string) string {
	for _, m := range markers {
		if strings.Contains(text, m) {
			return m
		}
	}
	return ""
}

// quotedLit is a string literal of code that is a path.
type quotedLit struct {
	text string
	// joined is true when the literal is joined to what comes before it
	// (__DIR__ . '/../var/cache', os.homedir() + "/.ssh/id_rsa"): it ends
	// a path whose start is known only when the code runs; home is true
	// when that start is the home directory (os.homedir() + "/.ssh").
	joined, home bool
}

// homeExprMarkers are spellings, in lower case, of the home directory in
// code, which a path literal joined to them continues.
var homeExprMarkers = []string{"homedir()", ".home()", "expanduser(", `"home"`, "'home'", "env.home", "$home",
	"{home}", "home_dir", "user.home"}

// quotedPaths returns the string literals of code that are absolute or
// home-relative paths.
func quotedPaths(code string) []quotedLit {
	var out []quotedLit
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		end := strings.IndexByte(code[i+1:], q)
		if end < 0 {
			break
		}
		lit := code[i+1 : i+1+end]
		if strings.HasPrefix(lit, "/") || lit == "~" || strings.HasPrefix(lit, "~/") {
			before := strings.TrimRight(code[:i], " \t")
			joined := strings.HasPrefix(lit, "/") && before != "" && strings.ContainsRune(".+", rune(before[len(before)-1]))
			home := false
			if joined {
				expr := before[max(0, len(before)-64):]
				expr = expr[strings.LastIndexByte(expr, '\n')+1:]
				home = containsAny(strings.ToLower(expr), homeExprMarkers)
			}
			out = append(out, quotedLit{lit, joined, home})
		}
		i += end + 1
	}
	return out
}

// codePaths lists the absolute and home-relative paths code names, quoted
// or not, with $HOME, ${HOME}, $(HOME) and ~ spelled out.
func codePaths(code, home string) []string {
	out, _ := codePathParts(code, home, false)
	return out
}

// codePathParts is codePaths that, with split, returns apart the paths
// whose start the code computes (process.cwd()+'/package.json', __DIR__
// . '/cache', escaped quotes and all: a path written inside a string the
// code writes): the end of a path whose start is not known, not an
// absolute path. One joined to a home directory expression stays whole,
// as ~/….
func codePathParts(code, home string, split bool) (paths, joined []string) {
	if home != "" {
		if strings.ContainsAny(code, "$%") { // every spelling homeRefs replaces starts with one of these
			code = homeRefs().Replace(code)
		}
		code = strings.ReplaceAll(code, "\x00HOME\x00", home)
	}
	var out []string
	for start, end := range pathTokens(code) {
		if start > 0 && code[start-1] == ':' && strings.HasPrefix(code[start:], "//") && !strings.HasPrefix(code[start:], "///") {
			continue // the host and path of a URL (https://host/p), judged as the URL it is; file:///p stays a path
		}
		m := strings.TrimRight(code[start:end], ".,;:)]}")
		if operatorNotPath(code, start, m) {
			continue
		}
		if m == "/" || m == "~" || len(m) > 1 {
			if split && strings.HasPrefix(m, "/") {
				switch j, h := joinedAt(code, start); {
				case j && h:
					m = "~" + m
				case j:
					joined = append(joined, m)
					continue
				}
			}
			out = append(out, m)
		}
	}
	return out, joined
}

// joinedAt reports whether the path token at start continues an
// expression: a quote (escaped or not) right after + or . whose left
// operand is no string literal (” + '/etc/x' is the path /etc/x); home
// when that operand names the home directory.
func joinedAt(code string, start int) (joined, home bool) {
	i := start - 1
	if i < 0 || !strings.ContainsRune("'\"`", rune(code[i])) {
		return false, false
	}
	i--
	if i >= 0 && code[i] == '\\' {
		i--
	}
	for i >= 0 && (code[i] == ' ' || code[i] == '\t') {
		i--
	}
	if i < 0 || code[i] != '+' && code[i] != '.' {
		return false, false
	}
	i--
	for i >= 0 && (code[i] == ' ' || code[i] == '\t') {
		i--
	}
	if i < 0 || strings.ContainsRune("'\"`", rune(code[i])) {
		return false, false
	}
	expr := code[max(0, i-63) : i+1]
	expr = expr[strings.LastIndexByte(expr, '\n')+1:]
	return true, containsAny(strings.ToLower(expr), homeExprMarkers)
}

// pathTokens yields the start and end of each path-like token of code: "/"
// or "~" followed by path characters, at the start of the text or after a
// character that starts a word (white space, a quote, = ( , < > { [ :).
// It finds what the expression `(?:^|[\s'"=(,<>{\[:])((?:~|/)[A-Za-z0-9_.\-/~*?]*)`
// finds (its group), in one pass over the bytes without backtracking;
// TestPathTokensExpression and FuzzPathTokens compare the two.
func pathTokens(code string) func(yield func(int, int) bool) {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(code); i++ {
			if c := code[i]; c != '/' && c != '~' || i > 0 && !pathTokenStarts[code[i-1]] {
				continue
			}
			j := i + 1
			for j < len(code) && pathTokenChars[code[j]] {
				j++
			}
			if !yield(i, j) {
				return
			}
			i = j // code[j] is no path character, so no token starts there
		}
	}
}

// pathTokenStarts are the bytes after which a path token can start;
// pathTokenChars the bytes a path token goes on with. All are ASCII, so a
// byte of a multi-byte (or invalid) sequence is neither, as a rune is for
// the expression.
var pathTokenStarts, pathTokenChars = byteSet("\t\n\f\r '\"=(,<>{[:"),
	byteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-/~*?")

// byteSet returns the set of the bytes of s.
func byteSet(s string) (set [256]bool) {
	for i := 0; i < len(s); i++ {
		set[s[i]] = true
	}
	return set
}

// operatorNotPath reports whether the token m found at code[start:] is
// code rather than a path, outside quotes: ~name is the bitwise-not
// operator of Python, JavaScript, Ruby, Perl or C (q_not = ~q1), and /*
// or /** opens a comment in SQL, C, JavaScript, Java, Go, PHP or Rust
// (MySQL's executable /*!50000 … */ included) when a */ closes it later,
// never the root's entries.
func operatorNotPath(code string, start int, m string) bool {
	quoted := start > 0 && (code[start-1] == '"' || code[start-1] == '\'' || code[start-1] == '`')
	if quoted || len(m) < 2 {
		return false
	}
	switch {
	case m[0] == '~':
		return m[1] != '/'
	case m == "/*" || m == "/**":
		return strings.Contains(code[start+len(m):], "*/") // a comment closes; "rm -rf /*" in a string does not
	}
	return false
}

var (
	homeRefsOnce     sync.Once
	homeRefsReplacer *strings.Replacer
)

// homeRefs replaces the spellings of the home directory in code and
// scripts with a marker. It is built on first use, not at start-up.
func homeRefs() *strings.Replacer {
	homeRefsOnce.Do(func() {
		homeRefsReplacer = strings.NewReplacer("${HOME}", "\x00HOME\x00", "$(HOME)", "\x00HOME\x00", "$HOME", "\x00HOME\x00",
			"%USERPROFILE%", "\x00HOME\x00", "$env:HOME", "\x00HOME\x00", "$env:USERPROFILE", "\x00HOME\x00")
	})
	return homeRefsReplacer
}

// embeddedCommandsSpawn returns the shell commands code carries: string
// literals given to a process-spawning call (system("…"), callCommand
// "…", os.execute('…'), exec.Command…), looked for when spawns is true
// (code that contains one of spawnMarkers, in any case), and lines of
// command languages that run the rest of the line (".system …",
// "shell …", "!…", ":!…").
func embeddedCommandsSpawn(code string, spawns bool) []string {
	var out []string
	for line := range strings.SplitSeq(code, "\n") {
		l := strings.TrimSpace(line)
		for _, p := range []string{":!", "!", ".system ", ".shell ", "shell ", ":shell ", "!!"} {
			if rest, ok := strings.CutPrefix(l, p); ok && strings.TrimSpace(rest) != "" {
				out = append(out, strings.TrimSpace(rest))
				break
			}
		}
	}
	if mayHoldKeyedCommand(code) {
		for _, m := range keyedCommandRE.Get().FindAllStringSubmatch(code, -1) {
			out = append(out, cmpOr(m[1], m[2])) // shell: "…" in a playbook, run: '…' in a workflow
		}
	}
	if mayHoldBareSpawn(code) {
		for _, m := range bareSpawnRE.Get().FindAllStringSubmatch(code, -1) {
			out = append(out, strings.TrimSpace(m[1])) // Tcl's [exec rm -rf ~], an unquoted system …
		}
	}
	if !spawns {
		return out
	}
	out = append(out, argListCommands(code)...)
	for _, lit := range stringLiterals(code) {
		if strings.ContainsAny(lit, " \t") || strings.HasPrefix(lit, "/") {
			out = append(out, lit)
		}
	}
	return out
}

// keyedCommandRE finds commands given as quoted values of the keys
// configuration formats use for them (Ansible's shell and command, CI
// files' run and script, systemd's ExecStart…).
var keyedCommandRE = lazyre.Regexp{
	Expr: `(?i)\b(?:shell|command|cmd|run|script|execstart(?:pre|post)?|execstop)\s*[:=]\s*(?:"([^"\n]+)"|'([^'\n]+)')`,
}

// bareSpawnRE finds commands written unquoted after a spawning word, up to
// the bracket, parenthesis, newline or semicolon that ends them ([exec cmd
// args] in Tcl).
var bareSpawnRE = lazyre.Regexp{
	Expr: `(?i)(?:^|[\[\s;])(?:exec|system|spawn)\s+([^\]\)\n;'"\x60(]+)`,
}

// argListRE finds a program and its arguments written as a list
// (Gradle's commandLine 'rm', '-rf', System.getProperty('user.home'), new
// ProcessBuilder("sh", "-c", "…"), listOf(…), arrayOf(…), nox's
// session.run("rm", "-rf", os.path.expanduser("~"), external=True)):
// literals, calls that read a system property or an environment variable
// by a literal name, Python's Path.home() and os.environ["NAME"], each
// maybe in str(…).
var (
	argListRE = lazyre.Regexp{
		Expr: `(?i)\b(?:commandline|processbuilder|arrayof|listof|args|exec|` +
			`run|run_always|run_install|create_subprocess_exec|call|check_call|check_output|popen|spawn|spawnsync|execfile|execfilesync|execv|execvp|command)` +
			`\s*[(\[\s]\s*\[?\s*((?:` +
			`(?:"[^"\n]*"|'[^'\n]*'|` +
			`str\(\s*(?:[\w.]+\(\s*["'][\w.~]+["']\s*\)|[\w.]*path\.home\(\)|[\w.]*environ\[\s*["']\w+["']\s*\])\s*\)|` +
			`[\w.]+\(\s*["'][\w.~]+["']\s*\)|[\w.]*path\.home\(\)|[\w.]*environ\[\s*["']\w+["']\s*\]|System\.env\.\w+)` +
			`\s*,\s*\[?\s*)+` +
			`(?:"[^"\n]*"|'[^'\n]*'|` +
			`str\(\s*(?:[\w.]+\(\s*["'][\w.~]+["']\s*\)|[\w.]*path\.home\(\)|[\w.]*environ\[\s*["']\w+["']\s*\])\s*\)|` +
			`[\w.]+\(\s*["'][\w.~]+["']\s*\)|[\w.]*path\.home\(\)|[\w.]*environ\[\s*["']\w+["']\s*\]|System\.env\.\w+)` +
			`)`,
	}
	// argElemRE is one element of such a list (the same expression as in
	// argListRE, which lazyre's test needs written out as literals).
	argElemRE = lazyre.Regexp{Expr: `(?i)(?:"[^"\n]*"|'[^'\n]*'|` +
		`str\(\s*(?:[\w.]+\(\s*["'][\w.~]+["']\s*\)|[\w.]*path\.home\(\)|[\w.]*environ\[\s*["']\w+["']\s*\])\s*\)|` +
		`[\w.]+\(\s*["'][\w.~]+["']\s*\)|[\w.]*path\.home\(\)|[\w.]*environ\[\s*["']\w+["']\s*\]|System\.env\.\w+)`}
)

// argListAtRE is argListRE anchored at the start of the text: it is run
// only where argListMayStart says a match can start.
var argListAtRE = lazyre.Regexp{Expr: `^(?:` + argListRE.Expr + `)`}

// argListStarts are the words, in lower case, one of which begins every
// match of argListRE (each of its call names begins with one).
var argListStarts = [...]string{"command", "processbuilder", "arrayof", "listof", "args", "exec", "run", "call",
	"check_", "popen", "spawn", "create_subprocess_exec"}

// argListMayStart reports whether a match of argListRE can start at
// code[s:] (ASCII text): a word boundary there (the expression's \b,
// before a letter), and one of argListStarts, in any case.
func argListMayStart(code string, s int) bool {
	if s > 0 && isWordByte(code[s-1]) {
		return false
	}
	switch code[s] | 0x20 {
	case 'c', 'p', 'a', 'l', 'e', 'r', 's':
	default:
		return false
	}
	for _, w := range argListStarts {
		if len(code)-s >= len(w) && strings.EqualFold(code[s:s+len(w)], w) {
			return true
		}
	}
	return false
}

// argListMatches is argListRE.FindAllStringSubmatch(code, -1), run
// anchored where argListMayStart lets a match start (anchoredMatches; a
// match is never empty: it holds a call name).
// TestArgListMatchesAsExpression checks it against the expression.
func argListMatches(code string) [][]string {
	return anchoredMatches(code, &argListRE, &argListAtRE, -1, argListMayStart)
}

// argListCommands are the lists argListRE finds, as shell commands: each
// literal a word, a read of the home directory ${HOME}, of an environment
// variable or another property the variable of its name.
func argListCommands(code string) []string {
	if !strings.Contains(code, ",") || !argListRE.MayMatch(code) {
		return nil
	}
	var out []string
	for _, m := range argListMatches(code) {
		out = append(out, argListCommand(m[1]))
	}
	return out
}

// argListCommand is the shell command of the elements of one list.
func argListCommand(list string) string {
	var words []string
	for _, e := range argElemRE.Get().FindAllString(list, -1) {
		words = append(words, argWord(e))
	}
	return strings.Join(words, " ")
}

// argListLine is the line of code holding the argument list whose shell
// command is text; "" when none is.
func argListLine(code, text string) string {
	for m := range argListIndexes(code) {
		if argListCommand(code[m[2]:m[3]]) == text {
			_, line := lineAt(code, m[0])
			return line
		}
	}
	return ""
}

// argListIndexes yields what argListRE.FindAllStringSubmatchIndex(code,
// -1) returns, run anchored on ASCII text as argListMatches is.
// TestArgListMatchesAsExpression checks it against the expression.
func argListIndexes(code string) iter.Seq[[]int] {
	if !isASCII(code) { // see anchoredMatches
		return slices.Values(argListRE.Get().FindAllStringSubmatchIndex(code, -1))
	}
	return anchoredIndexes(code, &argListAtRE, -1, argListMayStart)
}

// argWord is one element of an argument list as a shell word: a literal
// quoted, the home directory (expanduser("~"), user.home, Path.home())
// "${HOME}", an environment variable or property (os.getenv("X"),
// os.environ["X"], System.env.X) "${X}"; str(…) is what it converts.
func argWord(e string) string {
	if e[0] == '"' || e[0] == '\'' {
		return "'" + strings.ReplaceAll(e[1:len(e)-1], "'", `'\''`) + "'"
	}
	if inner, ok := strings.CutPrefix(e, "str("); ok {
		e = strings.TrimSpace(strings.TrimSuffix(inner, ")"))
	}
	if len(e) >= len("path.home()") && strings.EqualFold(e[len(e)-len("path.home()"):], "path.home()") {
		return `"${HOME}"`
	}
	name := e[strings.LastIndexAny(e, ".(")+1:]
	if i := strings.IndexAny(e, "\"'"); i >= 0 {
		name = strings.Trim(e[i:], "\"') \t]")
	}
	if strings.EqualFold(name, "user.home") || name == "~" { // expanduser("~")
		name = "HOME"
	}
	return `"${` + strings.NewReplacer(".", "_", "-", "_").Replace(name) + `}"`
}

// spawnMarkers are the calls through which code starts a program or a
// shell command, across languages.
var spawnMarkers = []string{"system(", "system ", "callcommand", "spawn", "popen", "exec(", "exec ", "execute(",
	"os.execute", "io.popen", "subprocess", "child_process", "processbuilder", "runtime.getruntime", "shell(",
	"run-shell-command", "start-process", "invoke-expression", "iex ", "`", "process.start", "exec.command",
	"readprocess", "callprocess", "run(`", "cmd /c", "sh -c", "bash -c", "/bin/sh", "/bin/bash", "shell_exec",
	"passthru", "proc_open", "%x", "qx",
	"command::new(", "system.cmd(", "system.shell(", ":os.cmd(", "process()", "launchpath", "executableurl", "nstask", // Rust, Elixir, Swift
	// Gradle's exec and Exec tasks (commandLine 'sh', '-c', …), .NET's ProcessStartInfo
	"commandline", "processstartinfo",
	// a noxfile: nox's session.run("rm", "-rf", …) starts its argument list
	"nox.session", "from nox import"}

// stringLiterals returns the contents of the single-, double- and
// backquoted literals of code (escapes kept as written).
// unescapeLiteral decodes the escapes of a string literal's body that
// every language the code analysis reads shares (\n, \t, \r, \\, \", \');
// others are left as they are.
func unescapeLiteral(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '"', '\'':
			b.WriteByte(s[i+1])
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i+1])
		}
		i++
	}
	return b.String()
}

func stringLiterals(code string) []string {
	var out []string
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(code) && code[j] != q {
			if code[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(code) {
			break
		}
		out = append(out, code[i+1:j])
		i = j
	}
	return out
}
