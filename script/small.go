package script

import (
	"strings"
)

// SSHOption analyses one ssh option, "Key=Value" or "Key Value", as given
// to ssh, scp and sftp with -o: options whose value ssh runs as a local
// command (ProxyCommand, LocalCommand, KnownHostsCommand, Match exec) yield
// it in Shell; RemoteCommand runs on the other host and is returned in
// Shell too, so it is judged like ssh's own remote command; SendEnv and
// SetEnv expose the environment; Include loads another configuration.
// Options that only tune the connection are harmless.
func SSHOption(opt string) Effects {
	if e, long := tooLong(opt); long {
		return e
	}
	opt = strings.TrimSpace(opt)
	key, value, ok := strings.Cut(opt, "=")
	if !ok {
		key, value, _ = strings.Cut(opt, " ")
	}
	key, value = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(value)
	switch key {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
		if value == "" || strings.EqualFold(value, "none") {
			return Effects{}
		}
		return Effects{Shell: []string{value}}
	case "match":
		if i := strings.Index(strings.ToLower(value), "exec"); i >= 0 {
			cmd := strings.Trim(strings.TrimSpace(value[i+4:]), `"`)
			return Effects{Shell: []string{cmd}}
		}
		return Effects{}
	case "sendenv", "setenv":
		return Effects{Environment: true}
	case "include", "permitlocalcommand", "controlpath", "controlmaster", "identityagent", "pkcs11provider",
		"securitykeyprovider", "xauthlocation", "forwardagent", "forwardx11", "remoteforward", "localforward",
		"dynamicforward", "tunnel", "tunneldevice":
		return Effects{Unknown: "ssh option " + key + " is not known to be harmless"}
	}
	if isSSHHarmless(key) {
		return Effects{}
	}
	return Effects{Unknown: "ssh option " + key + " is not known to be harmless"}
}

// isSSHHarmless reports whether key is one of the options that only tune
// how ssh connects and checks.
func isSSHHarmless(key string) bool {
	switch key {
	case "batchmode", "connecttimeout", "connectionattempts", "serveraliveinterval", "serveralivecountmax",
		"stricthostkeychecking", "userknownhostsfile", "globalknownhostsfile", "loglevel", "port", "user",
		"hostname", "identityfile", "identitiesonly", "certificatefile", "compression", "addkeystoagent",
		"preferredauthentications", "pubkeyauthentication", "passwordauthentication",
		"kbdinteractiveauthentication", "hostkeyalgorithms", "pubkeyacceptedalgorithms", "pubkeyacceptedkeytypes",
		"kexalgorithms", "ciphers", "macs", "addressfamily", "bindaddress", "checkhostip", "hashknownhosts",
		"requesttty", "escapechar", "tcpkeepalive", "updatehostkeys", "verifyhostkeydns", "visualhostkey",
		"numberofpasswordprompts", "exitonforwardfailure", "controlpersist", "proxyjump", "canonicalizehostname",
		"ipqos", "rekeylimit":
		return true
	}
	return false
}

// Jq analyses a jq program (also gojq, jaq and mikefarah's yq, which share
// its syntax): env, $ENV and yq's strenv/envsubst expose the environment;
// yq's load functions read the file they name; import and include read
// modules from files; everything else only transforms its input. Names
// after "." (fields) and "$" (variables other than $ENV), and text inside
// string literals (except \(…) interpolations), are not calls.
func Jq(src string) Effects {
	if e, long := tooLong(src); long {
		return e
	}
	var e Effects
	toks := jqTokens(src)
	for i, t := range toks {
		if t.kind != jqName {
			continue
		}
		switch t.text {
		case "env", "$ENV", "strenv", "envsubst", "$__prog_env":
			e.Environment = true
		case "import", "include":
			e.unknown("the jq program " + t.text + "s a module from a file")
		case "load", "load_str", "load_xml", "load_props", "load_base64", "load_csv", "load_tsv", "load_yaml", "load_json":
			if i+2 < len(toks) && toks[i+1].text == "(" && toks[i+2].kind == jqString && toks[i+2].known {
				e.Reads = append(e.Reads, toks[i+2].text)
			} else {
				e.unknown("the yq " + t.text + " reads a file named at run time")
			}
		}
	}
	return e
}

type jqKind uint8

const (
	jqName   jqKind = iota // a call or keyword (env, load), or $ENV
	jqString               // a string literal's text
	jqPunct                // one punctuation byte
)

type jqToken struct {
	kind  jqKind
	text  string
	known bool // for strings: no interpolation
}

