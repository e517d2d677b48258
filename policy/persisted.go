package policy

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/toolguard/toolguard/buildfile"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/script"
	"github.com/toolguard/toolguard/shell"
)

// Code written where something runs it by itself (a shell's startup
// files, git's hooks and configuration, a systemd unit, an .envrc) runs
// later, in every session, without the agent asking: a critical effect in
// it is denied in every mode, as if the agent ran it now. What else it
// does is left to the write's own judgement (these files are escape
// hatches: writing them asks). Text the same call writes with known
// content — a Write or Edit tool's, an echo … >> ~/.bashrc's — is judged.

// persistedDepth marks a decision made for persisted code, so that code it
// writes in turn is not followed again.
type persistedDepth struct{}

// persistedCost is what judging one file's persisted code costs of the
// call's work budget, besides the code's own decision.
const persistedCost = 64

// persisted judges text written into the file target (relative to dir,
// or the call's directory when dir is ""). prior is what the file held
// before, when known (a lockfile's entries are weighed against it); judged
// says the write's whole effect is this text's, so that every finding of
// its code counts, not only the critical ones (see contentJudged).
func (e *evaluation) persisted(target, dir, text, prior string, judged bool) {
	if text == "" || e.ctx.Value(persistedDepth{}) != nil {
		return
	}
	cp, err := paths.Canonicalize(target, e.pathEnv(dir), e.p.home)
	if err != nil {
		return
	}
	kind, who := buildfile.PersistedKind(cp.Resolved)
	if kind == buildfile.NotPersisted || !e.spend(persistedCost+len(text)) {
		return
	}
	place := fmt.Sprintf("Written into %s, which %s runs by itself", cp.Resolved, who)
	code, _ := buildfile.PersistedCode(kind, text)
	e.persistedCode(code, place, judged)
	if kind == buildfile.Lockfile {
		prior += e.projectRegistries()
	}
	for _, h := range buildfile.PersistedHazards(kind, text, prior) {
		e.add(risk.Finding{Rule: h.Rule, Category: hazardCategory(kind), Tier: risk.Destructive, Blast: risk.BlastCritical,
			Verdict: risk.Deny, Subject: cp.Resolved,
			Reason:     fmt.Sprintf("Written into %s, which %s reads by itself: %s.", cp.Resolved, who, h.Reason),
			Suggestion: "Leave this to the user; show them the change instead of writing it."})
		e.raise(risk.Destructive)
	}
}

// hazardCategory is the category of a hazard in a file of kind k.
func hazardCategory(k buildfile.Persisted) risk.Category {
	switch k {
	case buildfile.RegistryConfig, buildfile.Lockfile:
		return risk.CatPackageInstall
	case buildfile.AgentInstructions:
		return risk.CatSelfProtection
	}
	return risk.CatExfiltration
}

// projectRegistries is the text of the project's registry configurations
// (.npmrc, .yarnrc.yml, .yarnrc at the workspace's root): the hosts a
// lockfile may fetch from besides the public registries.
func (e *evaluation) projectRegistries() string {
	var b strings.Builder
	for _, f := range []string{".npmrc", ".yarnrc.yml", ".yarnrc"} {
		if t, err := e.files.Read(path.Join(e.c.Root(), f)); err == nil {
			b.WriteString("\n" + t)
		}
	}
	return b.String()
}

// persistedCode decides each piece of code as a shell command of the call's
// directory and adds its critical findings, denied, their reasons after
// place; with all, the others too, with their own verdicts and tiers (the
// code is the whole of what the write does).
func (e *evaluation) persistedCode(code []string, place string, all bool) {
	ctx := context.WithValue(e.ctx, persistedDepth{}, true)
	for _, c := range code {
		d := e.p.decideIn(ctx, &call.Call{Kind: call.Shell, Tool: "Bash", Command: c, Cwd: e.c.Dir(),
			Workspace: e.c.Root(), Who: e.c.Who}, e)
		for _, f := range d.Findings {
			if f.Blast != risk.BlastCritical && !all {
				continue
			}
			if f.Blast == risk.BlastCritical {
				f.Verdict = risk.Deny
			}
			f.Span = risk.Span{}
			f.Reason = place + ": " + f.Reason
			e.add(f)
			e.raise(f.Tier)
		}
	}
}

// contentJudged reports whether writing the path p is judged by what the
// write tool's call puts there rather than asked for by p's name: p is the
// call's one path, in the workspace, of a kind whose whole effect its
// content says (buildfile.Judged), and the call's text for it is known and
// reads as that kind — the whole file (a Write's content, an Edit of a
// file that can be read), or for editor settings the members an Edit
// adds. An Edit of a file that cannot be read keeps asking.
func (e *evaluation) contentJudged(p string) bool {
	if e.c.Kind != call.Write || len(e.c.Paths) != 1 || e.patchText() != "" {
		return false
	}
	cp, err := paths.Canonicalize(p, e.pathEnv(""), e.p.home)
	if err != nil || !strings.HasPrefix(cp.Resolved, strings.TrimSuffix(e.c.Root(), "/")+"/") {
		return false
	}
	kind, _ := buildfile.PersistedKind(cp.Resolved)
	text, whole := e.writtenWhole()
	if text == "" || !whole && kind != buildfile.EditorSettings {
		return false
	}
	return buildfile.Judged(kind, cp.Resolved, text)
}

