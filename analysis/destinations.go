package analysis

import (
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// A network client can read the addresses it contacts from a file when it
// runs: curl -K FILE (a config file whose url = … lines are requests),
// curl --url @FILE, wget -i FILE and its --config, aria2c -i FILE and its
// --conf-path, metalink and torrent files, and any client that xargs or
// parallel gives words read from input (xargs curl < urls). What is in the
// file is not known before the command runs, so neither is where the
// requests go — toolguard's own approval server among the possibilities.
// Such a command is unverifiable: an ask in every mode
// that asks, as eval "$X" is. A file that is "-", standard input, fed by
// a here-string or here-document whose text is known is read here
// instead, and its addresses judged as if they were on the command line.

// destinations judges the files cmd reads its destinations from.
func (a *Analysis) destinations(cmd *shell.Command, r *rules.Result) {
	if cmd.ArgsFromInput && (r.Network || len(r.URLs) > 0 || isNetClient(cmd.Name)) {
		a.add(Unverifiable(shell.Problem{Span: cmd.Span, Reason: fmt.Sprintf(
			"%s gets arguments that %s reads at run time, so the addresses it contacts are not known", cmd.Name, inputSource(cmd))}))
	}
	switch cmd.Name {
	case "curl":
		a.curlFiles(cmd)
	case "wget", "wget2":
		a.wgetFiles(cmd)
	case "aria2c":
		a.aria2Files(cmd)
	}
}

// isNetClient reports whether name is one of the programs whose arguments
// are addresses to contact.
func isNetClient(name string) bool {
	switch name {
	case "curl", "wget", "wget2", "aria2c", "http", "https", "xh", "xhs", "httpie", "lynx", "links", "w3m",
		"axel", "nc", "ncat", "netcat", "socat", "telnet", "ssh", "scp", "sftp", "rsync", "ftp", "lftp", "yt-dlp",
		"youtube-dl":
		return true
	}
	return false
}

func inputSource(cmd *shell.Command) string {
	for _, w := range cmd.Wrappers {
		if w == "parallel" {
			return "parallel"
		}
	}
	return "xargs"
}

// optScan finds the values of one option of a program with getopt-style
// options: -X VALUE, -XVALUE, -abX VALUE (a cluster of short options, of
// which those in takesArg end the cluster with their value), --long VALUE
// and --long=VALUE. Values of other options are not skipped, so a word
// that only looks like the option counts too: the safe side.
type optScan struct {
	short    byte     // 0: none
	long     []string // without the leading dashes
	takesArg string   // the other short options that take a value
	getopt   bool     // "--" ends the options and long names may be abbreviated (wget, aria2c)
}

func (o optScan) isLong(name string) bool {
	for _, l := range o.long {
		if name == l || o.getopt && len(name) >= 2 && strings.HasPrefix(l, name) {
			return true
		}
	}
	return false
}

func (o optScan) values(args []shell.Word) []shell.Word {
	var out []shell.Word
	// take records the value in the rest of word i from byte k on, or in
	// the next word; a value missing at the end is no value (the program
	// fails).
	take := func(i, k int) int {
		if k < len(args[i].Value) {
			w := args[i]
			w.Value = w.Value[k:]
			out = append(out, w)
			return i
		}
		if i+1 < len(args) {
			out = append(out, args[i+1])
		}
		return i + 1
	}
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		switch {
		case a == "--" && o.getopt:
			return out
		case strings.HasPrefix(a, "--"):
			name, _, hasVal := strings.Cut(a[2:], "=")
			if !o.isLong(name) {
				continue
			}
			if hasVal {
				w := args[i]
				w.Value = a[3+len(name):]
				out = append(out, w)
			} else {
				i = take(i, len(a))
			}
		case len(a) > 1 && a[0] == '-' && o.short != 0:
			for k := 1; k < len(a); k++ {
				if a[k] == o.short {
					i = take(i, k+1)
					break
				}
				if strings.IndexByte(o.takesArg, a[k]) >= 0 {
					break // the rest of the cluster is that option's value
				}
			}
		}
	}
	return out
}

var (
	curlConfig = optScan{short: 'K', long: []string{"config"}, takesArg: "AbcCdDeEFHmoPQrtTuUwxXyYz"}
	curlURL    = optScan{long: []string{"url"}}
	wgetInput  = optScan{short: 'i', long: []string{"input-file", "input-metalink"}, takesArg: "aABDeIlOoPQRTtUwX", getopt: true}
	wgetConfig = optScan{long: []string{"config"}, getopt: true}
	wgetExec   = optScan{short: 'e', long: []string{"execute"}, takesArg: "aABDiIlOoPQRTtUwX", getopt: true}
	aria2Input = optScan{short: 'i', long: []string{"input-file"}, takesArg: "djlMoTUx", getopt: true}
	aria2Files = optScan{short: 'M', long: []string{"conf-path", "metalink-file", "torrent-file"}, takesArg: "dijloTUx", getopt: true}
	aria2Torr  = optScan{short: 'T', takesArg: "dijlMoUx", getopt: true}
)

// curlFiles judges curl -K/--config and --url @FILE.
func (a *Analysis) curlFiles(cmd *shell.Command) {
	args := cmd.Args()
	for _, v := range curlConfig.values(args) {
		a.readsDestinations(cmd, v, "its options", curlConfigArgs)
	}
	for _, v := range curlURL.values(args) {
		if file, ok := strings.CutPrefix(v.Value, "@"); ok {
			a.readsDestinations(cmd, withValue(v, file), "the URLs it fetches", lineArgs)
		}
	}
	for _, w := range args {
		if strings.HasPrefix(w.Value, "--expand-") || w.Value == "--variable" || strings.HasPrefix(w.Value, "--variable=") {
			a.add(Unverifiable(shell.Problem{Span: w.Span, Reason: "curl " + w.Value +
				" fills its options in from variables, which may come from files or the environment, so the addresses it contacts are not known"}))
			return
		}
	}
}

