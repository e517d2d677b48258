package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// The evaluation is the judge of package analysis: the analysis follows
// what the call's code does and reports each effect here, in order, and
// these methods weigh it against the policy — the command lists, the
// path and URL rules, toolguard's own files, processes and ports — adding
// their findings to the call's list and recording what user rules see.

var _ analysis.Judge = (*evaluation)(nil)

// Command judges one simple command with what the rule packs say of it
// and the policy's own command lists.
func (e *evaluation) Command(c analysis.Command) {
	cmd, r := c.Cmd, &c.Result
	e.beginRecord(cmd)
	if e.cur >= 0 {
		e.records[e.cur].reads = provenRead(r)
	}
	e.env.Commands = append(e.env.Commands, "") // its text once a condition asks: commandTexts
	e.env.Names = append(e.env.Names, cmd.Name)
	fs, tier := e.filledOutputs(cmd, e.declaredInstalls(cmd, e.withoutPublicFiles(cmd, r.Findings, c.Dir), c.Dir), r.Tier, c.Dir)
	if img := e.withoutImageDisks(cmd, fs, c.Dir); len(img) < len(fs) {
		fs, tier = img, keptTier(img)
	}
	if kept, dropped := e.withoutOutputInlineDeletes(cmd, fs, c.Dir); dropped {
		fs, tier = kept, keptTier(kept)
	}
	fs, tier = e.projectDeletes(cmd, fs, tier, c.Dir)
	fs, tier = e.sessionOwnDeletes(cmd, fs, tier, c.Dir)
	e.noteFills(cmd, c.Dir)
	e.add(fs...)
	e.raise(tier)
	e.effects = e.effects.Worse(tier)
	if e.an.Settled() {
		return // the policy's own checks cannot change the decision
	}
	e.policyChecks(cmd, provenRead(r), c.Dir)
	if r.Network || len(r.URLs) > 0 {
		e.tokensSent(cmd)
	}
	if cmd.Remote != "" {
		e.remoteSecrets(cmd, r.Paths)
	} else if key, value, ok := gitConfigSetting(cmd); ok {
		e.persistedSetting(key, value) // git config --global core.fsmonitor 'curl … | sh'
	}
}

// provenRead reports whether the effect model proves a command read-only:
// it only prints its usage, or every word is accounted for and it only
// reads (a remote read included: curl -sI URL, nc -z HOST PORT). Such a
// command is the read tier even when its executable is one of ZeroClaw's
// high-risk ones.
func provenRead(r *rules.Result) bool {
	return r.HelpOnly || r.Proven && r.Tier == risk.Read
}

// withoutPublicFiles drops the rule packs' secret-read findings about a
// file that holds only public PEM blocks (cat certs/server.pem: the packs
// judge *.pem by its name; a certificate or a public key is not a secret).
//
// The packs' list itself (clipped: an append moves it) when it drops
// none, as for almost every command: the list is the rule packs' answer,
// which the call's memo of answers may share, so nothing writes its
// elements (see analysis' classEntry), and a copy of it for each command
// of a script was most of what judging one allocated.
func (e *evaluation) withoutPublicFiles(cmd *shell.Command, fs []risk.Finding, dir string) []risk.Finding {
	var out []risk.Finding
	for i, f := range fs {
		if f.Category == risk.CatSecretRead && f.Tier == risk.Read && e.publicOperand(cmd, f.Span, dir) {
			if out == nil {
				out = append(make([]risk.Finding, 0, len(fs)-1), fs[:i]...)
			}
			continue
		}
		if out != nil {
			out = append(out, f)
		}
	}
	if out == nil {
		return slices.Clip(fs)
	}
	return out
}

// publicOperand reports whether the operand of cmd at span is a file that
// holds only public PEM blocks.
func (e *evaluation) publicOperand(cmd *shell.Command, span risk.Span, dir string) bool {
	for _, w := range cmd.Argv {
		if w.Span != span || !w.Known || span.IsZero() || !e.spend(pathCost) {
			continue
		}
		cp, err := paths.Canonicalize(w.Value, e.pathEnv(dir), e.p.home)
		return err == nil && paths.PublicPEMFile(cp.Resolved)
	}
	return false
}

