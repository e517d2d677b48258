package analysis

import (
	"slices"
	"strings"
)

// Three of the markers of code that evaluates what it fetched also name
// the most ordinary things code that fetches does: "load(" is json.load,
// "require(" and "import(" load the http module itself
// (require('https').get(url, …), json.load(urlopen(url))). evaluates
// reads those three in context, so that a fetch whose answer is printed or
// parsed as data is not taken for one whose answer is run.

// dataLoads are the prefixes of a "load(" that parses data: json and TOML
// never run what they parse, nor does YAML's safe loader.
var dataLoads = []string{"json.", "tomllib.", "toml.", "yaml.safe_"}

// plainModules are the modules whose require or import by name loads no
// code from elsewhere: Node's built-in modules that neither evaluate text
// (vm, module, repl, inspector, wasi) nor start programs or threads
// (child_process, worker_threads, cluster), and the common HTTP clients.
var plainModules = []string{"http", "https", "http2", "url", "fs", "fs/promises", "path", "os", "util", "zlib",
	"stream", "events", "buffer", "crypto", "querystring", "string_decoder", "readline", "assert", "dns", "net",
	"tls", "timers", "process", "axios", "node-fetch", "got", "undici", "superagent"}

// evaluates reports whether code, whose markers h holds, evaluates text:
// an eval marker other than the three, or one of the three not in a form
// above.
func evaluates(code string, h *markerHits) bool {
	if !h.has(mEval) {
		return false
	}
	contextual := []string{"load(", "require(", "import("}
	for _, id := range h.t.lists[mEval] {
		if h.found[id/64]&(1<<(id%64)) != 0 && !slices.Contains(contextual, h.t.pats[id]) {
			return true
		}
	}
	lower := strings.ToLower(code)
	for _, m := range contextual {
		for at := strings.Index(lower, m); at >= 0; {
			if !plainAt(lower, at, m) {
				return true
			}
			next := strings.Index(lower[at+1:], m)
			if next < 0 {
				break
			}
			at += 1 + next
		}
	}
	return false
}

// plainAt reports whether the marker m at index at of the lower-case code
// parses data or loads a plain module.
func plainAt(lower string, at int, m string) bool {
	if m == "load(" {
		return slices.ContainsFunc(dataLoads, func(p string) bool { return strings.HasSuffix(lower[:at], p) })
	}
	if m == "import(" && at > 0 && isNameByte(lower[at-1]) {
		return false // an identifier ending in import: not the keyword
	}
	arg := strings.TrimLeft(lower[at+len(m):], " \t")
	if arg == "" || arg[0] != '\'' && arg[0] != '"' {
		return false // a name or an expression: whatever it holds
	}
	name, _, closed := strings.Cut(arg[1:], arg[:1])
	if !closed || !strings.HasPrefix(strings.TrimLeft(arg[1+len(name)+1:], " \t"), ")") {
		return false
	}
	return slices.Contains(plainModules, strings.TrimPrefix(name, "node:"))
}

// isNameByte reports whether c may be part of an identifier.
func isNameByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z'
}

// importsURL reports whether code imports a module by its URL
// (import('https://…'), import x from "http://…", require('https://…')):
// code fetched and run by the import itself, with no fetch call to see.
func importsURL(code string) bool {
	lower := strings.ToLower(code)
	for _, q := range []string{`'`, `"`, "`"} {
		for _, scheme := range []string{"https://", "http://"} {
			lit := q + scheme
			for at := strings.Index(lower, lit); at >= 0; {
				before := strings.TrimRight(lower[:at], " \t(")
				if strings.HasSuffix(before, "import") || strings.HasSuffix(before, "from") || strings.HasSuffix(before, "require") {
					return true
				}
				next := strings.Index(lower[at+1:], lit)
				if next < 0 {
					break
				}
				at += 1 + next
			}
		}
	}
	return false
}
