package policy

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// analyseShell parses the command and judges every simple command (DESIGN
// §4 step 6; its paths and URLs go through step 5).
func (e *evaluation) analyseShell() {
	s, _ := shell.Parse(e.c.Command, shell.Options{Home: e.p.home, Env: e.shellEnv()})
	if s == nil {
		s = &shell.Script{Source: e.c.Command, Problems: []shell.Problem{{Reason: "the command could not be parsed"}}}
	}
	e.script = s
	e.tier = risk.Read
	if e.c.TierSet {
		e.tier = e.c.Tier
	}
	for _, pr := range s.Problems {
		e.add(unverifiable(pr))
	}
	for _, cmd := range s.Commands {
		e.analyseCommand(cmd)
	}
}

func (e *evaluation) shellEnv() map[string]string {
	env := map[string]string{"HOME": e.p.home, "TMPDIR": os.TempDir()}
	if d := e.c.Dir(); d != "" {
		env["PWD"] = d
	}
	return env
}

func unverifiable(pr shell.Problem) risk.Finding {
	return risk.Finding{Rule: "shell.unverifiable", Category: risk.CatUnverifiable, Tier: risk.Execute,
		Blast: risk.BlastUnknown, Verdict: risk.Ask, Unverifiable: true, Span: pr.Span,
		Reason:     "Part of the command cannot be known before it runs: " + pr.Reason + ".",
		Suggestion: "spell the command out literally so it can be checked"}
}

func (e *evaluation) analyseCommand(cmd *shell.Command) {
	e.env.Commands = append(e.env.Commands, normalized(cmd))
	e.env.Names = append(e.env.Names, cmd.Name)
	r := e.p.rules.Classify(cmd)
	e.add(r.Findings...)
	e.tier = e.tier.Worse(r.Tier)
	e.policyChecks(cmd)
	if cmd.Remote == "" {
		e.commandPaths(cmd, r.Paths)
		e.secretOperands(cmd, r.Paths)
		e.inlineDeletes(cmd, r.Findings)
	}
	e.commandURLs(r.URLs)
}

// policyChecks applies the policy's own command lists to one command.
func (e *evaluation) policyChecks(cmd *shell.Command) {
	p := e.p
	if cmd.Name == "" {
		return
	}
	if f, ok := selfProtection(cmd); ok {
		e.add(f)
	}
	if p.highRisk[cmd.Name] && e.tier < risk.Execute {
		e.tier = risk.Execute
	}
	if !p.allowed.permits(cmd) {
		e.add(commandFinding(cmd, "commands.not-allowed",
			fmt.Sprintf("%s is not in the policy's allowed commands.", cmd.Name), risk.Deny, risk.CatToolGate))
	} else if p.allowed.set && !p.allowed.wildcard {
		if arg := zeroClawArgRule(cmd); arg != "" {
			e.add(commandFinding(cmd, "commands.argument",
				fmt.Sprintf("%s %s can run arbitrary code and is refused under an allowed-commands list.", cmd.Name, arg), risk.Deny, risk.CatRemoteCode))
		}
	}
	for _, d := range p.denied {
		if d.matches(cmd) {
			e.add(commandFinding(cmd, "commands.denied",
				fmt.Sprintf("The command matches the denied command pattern %q.", d.text), risk.Deny, risk.CatNone))
		}
	}
	text := normalized(cmd)
	for _, re := range p.custom {
		if re.MatchString(text) {
			e.add(commandFinding(cmd, "commands.custom-pattern",
				fmt.Sprintf("The command matches the custom pattern %q.", re.String()[4:]), risk.Ask, risk.CatNone))
		}
	}
}

// selfProtection denies commands that would switch toolguard off.
func selfProtection(cmd *shell.Command) (risk.Finding, bool) {
	args := cmd.Values()
	switch {
	case isToolguard(cmd.Name) && len(args) > 1 && (args[1] == "uninstall" || args[1] == "install"):
		return selfFinding(cmd, "Changing toolguard's hook installation from inside an agent is not allowed."), true
	case isToolguard(cmd.Name) && len(args) > 1 && args[1] == "__relay":
		return selfFinding(cmd, "Starting toolguard's hook relay daemon from inside an agent is not allowed; the toolguard launcher starts it."), true
	case (cmd.Name == "pkill" || cmd.Name == "killall") && (containsWord(args[1:], "toolguard") || containsWord(args[1:], "toolguard-engine")):
		return selfFinding(cmd, "Stopping toolguard from inside an agent is not allowed."), true
	}
	return risk.Finding{}, false
}