// Done closes the record of the command Command began.
func (e *evaluation) Done(*shell.Command) { e.endRecord() }

// Path judges a file the code touches or names against the path rules.
func (e *evaluation) Path(p analysis.Path) {
	if e.an.Settled() {
		return // no judgement of it can change the decision
	}
	v := p.Word.Value
	switch p.Shape {
	case analysis.File:
		if p.FromTemplate && p.Access == paths.Write && (!p.IfAbsent || e.nothingAt(v, p.Dir)) {
			e.checkFromTemplate(v, p.Dir)
			return
		}
		e.checkPath(v, p.Access, p.Dir, p.Removes)
	case analysis.Glob:
		e.checkGlob(v, p.Access, p.Dir)
	case analysis.GlobTree:
		e.checkGlobTree(v, p.Access, p.Dir, p.Names)
	case analysis.Tree:
		e.checkTree(v, p.Access, p.Dir, p.Names, p.LeaveOut, p.Publish)
	case analysis.Wipe:
		e.wipe(v, p.Dir)
	case analysis.Mention:
		e.mention(p.Word, p.Dir)
	case analysis.Named: // names and metadata only: nothing to protect
		e.env.Paths = append(e.env.Paths, v)
	}
}

// mention judges a word that looks like a path where the rule packs do
// not say a file is: only a denial counts, so that commands toolguard
// does not know do not start to nag.
//
// The judgement depends only on the word, whether it is a glob and the
// directory (paths' findings carry no span), so it is made once per shell
// command line (judgePath: a repeat, like the "." of every grep -c . in a
// script, costs memoCost); mentionFindings is the judgement itself.
func (e *evaluation) mention(w shell.Word, dir string) {
	if e.afresh { // the reference: judged every time
		if e.spend(pathCost) {
			e.add(e.mentionFindings(w, dir)...)
		}
		return
	}
	kind := byte('m')
	if w.Glob && analysis.HasGlobMeta(w.Value) {
		kind = 'M'
	}
	e.judgePath(pathKey{kind: kind, v: w.Value, a: paths.Read, dir: dir}, pathCost, func() pathResult {
		return pathResult{fs: e.mentionFindings(w, dir)}
	})
}

// mentionFindings judges a mentioned word: the denials among its path
// findings (paths' Denials: the path judged against the denied lists
// alone), or among its glob's.
func (e *evaluation) mentionFindings(w shell.Word, dir string) []risk.Finding {
	v, env := w.Value, e.pathEnv(dir)
	if w.Glob && analysis.HasGlobMeta(v) && e.spend(globCost) {
		if prefix, rest := splitGlob(v); prefix != "" || rest != "" {
			if cp, err := paths.Canonicalize(cmpOr(prefix, "."), env, e.p.home); err == nil {
				var out []risk.Finding
				for _, f := range e.p.paths.CheckGlob(cp, rest, paths.Read, env) {
					if f.Rule == paths.RuleDenied {
						out = append(out, f)
					}
				}
				return out
			}
		}
	}
	return e.p.paths.Denials(v, paths.Read, env)
}

// URL judges a URL a command contacts with the commands' network rules.
func (e *evaluation) URL(w shell.Word) { e.checkURL(e.p.cmdNet, w.Value, w.Span) }

// Host judges a host a command contacts.
func (e *evaluation) Host(w shell.Word) {
	if !e.spend(urlCost) {
		return
	}
	e.add(e.p.cmdNet.CheckHost(e.ctx, w.Value)...)
	e.env.Hosts = append(e.env.Hosts, w.Value)
}

// Contact denies an address that reaches toolguard's approval server.
func (e *evaluation) Contact(c analysis.Contact) {
	if c.URL != "" {
		e.selfApproval(c.URL, c.Span)
		return
	}
	if ep, ok := netguard.HostPort(c.Host.Value, c.Port); ok && e.reachesApprovalServer(ep) {
		e.add(selfApproveFinding(c.Host.Value+":"+c.Port, c.Host.Span))
	}
}

