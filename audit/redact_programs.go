package audit

import (
	"slices"
	"strings"
)

// maskKind says which part of an option's value is the secret.
type maskKind uint8

const (
	maskWhole        maskKind = iota // the whole value
	maskAfterColon                   // user:SECRET; nothing without a ':' (curl -u alice)
	maskAfterColonOr                 // user:SECRET, or the whole value without a ':'
	maskAfterLast                    // file.pem:SECRET, after the last ':'
	maskAfterPercent                 // user%SECRET (smbclient -U)
	maskAfterEq                      // name=SECRET; nothing without a '=' (curl -b file)
	maskPassPrefix                   // pass:SECRET (openssl); env:, file:, fd: and stdin name no secret
)

// optRule is an option whose value is a secret.
type optRule struct {
	names []string
	kind  maskKind
	// glued: -pSECRET works too (single-dash names only); gluedOnly: only
	// that form, "-p X" does not take X (mysql prompts, X is the database).
	glued, gluedOnly bool
	// when, if set, lists alternatives of space-separated words that must
	// all be among the program's words for the rule to hold ("login").
	when []string
}

// progSpec is what redaction knows of a program's command line.
type progSpec struct {
	opts []optRule
	// values are options taking a value that is no secret (docker run -p
	// 8080:80, ssh -p 22): the value is skipped.
	values []string
	// flags are options with a secret-sounding name that take no value
	// (redis-cli --askpass prompts).
	flags []string
	// positional masks secret arguments (htpasswd -b FILE USER PASSWORD).
	positional func(a *analyzer, words []word, pos []int)
	// consumes reports whether the command reads a secret on its standard
	// input (sudo -S, docker login --password-stdin).
	consumes func(words []word, pos []int) bool
	// need lists lower-case literals of which the text must hold one for
	// the program's rules to matter; nil means always.
	need []string
	// wraps: the first argument that is not an option is another command
	// (sudo, sshpass), which the program's rules do not cover.
	wraps bool
}

func (p *progSpec) rule(name string, words []word) (optRule, bool) {
	for _, r := range p.opts {
		if !r.gluedOnly && slices.Contains(r.names, name) && r.holds(words) {
			return r, true
		}
	}
	return optRule{}, false
}

// gluedRule finds a rule for -pSECRET; n is the length of the option name.
func (p *progSpec) gluedRule(v string, words []word) (r optRule, n int, ok bool) {
	if len(v) < 3 || v[1] == '-' {
		return optRule{}, 0, false
	}
	for _, r := range p.opts {
		if !r.glued && !r.gluedOnly {
			continue
		}
		for _, name := range r.names {
			if len(name) >= 2 && name[1] != '-' && len(v) > len(name) && strings.HasPrefix(v, name) && r.holds(words) {
				return r, len(name), true
			}
		}
	}
	return optRule{}, 0, false
}