// jqTokens splits a jq program into the tokens Jq looks at: names that
// are calls, string literals and punctuation. Fields (.name) and variables
// ($x) are skipped; code inside string interpolations is tokenised too.
func jqTokens(src string) []jqToken {
	var out []jqToken
	depth := 0 // interpolation nesting: ")" at depth > 0 resumes the string
	var resume []int
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '"':
			tok, next, interp := readJqString(src, i+1)
			out = append(out, tok)
			i = next
			if interp {
				depth++
				resume = append(resume, depth)
			}
		case c == ')' && len(resume) > 0 && resume[len(resume)-1] == depth:
			resume = resume[:len(resume)-1]
			depth--
			tok, next, interp := readJqString(src, i+1)
			out = append(out, tok)
			i = next
			if interp {
				depth++
				resume = append(resume, depth)
			}
		case c == '$' || c == '.' || isAwkNameByte(c) && !(c >= '0' && c <= '9'):
			start := i
			i++
			for i < len(src) && isAwkNameByte(src[i]) {
				i++
			}
			name := src[start:i]
			switch {
			case name == "$ENV" || name == "$__prog_env":
				out = append(out, jqToken{kind: jqName, text: name})
			case c == '$' || c == '.':
			default:
				out = append(out, jqToken{kind: jqName, text: name})
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			out = append(out, jqToken{kind: jqPunct, text: string(c)})
			i++
		}
	}
	return out
}

// readJqString reads a string literal from just after its opening quote (or
// after the ")" that ends an interpolation) up to the closing quote or
// the next "\(". It returns the text read, the index after it, and whether
// an interpolation starts there.
func readJqString(src string, i int) (jqToken, int, bool) {
	var b strings.Builder
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			return jqToken{kind: jqString, text: b.String(), known: true}, i + 1, false
		case c == '\\' && i+1 < len(src) && src[i+1] == '(':
			return jqToken{kind: jqString, text: b.String()}, i + 2, true
		case c == '\\' && i+1 < len(src):
			b.WriteByte(src[i+1])
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return jqToken{kind: jqString, text: b.String()}, i, false
}

// Less analyses commands given to less with +cmd, -p or the LESS variable:
// searches, movements and following are harmless; !command, |mark command,
// v (an editor), s (save to a file) and anything else are not.
func Less(cmds string) Effects {
	if e, long := tooLong(cmds); long {
		return e
	}
	if strings.HasPrefix(cmds, "-") { // the LESS variable: options
		return lessOptions(cmds)
	}
	cmds = strings.TrimPrefix(cmds, "+")
	if cmds == "" {
		return Effects{}
	}
	switch cmds[0] {
	case '/', '?', '&':
		return Effects{} // a search pattern: the rest is the pattern
	}
	for _, c := range cmds {
		if !strings.ContainsRune("0123456789GgFjkqQnNpP%eyEbfduDUHMLRr \t", c) {
			return Effects{Exec: true, Unknown: "the less command " + string(c) + " is not known to be harmless"}
		}
	}
	return Effects{}
}

// lessOptions analyses an option string (LESS='-R +G'): options are
// harmless except those naming a key file, which may bind keys to shell
// commands; +cmd words are commands.
func lessOptions(opts string) Effects {
	var e Effects
	for _, w := range strings.Fields(opts) {
		switch {
		case strings.HasPrefix(w, "+"):
			sub := Less(w)
			e.Exec = e.Exec || sub.Exec
			if sub.Unknown != "" {
				e.unknown(sub.Unknown)
			}
		case strings.HasPrefix(w, "-k") || strings.HasPrefix(w, "--lesskey"):
			e.Exec = true
			e.unknown("the less option " + w + " loads key bindings from a file")
		}
	}
	return e
}

// TarCheckpoint analyses the action of GNU tar's --checkpoint-action: its
// exec=COMMAND runs COMMAND by the shell at each checkpoint; the other
// actions (bell, dot, echo, sleep, totals, ttyout, wait) only print or
// pause.
func TarCheckpoint(action string) Effects {
	if e, long := tooLong(action); long {
		return e
	}
	name, value, _ := strings.Cut(strings.TrimSpace(action), "=")
	switch name {
	case "exec":
		if strings.TrimSpace(value) == "" {
			return Effects{}
		}
		return Effects{Shell: []string{value}}
	case "bell", "dot", ".", "echo", "sleep", "totals", "ttyout", "wait":
		return Effects{}
	}
	return Effects{Unknown: "tar checkpoint action " + name + " is not known to be harmless"}
}