// checkJudgedPath judges writing p, whose content contentJudged found
// judged, as checkPath does, less the findings that ask for p by its name
// alone (an escape hatch, a sensitive file): its content stands for it.
func (e *evaluation) checkJudgedPath(p string) {
	env := e.pathEnv("")
	cp, err := paths.Canonicalize(p, env, e.p.home)
	if err != nil || !e.spend(pathCost) {
		e.checkPath(p, paths.Write, "", true)
		return
	}
	e.env.Paths = append(e.env.Paths, cp.Resolved)
	for _, f := range e.p.paths.CheckPath(cp, paths.Write, env) {
		if f.Rule == paths.RuleEscapeHatch || f.Rule == paths.RuleSensitive {
			continue
		}
		e.add(f)
		e.raise(f.Tier)
	}
}

// writtenText is the text a write tool's call puts into its file: the
// whole content, or an edit's new text (in place in the file's current
// text when the file can be read and holds the old text once).
func (e *evaluation) writtenText() string {
	s, _ := e.writtenWhole()
	return s
}

// writtenWhole is writtenText, and whether it is the whole file.
func (e *evaluation) writtenWhole() (string, bool) {
	in := e.c.Input
	for _, k := range []string{"content", "file_text", "text"} {
		if s, ok := in[k].(string); ok {
			return s, true
		}
	}
	var news []string
	for _, k := range []string{"new_string", "newString", "new_str", "new_text"} {
		if s, ok := in[k].(string); ok {
			news = append(news, s)
		}
	}
	if edits, ok := in["edits"].([]any); ok {
		for _, ed := range edits {
			if m, ok := ed.(map[string]any); ok {
				if s, ok := m["new_string"].(string); ok {
					news = append(news, s)
				}
			}
		}
	}
	if len(news) == 0 {
		return "", false
	}
	if old, ok := in["old_string"].(string); ok && len(news) == 1 && len(e.c.Paths) == 1 && old != "" {
		if cur, err := e.files.Read(e.c.Paths[0]); err == nil && strings.Count(cur, old) == 1 {
			return strings.Replace(cur, old, news[0], 1), true // the file as the edit leaves it
		}
	}
	return joinLines(news), false
}

// priorText is what the write tool's call replaces: the file's current
// text when it can be read, and an edit's old text.
func (e *evaluation) priorText() string {
	var b strings.Builder
	if len(e.c.Paths) == 1 {
		if cur, err := e.files.Read(e.c.Paths[0]); err == nil {
			b.WriteString(cur)
		}
	}
	for _, k := range []string{"old_string", "oldString", "old_str"} {
		if s, ok := e.c.Input[k].(string); ok {
			b.WriteString("\n" + s)
		}
	}
	return b.String()
}

// patchText is an apply_patch call's patch, or "".
func (e *evaluation) patchText() string {
	for _, k := range []string{"input", "patch", "patchText"} {
		if patch, ok := e.c.Input[k].(string); ok && strings.Contains(patch, "*** Begin Patch") {
			return patch
		}
	}
	return ""
}

func joinLines(ss []string) string {
	n := 0
	for _, s := range ss {
		n += len(s) + 1
	}
	b := make([]byte, 0, n)
	for _, s := range ss {
		b = append(append(b, s...), '\n')
	}
	return string(b)
}

// persistedWrites judges what a write tool's call writes, for each of its
// paths that holds persisted code.
func (e *evaluation) persistedWrites() {
	if e.c.Kind != call.Write || len(e.c.Paths) == 0 {
		return
	}
	if src, ok := e.c.Input["new_source"].(string); ok { // NotebookEdit: one cell's new source
		if notebookCodeCell(e.c.Input) {
			for _, p := range e.c.Paths {
				e.persistedCell(p, src)
			}
		}
		return
	}
	if patch := e.patchText(); patch != "" { // apply_patch: each file's added lines
		for _, f := range call.PatchAdded(patch) {
			e.persisted(f.Path, "", f.Added, "", false)
		}
		return
	}
	text, prior := e.writtenText(), e.priorText()
	for _, p := range e.c.Paths {
		e.persisted(p, "", text, prior, e.contentJudged(p))
	}
}

// remoteWrites judges the files a call writes into a remote repository
// (a forge's create_or_update_file, push_files) by their content, as the
// same files written here would be: a workflow the CI service runs with
// the repository's secrets, an editor's tasks, an agent's instructions
// that whoever clones it runs. A critical effect is denied in every mode.
// A file named by an absolute or home path with no repository named (a
// tool toolguard does not know, writing here) is judged as written here.
func (e *evaluation) remoteWrites() {
	for _, f := range e.c.Remote {
		if f.Repo == "" && (strings.HasPrefix(f.Path, "/") || strings.HasPrefix(f.Path, "~/")) {
			e.persisted(f.Path, "", f.Text, "", false)
			continue
		}
		e.remoteFile(f)
	}
}