// isToolguard names the launcher and the engine it runs.
func isToolguard(name string) bool { return name == "toolguard" || name == "toolguard-engine" }

func selfFinding(cmd *shell.Command, reason string) risk.Finding {
	return risk.Finding{Rule: "self.protect", Category: risk.CatSelfProtection, Tier: risk.Destructive,
		Blast: risk.BlastHigh, Verdict: risk.Deny, Reason: reason, Span: cmd.Span, Subject: normalized(cmd),
		Suggestion: "a person can run this in their own terminal"}
}

func containsWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

func (e *evaluation) commandPaths(cmd *shell.Command, refs []rules.PathRef) {
	dir := e.commandDir(cmd)
	e.removesOperand = removers[cmd.Name]
	defer func() { e.removesOperand = false }()
	for _, ref := range refs {
		access, err := paths.ParseAccess(ref.Access)
		if err != nil {
			access = paths.Delete // unknown access: judge as the worst
		}
		if !ref.Word.Known {
			if access != paths.Read {
				e.add(unknownPath(cmd, ref, access))
			}
			continue
		}
		e.checkPath(ref.Word.Value, access, dir)
	}
}

// commandDir is where a command runs: its `cd` target, else the call's.
func (e *evaluation) commandDir(cmd *shell.Command) string {
	if cmd.Dir.Value == "" {
		return ""
	}
	if !cmd.Dir.Known {
		return noWorkspace + "/unknown-cd"
	}
	d := cmd.Dir.Value
	if !filepath.IsAbs(d) {
		d = filepath.Join(e.pathEnv("").Cwd, d)
	}
	return d
}

// removers are the commands whose delete operands are removed themselves
// (rather than searched, like find -delete).
var removers = map[string]bool{"rm": true, "rmdir": true, "unlink": true, "shred": true, "srm": true,
	"mv": true, "trash": true, "trash-put": true, "gio": true, "wipe": true}

func unknownPath(cmd *shell.Command, ref rules.PathRef, access paths.Access) risk.Finding {
	return risk.Finding{Rule: "shell.unknown-path", Category: risk.CatUnverifiable, Tier: accessTier(access),
		Blast: risk.BlastUnknown, Verdict: risk.Ask, Unverifiable: true, Span: ref.Word.Span, Subject: ref.Word.Value,
		Reason:     fmt.Sprintf("%s would %s %s, which is not known before the command runs.", cmd.Name, access, ref.Word.Value),
		Suggestion: "use a literal path"}
}

func accessTier(a paths.Access) risk.Tier {
	switch a {
	case paths.Read:
		return risk.Read
	case paths.Delete:
		return risk.Destructive
	}
	return risk.Write
}

func (e *evaluation) commandURLs(words []shell.Word) {
	for _, w := range words {
		if !w.Known {
			continue
		}
		if strings.Contains(w.Value, "/") {
			e.checkURL(e.p.cmdNet, w.Value)
			continue
		}
		e.add(e.p.cmdNet.CheckHost(e.ctx, w.Value)...)
		e.env.Hosts = append(e.env.Hosts, w.Value)
	}
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// dataCommands only print or test their arguments; a path among them is
// text, not a file that is read.
var dataCommands = map[string]bool{"echo": true, "printf": true, ":": true, "true": true, "false": true,
	"test": true, "[": true, "basename": true, "dirname": true, "which": true, "type": true, "command": true}

// secretOperands judges every other argument that looks like a path as
// read: whatever a command does with ~/.ssh or .env (archive it, encode
// it, copy it to a host), a denied path stays denied even when the rule
// packs do not know that command's operands (tar czf - ~/.ssh | nc …).
// Only denials count here, so unknown commands do not start to nag.
func (e *evaluation) secretOperands(cmd *shell.Command, known []rules.PathRef) {
	if dataCommands[cmd.Name] {
		return
	}
	seen := map[string]bool{}
	for _, ref := range known {
		seen[ref.Word.Value] = true
	}
	env := e.pathEnv(e.commandDir(cmd))
	for _, w := range cmd.Args() {
		v := strings.TrimPrefix(w.Value, "@") // curl -d @file
		if !w.Known || seen[v] || !looksLikePath(v) {
			continue
		}
		for _, f := range e.p.paths.Check(v, paths.Read, env) {
			if f.Rule == paths.RuleDenied {
				e.add(f)
			}
		}
	}
}

func looksLikePath(v string) bool {
	if v == "" || v[0] == '-' || strings.Contains(v, "://") {
		return false
	}
	return v[0] == '/' || v[0] == '~' || v[0] == '.' || strings.Contains(v, "/")
}