// wgetFiles judges wget -i/--input-file, --config and -e commands that
// name an input file or a proxy.
func (a *Analysis) wgetFiles(cmd *shell.Command) {
	args := cmd.Args()
	for _, v := range wgetInput.values(args) {
		a.readsDestinations(cmd, v, "the URLs it fetches", lineArgs)
	}
	for _, v := range wgetConfig.values(args) {
		a.readsDestinations(cmd, v, "its settings (proxies, input files)", nil)
	}
	for _, v := range wgetExec.values(args) {
		key, val, _ := strings.Cut(v.Value, "=")
		key = strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(key))
		val = strings.TrimSpace(val)
		switch {
		case !v.Known:
			a.add(Unverifiable(shell.Problem{Span: v.Span, Reason: "wget -e runs a setting that is not known: " + v.Value}))
		case key == "input":
			a.readsDestinations(cmd, withValue(v, val), "the URLs it fetches", lineArgs)
		case key == "httpproxy" || key == "httpsproxy" || key == "ftpproxy":
			if !strings.Contains(val, "://") {
				val = "http://" + val
			}
			a.judge.URL(shell.Word{Value: val, Known: true, Span: v.Span}) // the proxy gets every request
		}
	}
}

// aria2Files judges aria2c -i/--input-file, --conf-path and metalink and
// torrent files, which name the servers and trackers it contacts.
func (a *Analysis) aria2Files(cmd *shell.Command) {
	args := cmd.Args()
	for _, v := range aria2Input.values(args) {
		a.readsDestinations(cmd, v, "the URIs it downloads", aria2InputArgs)
	}
	for _, v := range append(aria2Files.values(args), aria2Torr.values(args)...) {
		a.readsDestinations(cmd, v, "the servers and trackers it contacts", nil)
	}
}

// readsDestinations judges a file a command reads what it contacts from.
// The file "-" is standard input: a known here-string, here-document or
// echo is turned by toArgs into the words it stands for on the command
// line and judged as such (toArgs nil, or ok false: not understood).
// Any other file, or an unknown input, is unverifiable.
func (a *Analysis) readsDestinations(cmd *shell.Command, file shell.Word, what string, toArgs func(string) ([]string, bool)) {
	if !a.spend(commandCost) {
		return
	}
	if file.Value == "-" || file.Value == "/dev/stdin" {
		in := cmd.Stdin
		if in != nil && in.Known && toArgs != nil && a.spend(ScanCost(len(in.Text))) {
			if words, ok := toArgs(in.Text); ok {
				a.judgeReadArgs(cmd, words, in.Span)
				return
			}
		}
		a.add(Unverifiable(shell.Problem{Span: file.Span, Reason: fmt.Sprintf(
			"%s reads %s from standard input, whose content is not known or not understood, so the addresses it contacts are not known", cmd.Name, what)}))
		return
	}
	a.add(Unverifiable(shell.Problem{Span: file.Span, Reason: fmt.Sprintf(
		"%s reads %s from the file %s when it runs, so the addresses it contacts are not known", cmd.Name, what, Shorten(file.Value))}))
}

// judgeReadArgs judges the words a command reads from its known input as
// the same command with those words on its command line.
func (a *Analysis) judgeReadArgs(cmd *shell.Command, words []string, span risk.Span) {
	c := *cmd
	c.Argv = []shell.Word{cmd.Argv[0]}
	for _, w := range words {
		c.Argv = append(c.Argv, shell.Word{Value: w, Known: true, Span: span})
	}
	c.Stdin, c.PipeFrom, c.PipeTo, c.Redirects = nil, nil, nil, nil // the input is spent
	a.command(&c)
}

// lineArgs reads a list of URLs, one a line (wget -i -, curl --url @-).
func lineArgs(text string) ([]string, bool) {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out, true
}

// aria2InputArgs reads aria2c's input file: URIs separated by tabs, one
// download a line. A line that starts with a blank sets options for the
// download above it (a proxy, a header): not understood here.
func aria2InputArgs(text string) ([]string, bool) {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			return nil, false
		}
		out = append(out, strings.Fields(line)...)
	}
	return out, true
}

// curlConfigArgs turns a curl config file into the command-line words it
// stands for: each line is an option, its long name with or without the
// dashes, then its value after blanks, "=" or ":", in double quotes (with
// backslash escapes) or up to the next blank.
func curlConfigArgs(text string) ([]string, bool) {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		end := strings.IndexAny(line, " \t=:")
		if end < 0 {
			end = len(line)
		}
		name, rest := line[:end], line[end:]
		if !strings.HasPrefix(name, "-") {
			name = "--" + name
		}
		out = append(out, name)
		rest = strings.TrimLeft(rest, " \t")
		if rest != "" && (rest[0] == '=' || rest[0] == ':') {
			rest = strings.TrimLeft(rest[1:], " \t")
		}
		if rest == "" {
			continue
		}
		val, ok := curlConfigValue(rest)
		if !ok {
			return nil, false
		}
		out = append(out, val)
	}
	return out, true
}

// curlConfigValue reads the value of a config line.
func curlConfigValue(s string) (string, bool) {
	if s[0] != '"' {
		if i := strings.IndexAny(s, " \t"); i >= 0 {
			return s[:i], true
		}
		return s, true
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), true
		case '\\':
			if i+1 == len(s) {
				return "", false
			}
			i++
			switch s[i] {
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 'v':
				b.WriteByte('\v')
			default:
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", false // no closing quote
}