// remoteFile judges one file of remoteWrites.
func (e *evaluation) remoteFile(f call.RemoteFile) {
	kind, who := buildfile.RepositoryKind(f.Path)
	if f.Text == "" || kind == buildfile.NotPersisted || e.ctx.Value(persistedDepth{}) != nil || !e.spend(persistedCost+len(f.Text)) {
		return
	}
	where := strings.TrimLeft(f.Path, "/")
	if f.Repo != "" {
		where += " of the repository " + f.Repo
	}
	code, _ := buildfile.PersistedCode(kind, f.Text)
	e.persistedCode(code, fmt.Sprintf("Written into %s, which %s runs by itself", where, who), false)
	if kind == buildfile.Lockfile {
		return // the hosts the repository's lockfile may name are not known here
	}
	for _, h := range buildfile.PersistedHazards(kind, f.Text, "") {
		e.add(risk.Finding{Rule: h.Rule, Category: hazardCategory(kind), Tier: risk.Destructive, Blast: risk.BlastCritical,
			Verdict: risk.Deny, Subject: where,
			Reason:     fmt.Sprintf("Written into %s, which %s reads by itself: %s.", where, who, h.Reason),
			Suggestion: "Leave this to the user; show them the change instead of writing it."})
		e.raise(risk.Destructive)
	}
}

// notebookCodeCell reports whether a notebook edit's new source becomes
// a code cell: not a markdown or raw cell, and not a deletion (which
// writes no source).
func notebookCodeCell(in map[string]any) bool {
	t, _ := in["cell_type"].(string)
	mode, _ := in["edit_mode"].(string)
	return t != "markdown" && t != "raw" && mode != "delete"
}

// persistedCell judges src, the source of a code cell written into the
// notebook target, as the cell its kernel runs (buildfile.NotebookCellCode):
// a critical effect in it is denied in every mode, as for the whole
// notebook's cells.
func (e *evaluation) persistedCell(target, src string) {
	if strings.TrimSpace(src) == "" || e.ctx.Value(persistedDepth{}) != nil {
		return
	}
	cp, err := paths.Canonicalize(target, e.pathEnv(""), e.p.home)
	if err != nil {
		return
	}
	kind, who := buildfile.PersistedKind(cp.Resolved)
	if kind != buildfile.Notebook || !e.spend(persistedCost+len(src)) {
		return
	}
	e.persistedCode(buildfile.NotebookCellCode(src), fmt.Sprintf("Written into a code cell of %s, which %s runs", cp.Resolved, who), false)
}

// gitConfigSetting returns the key and value a git config command stores
// (git config [--global|--system|--local|--file F|--add] KEY VALUE, and
// git config set KEY VALUE), when both are known.
func gitConfigSetting(cmd *shell.Command) (key, value string, ok bool) {
	if cmd.Name != "git" {
		return "", "", false
	}
	args := cmd.Args()
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].Value, "-") { // git's own options
		if v := args[i].Value; v == "-C" || v == "-c" || v == "--git-dir" || v == "--work-tree" || v == "--namespace" {
			i++ // and their values
		}
		i++
	}
	if i >= len(args) || args[i].Value != "config" {
		return "", "", false
	}
	var ops []shell.Word
	skip := false
	for _, a := range args[i+1:] {
		v := a.Value
		switch {
		case skip:
			skip = false
		case v == "set" && len(ops) == 0:
		case v == "--file" || v == "-f" || v == "--blob" || v == "--type" || v == "--comment" || v == "--value":
			skip = true // the option's value
		case strings.HasPrefix(v, "-"):
		default:
			ops = append(ops, a)
		}
	}
	if len(ops) != 2 || !ops[0].Known || !ops[1].Known {
		return "", "", false
	}
	return ops[0].Value, ops[1].Value, true
}

// persistedSetting judges the value of a git setting that git will run as
// a command later (core.fsmonitor, core.sshCommand, an alias with !, …) as
// persisted code: a critical effect in it is denied in every mode.
func (e *evaluation) persistedSetting(key, value string) {
	if e.ctx.Value(persistedDepth{}) != nil || !script.GitKeyRunsCommand(key) || !e.spend(persistedCost+len(value)) {
		return
	}
	fx := script.GitConfig(key + "=" + value)
	code := fx.Shell
	if fx.SecretInput {
		// a credential helper is handed the user's credentials: judged as
		// git carries it, where code handed secrets that sends data over
		// the network is found (git version runs no helper of its own)
		code = append(code, "git -c "+shellQuote(key+"="+value)+" version")
	}
	e.persistedCode(code, "git config stores "+key+", which git runs by itself", false)
}

// shellQuote is s as one shell word in single quotes.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