// Serve judges a web server that serves the tree at root. One on the
// loopback address is what its command is (the execute tier), whatever
// the tree holds. One other machines can reach (public) is denied when the
// tree holds secrets or is the root, a home directory, a system directory
// or the project (the project's .git history and untracked files go with
// it: the adversarial corpus holds it to deny, after a reported theft).
func (e *evaluation) Serve(s analysis.Serve) {
	cmd := s.Cmd
	env := e.pathEnv(s.Dir)
	cp, err := paths.Canonicalize(s.Root, env, e.p.home)
	if err != nil {
		return
	}
	if !s.Public {
		return // a server on the loopback address: this machine's own programs only, the execute tier
	}
	fs := append(e.p.paths.CheckPath(cp, paths.Read, env), e.p.paths.CheckTree(cp, paths.Read, env)...)
	for _, f := range fs {
		if f.Verdict == risk.Deny && f.Rule == paths.RuleDenied {
			e.add(analysis.Critical("effects.serve-secrets", risk.CatExfiltration, cmd.Span, cp.Resolved,
				fmt.Sprintf("%s serves %s on %s, to every machine that can reach it, and it holds secrets: %s", cmd.Name, cp.Resolved, s.Addr, f.Reason),
				"serve only the directory with the files to share, and listen on 127.0.0.1"))
			return
		}
	}
	p := cp.Resolved
	exposed := fmt.Sprintf("%s serves %s on %s, to every machine that can reach it: the whole tree, with .git history, .env files and keys it may hold, is readable without a password.", cmd.Name, p, s.Addr)
	const narrower = "serve only the directory with the files to share (a build output such as dist/), and listen on 127.0.0.1"
	if p == "/" || p == "/home" || p == "/Users" || analysis.IsSystemDir(p) ||
		analysis.IsAncestorOrSelf(p, e.p.home) || analysis.IsAncestorOrSelf(p, env.Workspace) {
		e.add(analysis.Critical("effects.serve-exposed", risk.CatExfiltration, cmd.Span, p, exposed, narrower))
	}
}

// Install judges go install PKG@VERSION as the write of the program it
// installs: one named toolguard replaces toolguard itself.
func (e *evaluation) Install(i analysis.Install) bool {
	name := i.Name
	if name == "toolguard" || slices.ContainsFunc(e.p.selfPrograms, func(p string) bool { return path.Base(p) == name }) {
		e.add(risk.Finding{Rule: "self.protect", Category: risk.CatSelfProtection, Tier: risk.Destructive,
			Blast: risk.BlastHigh, Verdict: risk.Deny, Span: i.Cmd.Span, Subject: i.Word.Value,
			Reason:     fmt.Sprintf("go install %s writes a program named %s over toolguard's own.", i.Word.Value, name),
			Suggestion: "a person upgrades toolguard in their own terminal"})
		return false
	}
	if i.Bin.Value != "" {
		// a directory the command chose is judged as any write is
		e.checkPath(path.Join(i.Bin.Value, name), paths.Write, "", false)
		return true
	}
	e.installPath(path.Join(e.p.home, "go", "bin", name))
	return true
}

// installPath judges the program a package manager installs at p, in the
// tool's default directory (go install's ~/go/bin/NAME), against what the
// path rules protect and deny, but not against the workspace's bounds:
// the program goes where the tool always puts its programs, as cargo's
// and pip's do, and installing a tool is judged by the rule packs
// (pkg.tool-install asks for one the project does not build).
func (e *evaluation) installPath(p string) {
	e.judgePath(pathKey{kind: 'i', v: p, a: paths.Write}, pathCost, func() pathResult {
		env := e.pathEnv("")
		cp, err := paths.Canonicalize(p, env, e.p.home)
		if err != nil {
			return pathResult{fs: e.p.paths.Check(p, paths.Write, env), envPath: p, hasEnv: true, raises: true}
		}
		fs := slices.DeleteFunc(e.p.paths.CheckPath(cp, paths.Write, env), func(f risk.Finding) bool { return f.Rule == paths.RuleOutside })
		return pathResult{fs: fs, envPath: cp.Resolved, hasEnv: true, raises: true}
	})
}