func (r optRule) holds(words []word) bool {
	if len(r.when) == 0 {
		return true
	}
	for _, alt := range r.when {
		all := true
		for w := range strings.FieldsSeq(alt) {
			if !hasWord(words, w) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// takesValue reports whether option name (no '=' in the word) is followed
// by its value.
func (p *progSpec) takesValue(name string, words []word) bool {
	if p != nil {
		if _, ok := p.rule(name, words); ok {
			return true
		}
		if slices.Contains(p.flags, name) {
			return false
		}
		if slices.Contains(p.values, name) {
			return true
		}
	}
	return secretOption(name)
}

func hasWord(words []word, s string) bool {
	for _, w := range words {
		if w.val == s {
			return true
		}
	}
	return false
}

// isOption reports whether a word is an option: "-x", "--name", "-name".
func isOption(w word) bool {
	return len(w.val) > 1 && w.val[0] == '-' && w.val != "--"
}

// secretOption reports whether an option's name names a secret: a long
// option (--token, --api-key, --client-secret) or a single-dash word
// option (-password, -token) whose words say so.
func secretOption(name string) bool {
	switch {
	case strings.HasPrefix(name, "--"):
		return classifyName(name[2:]) == nameSecret
	case len(name) >= 5 && name[0] == '-':
		return classifyName(name[1:]) == nameSecret
	}
	return false
}

// pathValue reports whether an option value is a path or a file reference,
// which a key or credential option often takes (--private-key ~/.ssh/id).
func pathValue(v string) bool {
	for _, p := range []string{"/", "./", "../", "~/", "@"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// holdsValueWord reports whether an option name says its value itself is
// the secret (a password, a token) rather than where one lives.
func holdsValueWord(name string) bool {
	for _, w := range []string{"pass", "pw", "token", "secret", "auth"} {
		if indexFold(name, w) >= 0 {
			return true
		}
	}
	return false
}

// basename returns the program name of a command word.
func basename(w word) string {
	if w.dyn != nil || w.val == "" {
		return ""
	}
	v := w.val
	if i := strings.LastIndexByte(v, '/'); i >= 0 {
		v = v[i+1:]
	}
	return v
}

// programOf returns what is known of the program a word names.
func programOf(w word) *progSpec {
	if isOption(w) {
		return nil
	}
	return programs()[basename(w)]
}

// segment is a program and its arguments within a simple command.
type segment struct {
	spec  *progSpec
	words []word
}

// segments splits a command's words at every word that names a known
// program (sudo -u root mysql -p…, sshpass -p X ssh …, kubectl exec pod
// -- redis-cli -a …), skipping option values so that the user "docker" of
// docker login -u docker is not taken for a program.
func segments(args []word) []segment {
	var segs []segment
	cur := segment{}
	from := 0
	for i := 0; i < len(args); i++ {
		w := args[i]
		if isOption(w) {
			name, _, eq := strings.Cut(w.val, "=")
			if !eq && cur.spec.takesValue(name, args[from:]) {
				i++
			}
			continue
		}
		if spec := programOf(w); spec != nil || cur.spec != nil && cur.spec.wraps {
			cur.words = args[from:i]
			segs = append(segs, cur)
			cur, from = segment{spec: spec}, i+1
		}
	}
	cur.words = args[from:]
	return append(segs, cur)
}

// positionals returns the indexes of the words of seg that are not options
// or option values.
func (seg segment) positionals() []int {
	var pos []int
	for j := 0; j < len(seg.words); j++ {
		w := seg.words[j]
		if isOption(w) {
			name, _, eq := strings.Cut(w.val, "=")
			if !eq && j+1 < len(seg.words) && !isOption(seg.words[j+1]) && seg.spec.takesValue(name, seg.words) {
				j++
			}
			continue
		}
		if w.val != "--" {
			pos = append(pos, j)
		}
	}
	return pos
}

// check applies the rules to the commands of one text.
func (a *analyzer) check(cmds []*simpleCmd) {
	for _, c := range cmds {
		for _, as := range c.assigns {
			if secretEnvName(as.name) {
				a.maskFrom(as.val, 0)
			}
		}
		for _, seg := range segments(c.args) {
			a.segment(seg)
		}
	}
	for _, c := range cmds {
		if consumesSecret(c) {
			for _, w := range c.stdin {
				a.maskFrom(w, 0)
			}
			a.producers(c, 0)
		}
	}
}

// segment masks the secrets among one program's words.
func (a *analyzer) segment(seg segment) {
	spec, words := seg.spec, seg.words
	for j := 0; j < len(words); j++ {
		w := words[j]
		if !isOption(w) {
			a.envPair(w) // env NAME=VALUE, make NAME=VALUE
			continue
		}
		name, _, hasEq := strings.Cut(w.val, "=")
		valueAt := len(name) + 1
		next := func() (word, bool) {
			if j+1 < len(words) && !isOption(words[j+1]) {
				j++
				return words[j], true
			}
			return word{}, false
		}
		if spec != nil {
			if r, ok := spec.rule(name, words); ok {
				if hasEq {
					a.maskKind(w, valueAt, r.kind)
				} else if v, ok := next(); ok {
					a.maskKind(v, 0, r.kind)
				}
				continue
			}
			if r, n, ok := spec.gluedRule(w.val, words); ok {
				a.maskKind(w, n, r.kind)
				continue
			}
			if slices.Contains(spec.flags, name) {
				continue
			}
			if slices.Contains(spec.values, name) {
				if !hasEq {
					if v, ok := next(); ok {
						a.envPair(v) // docker run -e NAME=VALUE
					}
				}
				continue
			}
		}
		if !secretOption(name) {
			continue
		}
		if hasEq {
			if !pathValue(w.val[valueAt:]) || holdsValueWord(name) {
				a.maskFrom(w, valueAt)
			}
		} else if v, ok := next(); ok && (!pathValue(v.val) || holdsValueWord(name)) {
			a.maskFrom(v, 0)
		}
	}
	if spec != nil && spec.positional != nil {
		spec.positional(a, words, seg.positionals())
	}
}

// envPair masks the value of NAME=VALUE when NAME holds a secret.
func (a *analyzer) envPair(w word) {
	if eq := strings.IndexByte(w.val, '='); eq > 0 && isEnvName(w.val[:eq]) && secretEnvName(w.val[:eq]) {
		a.maskFrom(w, eq+1)
	}
}

// maskKind masks the secret part of option value w.val[from:].
func (a *analyzer) maskKind(w word, from int, kind maskKind) {
	if from > len(w.val) {
		return
	}
	v := w.val[from:]
	switch kind {
	case maskWhole:
		a.maskFrom(w, from)
	case maskAfterColon, maskAfterColonOr:
		if k := strings.IndexByte(v, ':'); k >= 0 {
			a.maskFrom(w, from+k+1)
		} else if kind == maskAfterColonOr {
			a.maskFrom(w, from)
		}
	case maskAfterLast:
		if k := strings.LastIndexByte(v, ':'); k > 1 {
			a.maskFrom(w, from+k+1)
		}
	case maskAfterPercent:
		if k := strings.IndexByte(v, '%'); k >= 0 {
			a.maskFrom(w, from+k+1)
		}
	case maskAfterEq:
		if k := strings.IndexByte(v, '='); k >= 0 {
			a.maskFrom(w, from+k+1)
		}
	case maskPassPrefix:
		if strings.HasPrefix(v, "pass:") {
			a.maskFrom(w, from+len("pass:"))
		}
	}
}

// consumesSecret reports whether c reads a secret on its standard input.
func consumesSecret(c *simpleCmd) bool {
	for _, seg := range segments(c.args) {
		if seg.spec != nil && seg.spec.consumes != nil && seg.spec.consumes(seg.words, seg.positionals()) {
			return true
		}
	}
	return false
}

// producers masks what the commands piped into c write: the arguments of
// echo and printf, the here-documents and here-strings fed to cat, passing
// through filters such as base64 -d.
func (a *analyzer) producers(c *simpleCmd, depth int) {
	if depth > 4 {
		return
	}
	for _, p := range c.from {
		for i, w := range p.args {
			if a.produce(p, basename(w), p.args[i+1:], depth) {
				break
			}
		}
	}
}

// produce masks what program name writes with args, and reports whether
// it is a program that writes its arguments or its input.
func (a *analyzer) produce(p *simpleCmd, name string, args []word, depth int) bool {
	switch name {
	case "echo":
		for len(args) > 0 && isEchoFlag(args[0].val) {
			args = args[1:]
		}
		for _, w := range args {
			a.maskFrom(w, 0)
		}
	case "printf":
		if len(args) > 1 && args[0].val == "-v" {
			args = args[2:]
		}
		if len(args) > 1 {
			args = args[1:] // keep the format
		}
		for _, w := range args {
			a.maskFrom(w, 0)
		}
	case "cat", "base64", "tr", "head", "tail", "xxd", "tee", "sed":
		for _, w := range p.stdin {
			a.maskFrom(w, 0)
		}
		a.producers(p, depth+1)
	default:
		return false
	}
	return true
}

func isEchoFlag(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if strings.IndexByte("neE", s[i]) < 0 {
			return false
		}
	}
	return true
}

// posVal returns the value of positional k, or "".
func posVal(words []word, pos []int, k int) string {
	if k < len(pos) {
		return words[pos[k]].val
	}
	return ""
}

// maskPos masks positional k when it exists.
func (a *analyzer) maskPos(words []word, pos []int, k int) {
	if k >= 0 && k < len(pos) {
		a.maskFrom(words[pos[k]], 0)
	}
}

// startsWith reports whether the first positionals are the given words.
func startsWith(words []word, pos []int, subcommand ...string) bool {
	for k, s := range subcommand {
		if !strings.EqualFold(posVal(words, pos, k), s) {
			return false
		}
	}
	return true
}

// setter masks the value of a secret key set with "config set KEY VALUE"
// or "config set KEY=VALUE" after one of the subcommands given.
func setter(subcommands ...[]string) func(a *analyzer, words []word, pos []int) {
	return func(a *analyzer, words []word, pos []int) {
		for _, sub := range subcommands {
			if startsWith(words, pos, sub...) {
				a.setKeys(words, pos, len(sub))
				return
			}
		}
	}
}

// setKeys masks, among positionals from k on, the value after each key
// that names a secret.
func (a *analyzer) setKeys(words []word, pos []int, k int) {
	for ; k < len(pos); k++ {
		key := words[pos[k]].val
		if eq := strings.IndexByte(key, '='); eq > 0 {
			if secretConfigKey(key[:eq]) {
				a.maskFrom(words[pos[k]], eq+1)
			}
			continue
		}
		if secretConfigKey(key) && k+1 < len(pos) {
			a.maskPos(words, pos, k+1)
			k++
		}
	}
}

// secretConfigKey reports whether a configuration key names a secret, by
// its last component: //registry.npmjs.org/:_authToken, github.token,
// profile.prod.aws_secret_access_key.
func secretConfigKey(key string) bool {
	if i := strings.LastIndexAny(key, ":./"); i >= 0 && i+1 < len(key) {
		key = key[i+1:]
	}
	return secretKeyName(key)
}

// maskValues masks the value of every NAME=VALUE positional from k on.
func (a *analyzer) maskValues(words []word, pos []int, k int) {
	for ; k < len(pos); k++ {
		w := words[pos[k]]
		if eq := strings.IndexByte(w.val, '='); eq > 0 {
			a.maskFrom(w, eq+1)
		}
	}
}

// shortCluster reports whether a single-dash option word holds letter c.
func shortCluster(words []word, c byte) bool {
	for _, w := range words {
		if len(w.val) > 1 && w.val[0] == '-' && w.val[1] != '-' && strings.IndexByte(w.val[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// beforeCommand reports whether a wrapper's options before its command
// hold the option word opt or a cluster with letter c (sudo -kS).
func beforeCommand(words []word, pos []int, long string, c byte) bool {
	end := len(words)
	if len(pos) > 0 {
		end = pos[0]
	}
	for _, w := range words[:end] {
		if w.val == long || len(w.val) > 1 && w.val[0] == '-' && w.val[1] != '-' && strings.IndexByte(w.val[1:], c) >= 0 {
			return true
		}
	}
	return false
}

// mayHoldCommandSecret is the cheap test before reading text as commands:
// some word is an option whose name sounds secret, or names a program
// whose rules could apply to this text.
func mayHoldCommandSecret(s, lower string) bool {
	var checked [4]int // entries whose need failed; most texts name few programs
	n := 0
	for i := 0; i < len(s); {
		for i < len(s) && isWordBreak(s[i]) {
			i++
		}
		start := i
		for i < len(s) && !isWordBreak(s[i]) {
			i++
		}
		if start == i {
			continue
		}
		tok := s[start:i]
		if tok[0] == '-' {
			if mayNameSecret(tok) {
				return true
			}
			continue
		}
		if k := strings.LastIndexByte(tok, '/'); k >= 0 {
			tok = tok[k+1:]
		}
		at, known := programNeedAt(tok)
		if !known || slices.Contains(checked[:n], at) {
			continue
		}
		if needMet(programNeeds[at].need, lower) {
			return true
		}
		if n < len(checked) {
			checked[n] = at
			n++
		}
	}
	return false
}

// programNeedEntry is one program's literal filter (progSpec.need).
type programNeedEntry struct {
	name string
	need []string
}

// programNeedAt finds a program redaction knows in programNeeds. Every
// word of a text is looked up, so most lookups are of words that name no
// program: the length of the name and its first byte rule most of them out
// (programLens), and the rest are compared with the few names that start
// with the same byte (programFirst).
func programNeedAt(name string) (int, bool) {
	if name == "" || len(name) >= 32 || programLens[name[0]]&(1<<len(name)) == 0 {
		return 0, false
	}
	for i := int(programFirst[name[0]]); i < int(programFirst[int(name[0])+1]); i++ {
		if programNeeds[i].name == name {
			return i, true
		}
	}
	return 0, false
}

// needMet reports whether lower holds one of the literals need lists (a
// nil need always holds).
func needMet(need []string, lower string) bool {
	if need == nil {
		return true
	}
	for _, n := range need {
		if strings.Contains(lower, n) {
			return true
		}
	}
	return false
}

// isWordBreak reports whether c ends a word of a command for the cheap
// test: blanks, NUL, the shell's operators and quotes, '=', '$', braces
// and ','.
func isWordBreak(c byte) bool { return wordBreaks.has(c) }
