package policy

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// deniedPattern is one denied-command pattern split into pipeline segments
// of words, or a redirect target.
type deniedPattern struct {
	text     string
	segments [][]string
	redirect string // for "> /dev/sda": the target
}

func compileDenied(list []string) ([]deniedPattern, error) {
	var out []deniedPattern
	var errs []error
	for i, s := range list {
		d, err := parseDenied(s)
		if err != nil {
			errs = append(errs, fmt.Errorf("[%d] %q: %w", i, s, err))
			continue
		}
		out = append(out, d)
	}
	return out, errors.Join(errs...)
}

// compileDeniedWithDefaults is compileDenied of DefaultDeniedCommands and
// then user: the defaults' patterns are taken from defaultDeniedPatterns,
// which `go generate ./policy` writes (defaultdenied_gen.go) so a process
// does not parse them each time it starts; TestDefaultDeniedGenerated
// compares it with compileDenied(DefaultDeniedCommands()). Should the
// record not hold the texts of DefaultDeniedCommands (stale), every
// pattern is parsed. The defaults are shared, never written: the result's
// capacity ends with them, so appending copies.
func compileDeniedWithDefaults(user []string) ([]deniedPattern, error) {
	defaults := defaultDeniedPatterns[:len(defaultDeniedPatterns):len(defaultDeniedPatterns)]
	if !sameTexts(defaults, DefaultDeniedCommands()) {
		return compileDenied(append(DefaultDeniedCommands(), user...))
	}
	if len(user) == 0 {
		return defaults, nil
	}
	out, err := compileDenied(user)
	if err != nil { // errors name the index in the whole list
		_, err = compileDenied(append(DefaultDeniedCommands(), user...))
		return nil, err
	}
	return append(defaults, out...), nil
}

// sameTexts reports whether list holds the patterns of texts, in order.
func sameTexts(list []deniedPattern, texts []string) bool {
	if len(list) != len(texts) {
		return false
	}
	for i, d := range list {
		if d.text != texts[i] {
			return false
		}
	}
	return true
}

func parseDenied(s string) (deniedPattern, error) {
	d := deniedPattern{text: s}
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, ">") {
		d.redirect = strings.TrimSpace(strings.TrimLeft(t, ">"))
		if d.redirect == "" {
			return d, errors.New("a redirect pattern needs a target")
		}
		return d, nil
	}
	if isForkBombText(t) {
		return d, nil // structural: the rule packs detect fork bombs in any spelling
	}
	for _, seg := range strings.Split(t, "|") {
		words := strings.Fields(seg)
		if len(words) == 0 {
			return d, errors.New("empty pipeline segment")
		}
		d.segments = append(d.segments, words)
	}
	return d, nil
}

// deniedIndex is what a command must have for some denied pattern to
// match it: a redirect (a pattern "> target"), or a name that is the
// first word of a pattern's first segment, or begins with one and a dot
// (nameMatches: "mkfs" matches mkfs.ext4). Most commands of a script have
// neither, and are then not compared with every pattern one by one.
type deniedIndex struct {
	names     map[string]bool // the first words of the patterns' first segments
	redirects bool            // some pattern is a redirect target
}

func indexDenied(list []deniedPattern) deniedIndex {
	x := deniedIndex{names: map[string]bool{}}
	for _, d := range list {
		switch {
		case d.redirect != "":
			x.redirects = true
		case len(d.segments) > 0:
			x.names[d.segments[0][0]] = true
		}
	}
	return x
}

// mayMatch is false only when no pattern of the list matches cmd: a
// pattern with segments needs nameMatches(its first word, cmd.Name), one
// with a redirect target a redirect of cmd, and any other matches nothing.
// The zero index (none built) lets every command through.
func (x deniedIndex) mayMatch(cmd *shell.Command) bool {
	if x.names == nil || x.redirects && len(cmd.Redirects) > 0 || x.names[cmd.Name] {
		return true
	}
	for i := 0; i < len(cmd.Name); i++ {
		if cmd.Name[i] == '.' && x.names[cmd.Name[:i]] {
			return true
		}
	}
	return false
}