// startupFiles are the files a shell runs when it starts.
var startupFiles = []string{".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile",
	".zlogin", ".kshrc", ".envrc", "config.fish"}

// sessionStartFile reports whether a shell or the user's session reads p
// when it starts: a shell's start-up file (startupFiles), a file of a
// directory of them (/etc/profile.d/*.sh, fish's conf.d/*.fish), or the
// variables every program of the next login gets (systemd's
// environment.d/*.conf, /etc/environment, ~/.pam_environment).
func sessionStartFile(p string) bool {
	base, dir := path.Base(p), path.Base(path.Dir(p))
	switch {
	case slices.Contains(startupFiles, base), base == ".pam_environment", p == "/etc/environment":
		return true
	case dir == "environment.d":
		return path.Ext(base) == ".conf"
	case dir == "profile.d":
		return path.Ext(base) == ".sh"
	case dir == "conf.d" && path.Base(path.Dir(path.Dir(p))) == "fish":
		return path.Ext(base) == ".fish"
	}
	return false
}

// Write denies writing text that names toolguard into a file a shell or
// the user's session reads when it starts (echo 'export
// TOOLGUARD_MODE=full' >> ~/.bashrc, alias toolguard=true,
// TOOLGUARD_MODE=full in ~/.config/environment.d): it weakens or disables
// the guard for every later session.
func (e *evaluation) Write(w analysis.Write) {
	if e.an.Settled() {
		return // nor can the code it persists
	}
	for _, t := range w.Targets {
		if t.Known {
			e.persisted(t.Value, e.an.Dir(w.Cmd), w.Text, "", false) // echo 'curl … | sh' >> ~/.bashrc
		}
	}
	if !strings.Contains(strings.ToLower(w.Text), "toolguard") {
		return
	}
	for _, t := range w.Targets {
		if sessionStartFile(t.Value) {
			e.add(risk.Finding{Rule: "self.protect", Category: risk.CatSelfProtection, Tier: risk.Destructive,
				Blast: risk.BlastHigh, Verdict: risk.Deny, Span: t.Span, Subject: t.Value,
				Reason:     fmt.Sprintf("Writing toolguard settings into %s, which every new shell or login session reads, changes the guard for later sessions.", t.Value),
				Suggestion: "a person changes toolguard's settings in its policy file"})
			return
		}
	}
}

// Raise raises the call's tier (on behalf of the command being analysed).
func (e *evaluation) Raise(t risk.Tier) { e.raise(t) }

// Call judges the call's commands together: signalling toolguard's own
// processes by any route, and processes found by name as pkill does.
func (e *evaluation) Call(r analysis.Report) {
	if !e.guardKillers(r.Commands) {
		e.nameKills(r.Commands)
	}
}

// tokensSent denies a command that reaches the network with a credential
// written out in its words or its standard input (curl -d
// 'token=ghp_…', a key pasted into an issue body): the secret goes to
// whatever the command contacts, which is the exfiltration DESIGN §3 holds
// critical in every mode. A variable ($GITHUB_TOKEN) is no literal and is
// judged by where it is read from.
func (e *evaluation) tokensSent(cmd *shell.Command) {
	for _, w := range cmd.Argv[min(1, len(cmd.Argv)):] {
		if w.Known && e.tokenSent(cmd, w.Value) {
			return
		}
	}
	if cmd.Stdin != nil && cmd.Stdin.Known {
		e.tokenSent(cmd, cmd.Stdin.Text)
	}
}

// tokenSent adds tokensSent's finding when text holds a credential, and
// reports whether it did (or the work budget ran out: nothing more is
// scanned).
func (e *evaluation) tokenSent(cmd *shell.Command, text string) bool {
	if !e.spend(tokenScanCost(len(text))) {
		return true
	}
	kind := risk.FindToken(text)
	if kind != "" {
		e.add(analysis.Critical("effects.secret-to-network", risk.CatExfiltration, cmd.Span, cmd.Name,
			fmt.Sprintf("%s reaches the network with a secret written into the command (%s): whatever it contacts receives it.", cmd.Name, kind),
			"pass the secret from the environment or a credential helper, never written into the command"))
	}
	return kind != ""
}

