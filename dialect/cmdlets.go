package dialect

import (
	"path"
	"strings"
	"sync"
)

// cmdlet describes a PowerShell cmdlet: its parameters and the POSIX
// text with the same effect.
type cmdlet struct {
	pos       []string // positional parameters, in order
	valued    []string // parameters that take a value
	switches  []string
	aliases   map[string]string // parameter alias → parameter
	translate func(b bound, piped bool) (string, bool)
}

// bound is a command's arguments bound to its parameters (lower-cased).
type bound struct {
	values   map[string][]psArg
	switches map[string]bool
}

func (b bound) has(name string) bool  { return len(b.values[name]) > 0 }
func (b bound) on(name string) bool   { return b.switches[name] }
func (b bound) get(name string) psArg { return b.values[name][0] }

// Parameters every cmdlet takes. -WhatIf is left out: a dry run the
// translation would have to model.
var (
	commonValued   = []string{"ErrorAction", "WarningAction", "InformationAction", "ErrorVariable", "WarningVariable", "InformationVariable", "OutVariable", "OutBuffer", "PipelineVariable", "ProgressAction"}
	commonSwitches = []string{"Verbose", "Debug", "Confirm"}
	commonAliases  = map[string]string{"ea": "erroraction", "wa": "warningaction", "infa": "informationaction",
		"ev": "errorvariable", "wv": "warningvariable", "iv": "informationvariable", "ov": "outvariable",
		"ob": "outbuffer", "pv": "pipelinevariable", "proga": "progressaction", "vb": "verbose", "db": "debug", "cf": "confirm"}
)

// bind binds arguments to the cmdlet's parameters as PowerShell does: a
// parameter name may be shortened to a unique prefix; a value the
// parameters cannot take fails.
func (c *cmdlet) bind(args []psArg) (bound, bool) {
	b := bound{values: map[string][]psArg{}, switches: map[string]bool{}}
	next := 0
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.comma {
			return b, false
		}
		var name string
		var values []psArg
		switch {
		case a.param:
			n, switched, ok := c.resolve(a.lit)
			if !ok {
				return b, false
			}
			if switched {
				on := a.attached == nil || a.attached.isLit && !strings.EqualFold(a.attached.lit, "false") && a.attached.lit != "0"
				b.switches[n] = on
				continue
			}
			name = n
			switch {
			case a.attached != nil:
				values = []psArg{*a.attached}
			case i+1 < len(args) && !args[i+1].param:
				i++
				values = []psArg{args[i]}
			default:
				return b, false
			}
		default:
			for next < len(c.pos) && b.has(strings.ToLower(c.pos[next])) {
				next++
			}
			if next >= len(c.pos) {
				return b, false
			}
			name = strings.ToLower(c.pos[next])
			values = []psArg{a}
		}
		for i+1 < len(args) && args[i+1].comma && !args[i+1].param {
			i++
			values = append(values, args[i])
		}
		if b.has(name) {
			return b, false
		}
		b.values[name] = values
	}
	return b, true
}

// resolve finds the parameter a name or prefix names.
func (c *cmdlet) resolve(given string) (name string, switched, ok bool) {
	g := strings.ToLower(given)
	if n, found := c.aliases[g]; found {
		g = n
	} else if n, found := commonAliases[g]; found {
		g = n
	}
	var hits []string
	var hitSwitch []bool
	try := func(list []string, sw bool) {
		for _, p := range list {
			lp := strings.ToLower(p)
			if lp == g {
				hits, hitSwitch = []string{lp}, []bool{sw}
				return
			}
			if strings.HasPrefix(lp, g) {
				hits = append(hits, lp)
				hitSwitch = append(hitSwitch, sw)
			}
		}
	}
	for _, l := range []struct {
		list []string
		sw   bool
	}{{c.valued, false}, {c.switches, true}, {commonValued, false}, {commonSwitches, true}} {
		try(l.list, l.sw)
		if len(hits) == 1 && hits[0] == g {
			return hits[0], hitSwitch[0], true
		}
	}
	if len(hits) != 1 {
		return "", false, false
	}
	return hits[0], hitSwitch[0], true
}

