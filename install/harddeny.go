package install

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/hook"
)

// Most agents run a call when toolguard's hook crashes, hangs or answers
// something else. Where an agent has deny rules of its own, install
// writes toolguard's hard denies into them — the calls the policy denies
// in every mode — so the worst calls stay refused then. Every agent's
// rules are generated from the one list below (hardCommands, secretDirs,
// toolguardConfigDir and the agent's settings files, hook.SettingsGlobs),
// never written by hand, so that they stay in step; TestBackstopsInStep
// checks each rendering against the list and against the policy.

// wipe is a family of shell commands the backstops refuse: each program,
// with each flag spelling (if any), on each target (if any).
type wipe struct {
	programs, flags, targets []string
	// Why is the backstop's reason, after "toolguard's backstop: ".
	Why string
}

// hardCommands are the commands every backstop refuses: deleting the root
// or a home directory, and making a filesystem.
var hardCommands = []wipe{
	{programs: []string{"rm"}, flags: []string{"-rf", "-fr", "-Rf", "-fR"}, targets: []string{"/", "/*", "~", "~/", "$HOME"},
		Why: "deleting the root or a home directory destroys every file in it."},
	{programs: []string{"mkfs", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat"},
		Why: "making a filesystem destroys what the device held."},
}

// commands lists the family's commands, each as its words.
func (w wipe) commands() [][]string {
	out := [][]string{nil}
	for _, alts := range [][]string{w.programs, w.flags, w.targets} {
		if len(alts) == 0 {
			continue
		}
		var next [][]string
		for _, prefix := range out {
			for _, a := range alts {
				next = append(next, append(append([]string(nil), prefix...), a))
			}
		}
		out = next
	}
	return out
}

// hardCommandLines are hardCommands' commands as command lines.
func hardCommandLines() []string {
	var out []string
	for _, w := range hardCommands {
		for _, c := range w.commands() {
			out = append(out, strings.Join(c, " "))
		}
	}
	return out
}

// secretDirs are the directories below the home directory whose files the
// backstops neither let be read nor written: SSH, AWS and GnuPG keys.
var secretDirs = []string{"~/.ssh", "~/.aws", "~/.gnupg"}

// toolguardConfigDir is toolguard's configuration, which the backstops do
// not let be written.
const toolguardConfigDir = "~/.config/toolguard"

// protectedGlobs are the files the backstops of agent do not let be
// written: its own settings files (home and project ones; hook.SettingsGlobs)
// and toolguard's configuration, as globs where "~" is the home directory,
// "**/" any project directory and a trailing "/**" everything below.
func protectedGlobs(agent string) []string {
	var out []string
	for _, g := range hook.SettingsGlobs(agent) {
		if strings.HasPrefix(g, "~/") || strings.HasPrefix(g, "**/") {
			out = append(out, g)
		}
	}
	return append(out, toolguardConfigDir+"/**")
}

// claudeRules renders the hard denies in Claude Code's permission rule
// syntax (code.claude.com/docs/en/permissions), which Qwen Code reads too:
// Bash(CMD) and Bash(CMD *) for each command, Read and Edit of the secret
// directories, Edit of the agent's settings and toolguard's configuration
// (a project glob "**/X" is written "./X", the project's own).
func claudeRules(agent string) []string {
	var out []string
	for _, d := range secretDirs {
		out = append(out, "Read("+d+"/**)", "Edit("+d+"/**)")
	}
	for _, g := range protectedGlobs(agent) {
		if rest, ok := strings.CutPrefix(g, "**/"); ok {
			g = "./" + rest
		}
		out = append(out, "Edit("+g+")")
	}
	for _, c := range claudeCommands() {
		out = append(out, "Bash("+c+")", "Bash("+c+" *)")
	}
	return out
}

// claudeCommands are the hard-deny commands Claude Code's rule syntax can
// hold: it reads "*" as a wildcard, so `Bash(rm -rf /*)` would refuse
// `rm -rf /tmp/build` too; a command with a literal "*" is left out (the
// root wipe it spells is held by `Bash(rm -rf / *)` and the hook).
func claudeCommands() []string {
	var out []string
	for _, c := range hardCommandLines() {
		if !strings.Contains(c, "*") {
			out = append(out, c)
		}
	}
	return out
}

// droidBlocklist renders the hard denies as Factory Droid's
// commandBlocklist: commands it never runs, not even when its permissions
// are skipped. Droid reads a pattern whose last word starts with "/" or
// "~" as that path or any path below it (its `rm -rf /` entry would refuse
// `rm -rf /tmp/build` for good), so those commands are left to Droid's own
// default commandDenylist, which asks; the others are written.
func droidBlocklist() []string {
	var out []string
	for _, c := range hardCommandLines() {
		words := strings.Fields(c)
		if last := words[len(words)-1]; len(words) > 1 && (strings.HasPrefix(last, "/") || strings.HasPrefix(last, "~")) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// tomlStrings renders strings as a TOML array of basic strings.
func tomlStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// geminiSecretPattern is the regular expression (Gemini CLI's argsPattern,
// matched against the call's arguments as JSON) of a path in a secret
// directory.
func geminiSecretPattern() string {
	var alts []string
	for _, d := range secretDirs {
		alts = append(alts, regexp.QuoteMeta(strings.TrimPrefix(d, "~"))+"/")
	}
	return strings.Join(alts, "|")
}

// geminiProtectedPattern is the regular expression of a path of the
// agent's settings or toolguard's configuration.
func geminiProtectedPattern(agent string) string {
	var alts []string
	seen := map[string]bool{}
	for _, g := range protectedGlobs(agent) {
		g = strings.TrimPrefix(strings.TrimPrefix(g, "~"), "**")
		if !strings.HasPrefix(g, "/") {
			g = "/" + g
		}
		re := regexp.QuoteMeta(g)
		if rest, ok := strings.CutSuffix(g, "/**"); ok {
			re = regexp.QuoteMeta(rest) + "/"
		}
		if !seen[re] {
			seen[re] = true
			alts = append(alts, re)
		}
	}
	return strings.Join(alts, "|")
}

// codexPattern renders a family as the pattern of a Codex prefix_rule: a
// list of words, each a string or a list of alternatives.
func codexPattern(w wipe) string {
	var parts []string
	for _, alts := range [][]string{w.programs, w.flags, w.targets} {
		switch len(alts) {
		case 0:
		case 1:
			parts = append(parts, strconv.Quote(alts[0]))
		default:
			parts = append(parts, tomlStrings(alts))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