// nothingAt reports whether no file, directory or link is at the name p
// (in dir) when the call is judged: a copy there makes a new file and
// replaces nothing. A name whose links cannot be followed, or that lstat
// cannot answer for, is not known to be free.
func (e *evaluation) nothingAt(p, dir string) bool {
	if !e.spend(pathCost) {
		return false
	}
	cp, err := paths.Canonicalize(p, e.pathEnv(dir), e.p.home)
	if err != nil {
		return false
	}
	for _, name := range []string{cp.Literal, cp.Resolved} {
		if _, err := os.Lstat(name); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
	}
	return true
}

// checkFromTemplate judges a file made in the workspace from the project's
// template of it, never replacing one (analysis.Path.FromTemplate): the
// path rules judge the write, except that a file denied or sensitive as a
// secret store (one whose reading the rules deny: .env) is not stopped —
// nothing secret is read or destroyed, and the text is the project's own
// template. Reading such a file stays denied; a file outside the
// workspace, or protected for any other reason (an escape hatch, a
// protected or system path), is judged as any write.
func (e *evaluation) checkFromTemplate(p, dir string) {
	e.judgePath(pathKey{kind: 't', v: p, a: paths.Write, dir: dir}, pathCost, func() pathResult {
		env := e.pathEnv(dir)
		cp, err := paths.Canonicalize(p, env, e.p.home)
		if err != nil {
			return pathResult{fs: e.p.paths.Check(p, paths.Write, env), envPath: p, hasEnv: true, raises: true}
		}
		fs := e.p.paths.CheckPath(cp, paths.Write, env)
		ws := strings.TrimSuffix(env.Workspace, "/")
		secret := e.p.paths.Unreadable(cp.Resolved) || e.p.paths.Unreadable(path.Dir(cp.Resolved)) // NAME, or NAME/TEMPLATE when NAME is a directory
		if ws == "" || !strings.HasPrefix(cp.Resolved, ws+"/") || !secret {
			return pathResult{fs: fs, envPath: cp.Resolved, hasEnv: true, raises: true}
		}
		kept := fs[:0:0]
		for _, f := range fs {
			if f.Rule != paths.RuleDenied && f.Rule != paths.RuleSensitive {
				kept = append(kept, f)
			}
		}
		return pathResult{fs: kept, envPath: cp.Resolved, hasEnv: true, raises: true}
	})
}

// Isolated runs f, whose reports are judged as the call's are, and
// returns the findings they made, taking those findings, the tiers they
// raised, the commands recorded and what they added to the conditions'
// environment back out of the call: the analysis keeps only what it
// chooses of them (the critical findings of a module the call's code
// imports, analysis/imports.go). The work f spends stays spent; the
// memos it filled stay (they hold judgements, not the call's state).
func (e *evaluation) Isolated(f func()) []risk.Finding {
	nf, nrec, nfills := len(e.findings), len(e.records), len(e.fills)
	tier, effects, raised, cur, callTier, callOwn := e.tier, e.effects, e.raised, e.cur, e.callTier, e.callOwn
	env, texts, births, allowed := e.env, e.texts, e.births, e.allowed
	var curRecord cmdRecord
	if cur >= 0 {
		curRecord = e.records[cur]
	}
	f()
	got := slices.Clone(e.findings[nf:])
	e.findings = e.findings[:nf]
	e.records = e.records[:nrec]
	if cur >= 0 {
		e.records[cur] = curRecord
	}
	e.fills = e.fills[:nfills]
	e.tier, e.effects, e.raised, e.cur, e.callTier, e.callOwn = tier, effects, raised, cur, callTier, callOwn
	e.env, e.texts, e.births, e.allowed = env, texts, births, allowed
	return got
}