// translateCmdlet returns the POSIX text of one command: a cmdlet the
// table knows by its effect, a Verb-Noun cmdlet it does not know under
// its own name (unproven), and any other program as PowerShell runs it.
func translateCmdlet(name string, args []psArg, piped bool) (string, bool) {
	lower := strings.ToLower(name)
	if c := cmdlets()[lower]; c != nil {
		if b, ok := c.bind(args); ok {
			if text, ok := c.translate(b, piped); ok {
				return text, true
			}
		}
		if !nativeToo[lower] {
			return "", false
		}
	}
	if providerPath(name) {
		return "", false
	}
	for _, a := range args {
		if a.attached != nil {
			return "", false
		}
	}
	if isVerbNoun(name) {
		return quote(lower) + argText(args), true // unknown cmdlet: a command nothing describes
	}
	return quote(name) + argText(args), true // an external program
}

// nativeToo are aliases that, in PowerShell on Linux and macOS, are the
// system's programs rather than cmdlets: a command that does not bind as
// the cmdlet is the program.
var nativeToo = map[string]bool{"ls": true, "cat": true, "cp": true, "mv": true, "rm": true, "rmdir": true,
	"ps": true, "kill": true, "sort": true, "tee": true, "echo": true, "pwd": true, "cd": true, "mkdir": true,
	"curl": true, "wget": true, "diff": true, "sleep": true, "type": true, "dir": true}

func isVerbNoun(name string) bool {
	verb, noun, ok := strings.Cut(name, "-")
	return ok && verb != "" && noun != "" && isLetter(verb[0]) && isLetter(noun[0])
}

func argText(args []psArg) string {
	if len(args) == 0 {
		return ""
	}
	return " " + joinSh(args)
}

// providerPath reports a path on a PowerShell drive that is not the file
// system (env:, HKLM:, Cert:, Variable:, Function:, Alias:, a Windows
// drive C:).
func providerPath(v string) bool {
	i := strings.IndexByte(v, ':')
	if i <= 0 || strings.Contains(v[:i], "/") || strings.HasPrefix(v[i:], "://") {
		return false
	}
	for _, c := range []byte(v[:i]) {
		if !isLetter(c) {
			return false
		}
	}
	return true
}