func isForkBombText(t string) bool {
	return strings.Contains(strings.ReplaceAll(t, " ", ""), "(){")
}

// matches reports whether the pattern matches cmd (and, for pipelines, the
// commands cmd feeds).
func (d deniedPattern) matches(cmd *shell.Command) bool {
	if d.redirect != "" {
		return hasRedirectTo(cmd, d.redirect)
	}
	c := cmd
	for _, seg := range d.segments {
		if c == nil || !segmentMatches(seg, c) {
			return false
		}
		c = c.PipeTo
	}
	return len(d.segments) > 0
}

func hasRedirectTo(cmd *shell.Command, target string) bool {
	for _, r := range cmd.Redirects {
		if strings.HasPrefix(r.Op, ">") || r.Op == "&>" || r.Op == "&>>" {
			if r.Target.Value == target {
				return true
			}
		}
	}
	return false
}

// segmentMatches: the first word names the executable (exactly, or as the
// family prefix of "mkfs.ext4"); later words appear in order among the
// arguments, the last one possibly as a prefix ("dd if=").
func segmentMatches(seg []string, c *shell.Command) bool {
	if !nameMatches(seg[0], c.Name) || seg[0] == "dd" && !mentionsOutput(seg) && ddDiscards(c) {
		return false
	}
	args := c.Args()
	j := 0
	for i, w := range seg[1:] {
		last := i == len(seg)-2
		for j < len(args) && !wordMatches(w, argValue(seg[0], args[j].Value), last) {
			j++
		}
		if j == len(args) {
			return false
		}
		j++
	}
	return true
}

// ddDiscards reports whether dd writes nothing but /dev/null (dd
// if=x of=/dev/null reads and counts): the "dd if=" pattern is there
// against overwriting disks, and a pattern that names of= itself still
// matches.
func ddDiscards(c *shell.Command) bool {
	out := ""
	for _, a := range c.Args() {
		if v, ok := strings.CutPrefix(a.Value, "of="); ok {
			if !a.Known || out != "" {
				return false
			}
			out = v
		}
	}
	return out == "/dev/null"
}

func mentionsOutput(seg []string) bool {
	for _, w := range seg[1:] {
		if strings.HasPrefix(w, "of=") {
			return true
		}
	}
	return false
}

func nameMatches(pat, name string) bool {
	// name == pat, or name starts with pat+"." (built without a string:
	// this runs for every denied pattern on every command)
	return len(name) >= len(pat) && name[:len(pat)] == pat &&
		(len(name) == len(pat) || name[len(pat)] == '.')
}

// argValue is an argument as a pattern of the program names it: a chmod
// mode by the bits it gives, so that "chmod 777" also matches 0777,
// a=rwx and ugo+rwx, which make the same files writable by everyone.
func argValue(program, v string) string {
	if program != "chmod" {
		return v
	}
	return chmodMode(v)
}

// chmodMode writes a mode that gives every class read, write and execute
// as 777 (0777, 00777, a+rwx, a=rwx, ugo+rwx, u=rwx,g=rwx,o=rwx); any other
// value is returned as it is.
func chmodMode(v string) string {
	if strings.TrimLeft(v, "0") == "777" {
		return "777"
	}
	classes := ""
	for _, part := range strings.Split(v, ",") {
		who, perms, ok := strings.Cut(part, "+")
		if !ok {
			who, perms, ok = strings.Cut(part, "=")
		}
		if !ok || who == "" || strings.Trim(perms, "rwx") != "" || !strings.Contains(perms, "r") ||
			!strings.Contains(perms, "w") || !strings.Contains(perms, "x") || strings.Trim(who, "augo") != "" {
			return v
		}
		classes += strings.ReplaceAll(who, "a", "ugo")
	}
	if strings.Contains(classes, "u") && strings.Contains(classes, "g") && strings.Contains(classes, "o") {
		return "777"
	}
	return v
}

func wordMatches(pat, arg string, last bool) bool {
	if arg == pat {
		return true
	}
	return last && strings.HasSuffix(pat, "=") && strings.HasPrefix(arg, pat)
}

// allowList is ZeroClaw's strict allowed_commands.
type allowList struct {
	names    map[string]bool
	paths    map[string]bool
	wildcard bool
	set      bool
}

func newAllowList(list []string) allowList {
	a := allowList{names: map[string]bool{}, paths: map[string]bool{}, set: len(list) > 0}
	for _, s := range list {
		switch {
		case s == "*":
			a.wildcard = true
		case strings.Contains(s, "/"):
			a.paths[s] = true
		default:
			a.names[strings.ToLower(s)] = true
		}
	}
	return a
}

func (a allowList) permits(c *shell.Command) bool {
	if !a.set || a.wildcard {
		return true
	}
	if len(c.Argv) > 0 && a.paths[c.Argv[0].Value] {
		return true
	}
	return a.names[strings.ToLower(c.Name)]
}

// explicit reports whether the executable is listed by name (not "*"),
// which is what lets ZeroClaw run a high-risk command.
func (a allowList) explicit(c *shell.Command) bool {
	return a.names[strings.ToLower(c.Name)] || (len(c.Argv) > 0 && a.paths[c.Argv[0].Value])
}

// zeroClawArgRule reports ZeroClaw's argument rules, applied when an
// allow-list is set: code-running flags of otherwise listed commands.
func zeroClawArgRule(c *shell.Command) string {
	args := c.Values()[min(1, len(c.Argv)):]
	switch c.Name {
	case "find":
		return firstOf(args, "-exec", "-ok", "-execdir", "-okdir")
	case "git":
		return gitConfigArg(args)
	case "python", "python3":
		return prefixOf(args, "-c", "-m")
	case "node":
		return prefixOf(args, "-e", "--eval", "-p", "--print")
	case "pip", "pip3":
		return firstOf(args[:min(1, len(args))], "install", "download")
	case "npm":
		return firstOf(args[:min(1, len(args))], "exec", "install", "i", "add", "ci")
	case "cargo":
		return firstOf(args[:min(1, len(args))], "install")
	}
	return ""
}

func gitConfigArg(args []string) string {
	for _, a := range args {
		if a == "-c" || a == "config" || a == "alias" || strings.HasPrefix(a, "config.") || strings.HasPrefix(a, "alias.") {
			return a
		}
	}
	return ""
}

func firstOf(args []string, flags ...string) string {
	for _, a := range args {
		for _, f := range flags {
			if a == f {
				return a
			}
		}
	}
	return ""
}

func prefixOf(args []string, flags ...string) string {
	for _, a := range args {
		for _, f := range flags {
			if strings.HasPrefix(a, f) && (len(f) == 2 || a == f || strings.HasPrefix(a, f+"=")) {
				return a
			}
		}
	}
	return ""
}

// normalized is a command's text after unwrapping: argv words joined by
// single spaces (what custom patterns see).
func normalized(c *shell.Command) string {
	return c.Text()
}

// argvGlobMatch matches argv word by word with path.Match globs; a final
// "**" matches any remaining words.
func argvGlobMatch(pat []string, argv []string) bool {
	for i, p := range pat {
		if p == "**" && i == len(pat)-1 {
			return true
		}
		if i >= len(argv) {
			return false
		}
		if ok, _ := path.Match(p, argv[i]); !ok {
			return false
		}
	}
	return len(argv) == len(pat)
}

func commandFinding(c *shell.Command, rule, reason string, v risk.Verdict, cat risk.Category) risk.Finding {
	return risk.Finding{Rule: rule, Category: cat, Tier: risk.Execute, Blast: risk.BlastHigh, Verdict: v,
		Reason: reason, Span: c.Span, Subject: normalized(c)}
}