// pathWord is a path argument as a shell word: a literal path with its
// backslashes as slashes (PowerShell takes both), anything else as it was
// written. ok is false for a provider path.
func pathWord(a psArg) (string, bool) {
	if !a.isLit {
		return a.sh, !providerPath(a.lit)
	}
	if providerPath(a.lit) {
		return "", false
	}
	if !strings.Contains(a.lit, `\`) {
		return a.sh, true
	}
	return strings.ReplaceAll(a.sh, `\`, "/"), true
}

func pathWords(as []psArg) (string, bool) {
	parts := make([]string, len(as))
	for i, a := range as {
		w, ok := pathWord(a)
		if !ok {
			return "", false
		}
		parts[i] = w
	}
	return strings.Join(parts, " "), true
}

// pathsOf returns the words of the first of the parameters given.
func pathsOf(b bound, names ...string) (string, bool) {
	for _, n := range names {
		if b.has(n) {
			return pathWords(b.values[n])
		}
	}
	return "", false
}

func flag(on bool, f string) string {
	if on {
		return " " + f
	}
	return ""
}

// pure cmdlets only shape the objects that flow through the pipeline.
func pure(b bound, piped bool) (string, bool) {
	for _, vs := range b.values {
		for _, v := range vs {
			if v.inner != "" || !v.isLit && strings.Contains(v.sh, "$(") {
				return "", false // a (…) argument runs commands
			}
		}
	}
	return "cat", true
}

func removeItem(b bound, piped bool) (string, bool) {
	paths, ok := pathsOf(b, "path", "literalpath")
	opts := "-f" + flag(b.on("recurse"), "-r")
	switch {
	case !ok && piped:
		return "xargs rm " + opts + " --", true
	case !ok:
		return "", false
	}
	return "rm " + opts + " -- " + paths, true
}

func getContent(b bound, piped bool) (string, bool) {
	paths, ok := pathsOf(b, "path", "literalpath")
	if !ok {
		return "", false
	}
	return "cat -- " + paths, true
}

// writeContent is Set-Content and Add-Content (append).
func writeContent(appendTo bool) func(b bound, piped bool) (string, bool) {
	return func(b bound, piped bool) (string, bool) {
		paths, ok := pathsOf(b, "path", "literalpath")
		if !ok {
			return "", false
		}
		tee := "tee" + flag(appendTo, "-a") + " -- " + paths + " >/dev/null"
		if b.has("value") {
			return "printf '%s\\n' " + joinSh(b.values["value"]) + " | " + tee, true
		}
		return tee, piped
	}
}

func outFile(b bound, piped bool) (string, bool) {
	paths, ok := pathsOf(b, "filepath", "literalpath")
	if !ok {
		return "", false
	}
	tee := "tee" + flag(b.on("append"), "-a") + " -- " + paths + " >/dev/null"
	if b.has("inputobject") {
		return "printf '%s\\n' " + joinSh(b.values["inputobject"]) + " | " + tee, true
	}
	return tee, true
}

func teeObject(b bound, piped bool) (string, bool) {
	if b.has("variable") {
		return "cat", true
	}
	paths, ok := pathsOf(b, "filepath", "literalpath")
	if !ok {
		return "", false
	}
	return "tee" + flag(b.on("append"), "-a") + " -- " + paths, true
}

// copyMove is Copy-Item (cp) and Move-Item (mv).
func copyMove(prog string) func(b bound, piped bool) (string, bool) {
	return func(b bound, piped bool) (string, bool) {
		src, ok := pathsOf(b, "path", "literalpath")
		if !ok {
			return "", false
		}
		dst := "."
		if b.has("destination") {
			if dst, ok = pathWords(b.values["destination"]); !ok {
				return "", false
			}
		}
		return prog + flag(prog == "cp" && b.on("recurse"), "-r") + " -f -- " + src + " " + dst, true
	}
}

func renameItem(b bound, piped bool) (string, bool) {
	if !b.has("path") || !b.has("newname") {
		return "", false
	}
	src, nn := b.get("path"), b.get("newname")
	if !src.isLit || !nn.isLit || strings.ContainsAny(nn.lit, `/\`) {
		return "", false
	}
	from, _ := pathWord(src)
	to := path.Join(path.Dir(strings.ReplaceAll(src.lit, `\`, "/")), nn.lit)
	return "mv -- " + from + " " + quote(to), true
}

func newItem(b bound, piped bool) (string, bool) {
	p, ok := pathsOf(b, "path")
	if !ok {
		p = "."
	}
	if b.has("name") {
		if !b.get("name").isLit {
			return "", false
		}
		if p == "." && !b.has("path") {
			p = b.get("name").sh
		} else {
			p = strings.TrimSuffix(p, "'") + "/" + b.get("name").lit + "'"
			if !strings.HasSuffix(p, "'") || b.values["path"][0].glob || !b.values["path"][0].isLit {
				return "", false
			}
		}
	} else if !b.has("path") {
		return "", false
	}
	kind := ""
	if b.has("itemtype") {
		if !b.get("itemtype").isLit {
			return "", false
		}
		kind = strings.ToLower(b.get("itemtype").lit)
	}
	switch kind {
	case "directory":
		return "mkdir -p -- " + p, true
	case "symboliclink", "hardlink", "junction":
		if !b.has("target") {
			return "", false
		}
		t, ok := pathWords(b.values["target"])
		if !ok {
			return "", false
		}
		return "ln" + flag(kind != "hardlink", "-s") + " -f -- " + t + " " + p, true
	case "", "file":
		if b.has("value") {
			return "printf '%s' " + joinSh(b.values["value"]) + " > " + p, true
		}
		return "touch -- " + p, true
	}
	return "", false
}

func getChildItem(b bound, piped bool) (string, bool) {
	p, ok := pathsOf(b, "path", "literalpath")
	if !ok {
		p = "."
	}
	filter := ""
	if b.has("filter") {
		if !b.get("filter").isLit {
			return "", false
		}
		filter = " -name " + quote(b.get("filter").lit)
	}
	if b.on("recurse") || b.has("depth") {
		return "find " + p + filter, true
	}
	if filter != "" {
		return "find " + p + " -maxdepth 1" + filter, true
	}
	return "ls -la -- " + p, true
}

// onPaths is a cmdlet that reads its paths' names or metadata.
func onPaths(prog string) func(b bound, piped bool) (string, bool) {
	return func(b bound, piped bool) (string, bool) {
		p, ok := pathsOf(b, "path", "literalpath")
		if !ok {
			return prog, piped
		}
		return prog + " -- " + p, true
	}
}

func setLocation(b bound, piped bool) (string, bool) {
	p, ok := pathsOf(b, "path", "literalpath")
	if !ok {
		return "cd", true
	}
	return "cd -- " + p, true
}

func selectString(b bound, piped bool) (string, bool) {
	if !b.has("pattern") {
		return "", false
	}
	grep := "grep"
	for _, pat := range b.values["pattern"] {
		grep += " -e " + pat.sh
	}
	p, ok := pathsOf(b, "path", "literalpath")
	if !ok {
		return grep, piped
	}
	return grep + " -- " + p, true
}

func writeOutput(b bound, piped bool) (string, bool) {
	return "printf '%s\\n' " + joinSh(b.values["inputobject"]), true
}

func stopProcess(b bound, piped bool) (string, bool) {
	sig := flag(b.on("force"), "-9")
	switch {
	case b.has("name"):
		return "pkill" + sig + " -x -- " + joinSh(b.values["name"]), true
	case b.has("id"):
		return "kill" + sig + " -- " + joinSh(b.values["id"]), true
	case piped:
		return "xargs kill" + sig, true
	}
	return "", false
}

// getProcess lists processes; by name, only those (pgrep), so that a
// Stop-Process it feeds stops those.
func getProcess(b bound, piped bool) (string, bool) {
	switch {
	case b.has("name"):
		return "pgrep -x -- " + joinSh(b.values["name"]), true
	case b.has("id"):
		return "ps -p " + joinSh(b.values["id"]), true
	}
	return "ps -e", true
}

func startProcess(b bound, piped bool) (string, bool) {
	if !b.has("filepath") || b.has("credential") {
		return "", false
	}
	cmd := b.get("filepath").sh
	for _, a := range b.values["argumentlist"] {
		if !a.isLit {
			cmd += " " + a.sh
			continue
		}
		for _, f := range strings.Fields(a.lit) { // the list is joined into one command line
			cmd += " " + quote(f)
		}
	}
	if b.has("verb") {
		if !b.get("verb").isLit || !strings.EqualFold(b.get("verb").lit, "runas") {
			return "", false
		}
		cmd = "sudo " + cmd
	}
	for _, r := range [][2]string{{"redirectstandardoutput", " >"}, {"redirectstandarderror", " 2>"}, {"redirectstandardinput", " <"}} {
		if b.has(r[0]) {
			w, ok := pathWord(b.get(r[0]))
			if !ok {
				return "", false
			}
			cmd += r[1] + w
		}
	}
	if b.has("workingdirectory") {
		w, ok := pathWord(b.get("workingdirectory"))
		if !ok {
			return "", false
		}
		cmd = "cd -- " + w + " && " + cmd
	}
	return "(" + cmd + ")", true
}

// webRequest is Invoke-WebRequest and Invoke-RestMethod: curl.
func webRequest(b bound, piped bool) (string, bool) {
	if !b.has("uri") || b.has("headers") || b.has("form") || b.has("websession") || b.has("credential") || b.has("proxy") {
		return "", false
	}
	cmd := "curl -fsSL"
	if b.has("method") {
		cmd += " -X " + b.get("method").sh
	}
	if b.has("body") {
		cmd += " --data-binary " + b.get("body").sh
	}
	if b.has("infile") {
		w, ok := pathWord(b.get("infile"))
		if !ok || !b.get("infile").isLit {
			return "", false
		}
		cmd += " --data-binary " + quote("@"+strings.ReplaceAll(b.get("infile").lit, `\`, "/"))
		_ = w
	}
	if b.has("outfile") {
		w, ok := pathWord(b.get("outfile"))
		if !ok {
			return "", false
		}
		cmd += " -o " + w
	}
	return cmd + " -- " + b.get("uri").sh, true
}

// invokeExpression runs its string as code: code fetched with a
// download is a download piped to a shell.
func invokeExpression(b bound, piped bool) (string, bool) {
	if !b.has("command") {
		return "iex", piped
	}
	a := b.get("command")
	if a.inner != "" {
		return "{ " + a.inner + "\n} | iex", true
	}
	if a.isLit {
		inner, ok := PowerShell(a.lit)
		if !ok {
			return "", false
		}
		return "{ " + inner + "\n}", true
	}
	return "eval " + a.sh, true
}

var (
	cmdletsOnce  sync.Once
	cmdletsTable map[string]*cmdlet
)

// cmdlets is the table of cmdlets and their aliases, lower-cased, built
// the first time PowerShell code is translated.
func cmdlets() map[string]*cmdlet {
	cmdletsOnce.Do(buildCmdlets)
	return cmdletsTable
}

func buildCmdlets() {
	t := map[string]*cmdlet{}
	add := func(c *cmdlet, names ...string) {
		for _, n := range names {
			t[n] = c
		}
	}
	pathParams := []string{"Path", "LiteralPath", "Filter", "Include", "Exclude", "Credential", "Stream"}
	pathAliases := map[string]string{"lp": "literalpath", "pspath": "literalpath"}
	add(&cmdlet{pos: []string{"Path"}, valued: pathParams, switches: []string{"Recurse", "Force"}, aliases: pathAliases, translate: removeItem},
		"remove-item", "rm", "del", "erase", "rd", "ri", "rmdir")
	add(&cmdlet{pos: []string{"Path"}, valued: append([]string{"TotalCount", "Tail", "Encoding", "Delimiter", "ReadCount"}, pathParams...),
		switches: []string{"Raw", "Wait", "Force", "AsByteStream"},
		aliases:  map[string]string{"head": "totalcount", "first": "totalcount", "last": "tail", "lp": "literalpath", "pspath": "literalpath"}, translate: getContent},
		"get-content", "gc", "cat", "type")
	setParams := append([]string{"Value", "Encoding"}, pathParams...)
	add(&cmdlet{pos: []string{"Path", "Value"}, valued: setParams, switches: []string{"Force", "NoNewline", "PassThru", "AsByteStream"}, aliases: pathAliases, translate: writeContent(false)},
		"set-content", "sc")
	add(&cmdlet{pos: []string{"Path", "Value"}, valued: setParams, switches: []string{"Force", "NoNewline", "PassThru", "AsByteStream"}, aliases: pathAliases, translate: writeContent(true)},
		"add-content", "ac")
	add(&cmdlet{pos: []string{"FilePath", "Encoding"}, valued: []string{"FilePath", "LiteralPath", "Encoding", "Width", "InputObject"},
		switches: []string{"Append", "Force", "NoClobber", "NoNewline"}, aliases: map[string]string{"path": "filepath", "lp": "literalpath"}, translate: outFile},
		"out-file")
	add(&cmdlet{pos: []string{"FilePath"}, valued: []string{"FilePath", "LiteralPath", "Variable", "Encoding", "InputObject"},
		switches: []string{"Append"}, aliases: map[string]string{"path": "filepath"}, translate: teeObject},
		"tee-object", "tee")
	cpParams := append([]string{"Destination"}, pathParams...)
	add(&cmdlet{pos: []string{"Path", "Destination"}, valued: cpParams, switches: []string{"Recurse", "Force", "Container", "PassThru"}, aliases: pathAliases, translate: copyMove("cp")},
		"copy-item", "copy", "cp", "cpi")
	add(&cmdlet{pos: []string{"Path", "Destination"}, valued: cpParams, switches: []string{"Force", "PassThru"}, aliases: pathAliases, translate: copyMove("mv")},
		"move-item", "move", "mv", "mi")
	add(&cmdlet{pos: []string{"Path", "NewName"}, valued: append([]string{"NewName"}, pathParams...), switches: []string{"Force", "PassThru"}, aliases: pathAliases, translate: renameItem},
		"rename-item", "ren", "rni")
	add(&cmdlet{pos: []string{"Path"}, valued: []string{"Path", "Name", "ItemType", "Value", "Target", "Credential"}, switches: []string{"Force"},
		aliases: map[string]string{"type": "itemtype"}, translate: newItem}, "new-item", "ni")
	add(&cmdlet{pos: []string{"Path", "Filter"}, valued: append([]string{"Depth", "Attributes"}, pathParams...),
		switches: []string{"Recurse", "Force", "Name", "File", "Directory", "Hidden", "ReadOnly", "System", "FollowSymlink"},
		aliases:  map[string]string{"s": "recurse", "ad": "directory", "af": "file", "ah": "hidden", "lp": "literalpath"}, translate: getChildItem},
		"get-childitem", "gci", "ls", "dir")
	add(&cmdlet{pos: []string{"Path"}, valued: pathParams, switches: []string{"Force"}, aliases: pathAliases, translate: onPaths("stat")}, "get-item", "gi")
	add(&cmdlet{pos: []string{"Path"}, valued: append([]string{"PathType"}, pathParams...), switches: []string{"IsValid"}, aliases: pathAliases, translate: onPaths("test -e")}, "test-path")
	add(&cmdlet{pos: []string{"Path"}, valued: append([]string{"RelativeBasePath"}, pathParams...), switches: []string{"Relative"}, aliases: pathAliases, translate: onPaths("realpath")}, "resolve-path", "rvpa")
	add(&cmdlet{pos: []string{"Path"}, valued: []string{"Path", "LiteralPath"}, switches: []string{"PassThru"}, translate: setLocation}, "set-location", "sl", "cd", "chdir")
	add(&cmdlet{translate: func(bound, bool) (string, bool) { return "pwd", true }}, "get-location", "gl", "pwd")
	add(&cmdlet{pos: []string{"Pattern", "Path"}, valued: []string{"Pattern", "Path", "LiteralPath", "Include", "Exclude", "Encoding", "Context"},
		switches: []string{"SimpleMatch", "CaseSensitive", "List", "NotMatch", "Quiet", "AllMatches", "Raw", "NoEmphasis"}, translate: selectString},
		"select-string", "sls")
	add(&cmdlet{pos: []string{"InputObject"}, valued: []string{"InputObject"}, switches: []string{"NoEnumerate", "NoNewline"}, translate: writeOutput},
		"write-output", "echo", "write")
	add(&cmdlet{pos: []string{"Object"}, valued: []string{"Object", "Separator", "ForegroundColor", "BackgroundColor"}, switches: []string{"NoNewline"},
		aliases: map[string]string{"inputobject": "object"},
		translate: func(b bound, _ bool) (string, bool) {
			return "printf '%s\\n' " + joinSh(b.values["object"]), true
		}}, "write-host")
	add(&cmdlet{pos: []string{"Name"}, valued: []string{"Name", "Id", "InputObject"}, switches: []string{"Force", "PassThru"},
		aliases: map[string]string{"processname": "name"}, translate: stopProcess}, "stop-process", "spps", "kill")
	add(&cmdlet{pos: []string{"Name"}, valued: []string{"Name", "Id"}, switches: []string{"IncludeUserName", "Module", "FileVersionInfo"},
		translate: getProcess}, "get-process", "gps", "ps")
	add(&cmdlet{pos: []string{"FilePath", "ArgumentList"},
		valued:   []string{"FilePath", "ArgumentList", "WorkingDirectory", "RedirectStandardOutput", "RedirectStandardError", "RedirectStandardInput", "Verb", "WindowStyle", "Credential"},
		switches: []string{"Wait", "NoNewWindow", "PassThru", "UseNewEnvironment", "LoadUserProfile"},
		aliases:  map[string]string{"args": "argumentlist", "path": "filepath", "lup": "loaduserprofile", "nnw": "nonewwindow"}, translate: startProcess},
		"start-process", "saps", "start")
	webParams := []string{"Uri", "OutFile", "Method", "Body", "InFile", "Headers", "ContentType", "UserAgent", "TimeoutSec",
		"MaximumRedirection", "MaximumRetryCount", "RetryIntervalSec", "Credential", "Proxy", "Form", "SessionVariable", "WebSession"}
	webSwitches := []string{"UseBasicParsing", "UseDefaultCredentials", "PassThru", "SkipCertificateCheck", "DisableKeepAlive", "Resume", "AllowInsecureRedirect", "SkipHttpErrorCheck"}
	add(&cmdlet{pos: []string{"Uri"}, valued: webParams, switches: webSwitches, aliases: map[string]string{"url": "uri", "sv": "sessionvariable"}, translate: webRequest},
		"invoke-webrequest", "iwr", "curl", "wget", "invoke-restmethod", "irm")
	add(&cmdlet{pos: []string{"Command"}, valued: []string{"Command"}, translate: invokeExpression}, "invoke-expression", "iex")
	pureCmd := &cmdlet{pos: []string{"Property"},
		valued: []string{"Property", "ExpandProperty", "First", "Last", "Skip", "SkipLast", "Index", "ExcludeProperty", "InputObject", "Culture",
			"Top", "Bottom", "Depth", "GroupBy", "View", "Encoding", "Width", "Stream", "Value", "EQ", "NE", "GT", "GE", "LT", "LE", "Like", "NotLike", "Match", "NotMatch", "Contains", "NotContains", "In", "NotIn"},
		switches: []string{"Unique", "Descending", "CaseSensitive", "Line", "Word", "Character", "Sum", "Average", "Maximum", "Minimum",
			"AllStats", "IgnoreWhiteSpace", "AutoSize", "HideTableHeaders", "Wrap", "NoElement", "AsHashTable", "AsString", "Compress", "AsArray",
			"EnumsAsStrings", "Stable", "Wait", "Is", "IsNot", "Not", "Raw"},
		aliases:   map[string]string{"c": "casesensitive"},
		translate: pure}
	add(pureCmd, "measure-object", "measure", "select-object", "select", "sort-object", "sort", "group-object", "group",
		"format-table", "ft", "format-list", "fl", "format-wide", "fw", "out-string", "out-host", "oh", "convertto-json",
		"convertfrom-json", "get-unique", "gu", "where-object", "where", "?", "convertto-csv", "convertfrom-csv", "get-member", "gm")
	add(&cmdlet{translate: func(bound, bool) (string, bool) { return "cat >/dev/null", true }}, "out-null")
	add(&cmdlet{pos: []string{"Format"}, valued: []string{"Format", "UFormat", "Date"}, switches: []string{"AsUTC"},
		translate: func(bound, bool) (string, bool) { return "date", true }}, "get-date")
	cmdletsTable = t
}
