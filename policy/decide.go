package policy

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// MaxCommandBytes is the largest shell command Decide analyses; larger
// commands are denied as invalid input.
const MaxCommandBytes = 256 << 10

// Decide judges one call (DESIGN §4 steps 1–7 and 9; budgets, session
// grants and approvals are applied by package guard). It never panics: an
// internal error becomes a deny that says so.
func (p *Policy) Decide(ctx context.Context, c call.Call) Decision {
	return p.decideIn(ctx, &c, nil)
}

// decideIn is Decide, its evaluation made within outer when outer is not
// nil (see newEvaluation).
func (p *Policy) decideIn(ctx context.Context, c *call.Call, outer *evaluation) (d Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = p.internalError(fmt.Errorf("%v", r))
		}
	}()
	if sub := p.ForAgent(c.Who.Agent); sub != p {
		return sub.decideIn(ctx, c, outer)
	}
	e := p.pooledEvaluation(ctx, c, outer)
	e.run()
	d = e.decide()
	d.Contained = p.contains(e.c, d)
	e.keepScratch() // not on a panic: the recover above leaves it to the collector
	return d
}

// contains reports whether an allowed call runs inside toolguard's
// sandbox: a shell call whose caller can run it there, covered by
// [sandbox] wrap, in a workspace that is a project directory (the sandbox
// refuses the root and a directory holding the home directory).
func (p *Policy) contains(c *call.Call, d Decision) bool {
	if d.Verdict != risk.Allow || !c.Containable || c.Kind != call.Shell {
		return false
	}
	switch p.cfg.Sandbox.Wrap {
	case "all":
	case "execute":
		if d.Tier < risk.Execute {
			return false
		}
	default:
		return false
	}
	ws := c.Root()
	return ws != "" && ws != "/" && ws != p.home && !strings.HasPrefix(p.home, strings.TrimSuffix(ws, "/")+"/")
}

// newEvaluation starts the evaluation of a copy of the call c, with its
// own work budget and file system lookups, on the heap (Explain and the
// tests, which read the evaluation after its decision; Decide's are
// pooled: pooledEvaluation).
//
// A decision made while outer is judged (the code a write persists,
// persisted.go) is given outer's file system answers (paths.Lookups) and,
// under the same policy, whose path rules decided what may be read, the
// texts of the files outer read: it is the same moment of the same file
// system, asked once. It runs on outer's goroutine, before outer's
// decision is made; outer nil: the call's own.
func (p *Policy) newEvaluation(ctx context.Context, c *call.Call, outer *evaluation) *evaluation {
	e := new(evaluation)
	p.startEvaluation(e, new(paths.Lookups), ctx, c, outer)
	return e
}

// startEvaluation makes e, whatever it held, the start of the evaluation
// of a copy of the call c (see newEvaluation), whose file system answers
// go to own unless outer's are shared. The copy and the first paths it
// records live in e.
func (p *Policy) startEvaluation(e *evaluation, own *paths.Lookups, ctx context.Context, c *call.Call, outer *evaluation) {
	*e = evaluation{p: p, ctx: ctx, call: *c, cur: -1}
	e.c = &e.call
	c = e.c
	e.work = *shell.NewBudget(workLimit)
	e.files = diskFiles{p: p, budget: &e.work}
	lookups := own
	if outer != nil {
		lookups = outer.an.PathEnv("").Lookups
		if outer.p == p {
			e.files.memo = outer.files.shared()
		}
	}
	e.an = analysis.New(analysis.Context{Home: p.home, Cwd: c.Dir(), Workspace: c.Root(), Rules: p.rules,
		Budget: &e.work, Findings: &e.findings, Files: &e.files, Trees: analysis.DiskTrees{},
		Lookups: lookups}, e)
	e.files.env = e.an.PathEnv("")
}

func (p *Policy) internalError(err error) Decision {
	return Decision{Verdict: risk.Deny, Tier: risk.Execute, Blast: risk.BlastUnknown, Rule: "internal.error",
		Category: risk.CatInput, Mode: p.mode, Profile: p.profile,
		Reason: "toolguard hit an internal error and denied the call to be safe: " + err.Error()}
}

// evaluation is the state of one Decide call.
type evaluation struct {
	p   *Policy
	ctx context.Context
	c   *call.Call // &call
	// call is the call judged (a copy of Decide's argument), and the
	// bufs hold the first paths, commands and names env records.
	call        call.Call
	pathsBuf    [4]string
	commandsBuf [4]string
	namesBuf    [4]string
	// texts is how many records' texts env.Commands holds (commandTexts).
	texts    int
	findings analysis.Findings
	tier     risk.Tier
	// effects is the worst tier of the shell commands' own effects, and
	// raised reports that a high-risk program (rm, curl, …) raised tier
	// to execute above them; together they set the blast radius of a call
	// raised that way (rm -rf dist deletes a build output: low).
	effects risk.Tier
	raised  bool
	script  *shell.Script
	env     conditionEnv
	allowed string // id of an allow rule that matches the whole call
	stop    bool   // input invalid or gated: skip analysis
	// an is the analysis of the call's code, which reports what the code
	// does to the judge methods of judge.go.
	an analysis.Analysis
	// records are the simple commands the analysis reported, one each,
	// with what each added to the call (allowcover.go). cur is the record
	// being analysed (-1 for none) and callTier the tier that no record
	// raised; callOwn is set when the call raised it itself (or its tool
	// mapping set it), beyond the read tier a shell call starts at.
	records  []cmdRecord
	cur      int32
	callTier risk.Tier
	callOwn  bool

	// work is the call's work budget (work.go); judged remembers the
	// paths, globs and trees judged so far, and scriptWords counts the
	// words of the script's commands once (ruleCost).
	work        shell.Budget
	judged      pathMemo
	scriptWords int
	// files reads the files the call's commands run (files.go).
	files diskFiles
	// fills are the directories the call's commands so far put files
	// into (filledoutput.go).
	fills []fill
	// births counts the birth-time lookups of the call so far (see
	// maxBirths).
	births int
	// valuesBuf holds the argv values of the command policyChecks is
	// judging.
	valuesBuf []string
	// scratch holds the buffers the evaluation took from the pool, given
	// back at the end of Decide (scratch.go); nil when it took none.
	scratch *scratch
	// afresh judges every mentioned path and classifies every command
	// anew, remembering none (the reference the memos are tested
	// against; DecideMemo with MemoNone).
	afresh bool
}

func (e *evaluation) add(f ...risk.Finding) { e.findings.Add(f...) }

// raise raises the call's tier to at least t, on behalf of the command
// being analysed, if any.
func (e *evaluation) raise(t risk.Tier) {
	e.tier = e.tier.Worse(t)
	if e.cur >= 0 {
		r := &e.records[e.cur]
		r.tier = r.tier.Worse(t)
		return
	}
	e.callTier = e.callTier.Worse(t)
	e.callOwn = true
}

func (e *evaluation) run() {
	e.validate()
	if e.stop {
		return
	}
	e.gate()
	e.analyse()
	e.userRules()
	e.workLimitFinding()
}

func (e *evaluation) validate() {
	c := e.c
	if _, err := call.ParseKind(string(c.Kind)); err != nil {
		e.invalid(fmt.Sprintf("the call has no valid kind (%v)", err))
		return
	}
	if c.Kind == call.Shell && strings.TrimSpace(c.Command) == "" {
		e.invalid("the shell call has an empty command")
	}
	if len(c.Command) > MaxCommandBytes {
		e.invalid(fmt.Sprintf("the command is %d bytes, over the %d byte limit", len(c.Command), MaxCommandBytes))
	}
	command := c.Command
	if c.Kind == call.Shell {
		command = "" // a NUL in a shell command is judged by the shell analysis (every reading of it)
	}
	if hasNUL(command, c.Tool, c.Cwd, c.Workspace) || hasNUL(c.Paths...) || hasNUL(c.URLs...) {
		e.invalid("an argument contains a NUL byte")
	}
}

// hasNUL reports whether one of ss contains a NUL byte.
func hasNUL(ss ...string) bool {
	for _, s := range ss {
		if strings.IndexByte(s, 0) >= 0 {
			return true
		}
	}
	return false
}

func (e *evaluation) invalid(why string) {
	e.stop = true
	e.add(risk.Finding{Rule: "input.invalid", Category: risk.CatInput, Tier: e.c.BaseTier(), Blast: risk.BlastUnknown,
		Verdict: risk.Deny, Reason: "Malformed call: " + why + ".", Subject: e.c.Tool,
		Suggestion: "send a well-formed call"})
}

func (e *evaluation) gate() {
	if f := e.p.gate.finding(e.c); f != nil {
		e.add(*f)
	}
	if e.c.Kind == call.Agent && !boolOr(e.p.cfg.SubAgents.Allow, true) {
		e.add(*gateDeny(e.c, "subagents.forbidden", "Sub-agents are not allowed by the policy."))
	}
}

func boolOr(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

// pathEnv is where relative paths of the call resolve: in dir when it is
// given (a command's cd target), else in the call's directory.
func (e *evaluation) pathEnv(dir string) paths.Env { return e.an.PathEnv(dir) }

func (e *evaluation) analyse() {
	e.tier = e.c.BaseTier()
	e.callTier = e.tier
	e.env = conditionEnv{Tool: e.c.Tool, Kind: string(e.c.Kind), Command: e.c.Command, Cwd: e.c.Dir(),
		Workspace: e.c.Root(), Agent: e.c.Who.Agent, Session: e.c.Who.Session, Tier: e.tier.String(),
		Paths: e.pathsBuf[:0:len(e.pathsBuf)], Commands: e.commandsBuf[:0:len(e.commandsBuf)], Names: e.namesBuf[:0:len(e.namesBuf)]}
	e.envFromScratch()
	if e.c.Kind == call.Shell || e.c.Command != "" { // any tool's command argument is judged as shell
		e.analyseShell()
	}
	e.checkToolPaths()
	e.secretSearch()
	e.browserSecrets()
	if e.c.Discards {
		e.add(risk.Finding{Rule: "tools.discard-work", Category: risk.CatVCSDiscard, Tier: risk.Destructive,
			Blast: risk.BlastMedium, Subject: e.c.Tool,
			Reason:     e.c.Tool + " is asked to discard work that is saved nowhere (uncommitted changes are lost).",
			Suggestion: "commit or stash the changes first, or reset without discarding them"})
	}
	e.persistedWrites()
	e.remoteWrites()
	e.env.Paths = append(e.env.Paths, e.c.StatPaths...) // names and metadata only: nothing to protect
	e.checkURLs(e.c.URLs)
	e.judgeSQL(e.c.SQL)
	e.secretsInArguments()
	if e.c.Kind == call.Fetch && !e.c.TierSet {
		switch {
		case e.fetchesListed():
			e.tier, e.callTier = risk.Read, risk.Read // the user named these hosts as the ones to fetch from
		case boolOr(e.p.cfg.Network.AskFetch, false):
			// a person sees every fetch: the kind's execute tier stays
		default:
			t := fetchTier(e.c)
			e.tier, e.callTier = t, t
		}
	}
	if e.c.Kind == call.Agent && !e.c.TierSet && hookedSubAgent(e.c) || sessionSQL(e.c) {
		e.tier, e.callTier = risk.Read, risk.Read
	}
}

// sessionSQL reports whether c is GitHub Copilot CLI's sql tool on the
// session's own SQLite database — the agent's planning store, with its
// todos tables, as Claude Code's TodoWrite is — with statements that stay
// inside it: no ATTACH or VACUUM INTO (which open or write a file
// anywhere), no PRAGMA, no extension or file functions. The call carries
// only a query and a description; anything else keeps the unknown tool's
// execute tier.
func sessionSQL(c *call.Call) bool {
	if c.Who.Agent != "copilot" || c.Tool != "sql" || c.TierSet {
		return false
	}
	q, ok := c.Input["query"].(string)
	if !ok || q == "" {
		return false
	}
	for k, v := range c.Input {
		if _, isText := v.(string); !isText || k != "query" && k != "description" {
			return false
		}
	}
	lower := strings.ToLower(q)
	for _, w := range []string{"attach", "vacuum", "pragma", "load_extension", "readfile", "writefile", "fileio", "zipfile", "sqlar", "edit(", "fts3_tokenizer"} {
		if strings.Contains(lower, w) {
			return false
		}
	}
	return true
}

// hookedSubAgent reports whether launching the sub-agent c starts has no
// effect by itself: the agent is one whose sub-agents' own tool calls
// reach toolguard's hook one by one (Claude Code runs PreToolUse hooks
// inside sub-agents, with agent_id and agent_type in the payload; OpenCode
// runs a task's sub-agent through the same prompt loop, whose
// tool.execute.before reaches the plugin), and the call carries only the
// fields that describe the task — a prompt, a description, the sub-agent's
// type and model. Any other field (an isolated worktree, a working
// directory) may do something before the first of those calls, so the
// kind's execute tier stays; so does an OpenCode prompt with an @-mention,
// whose file OpenCode reads into the sub-agent's context itself. The
// sub-agent limits (depth, total, prompt size) still apply to the launch.
func hookedSubAgent(c *call.Call) bool {
	switch {
	case c.Who.Agent == "claude-code" && (c.Tool == "Task" || c.Tool == "Agent"):
	case c.Who.Agent == "opencode" && c.Tool == "task":
		if p, _ := c.Input["prompt"].(string); mentionsFile(p) {
			return false
		}
	default:
		return false
	}
	for k, v := range c.Input {
		switch k {
		case "prompt", "description", "subagent_type", "model":
			if _, ok := v.(string); !ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// mentionsFile reports whether an OpenCode prompt has an @-mention: an "@"
// that no ASCII letter, digit, "_" or backtick precedes (an e-mail address
// is not one; OpenCode's own test is the same). OpenCode reads the file or
// directory each names, from the worktree or "~/", into the prompt.
func mentionsFile(prompt string) bool {
	for i := 0; i < len(prompt); i++ {
		if prompt[i] != '@' {
			continue
		}
		if i == 0 {
			return true
		}
		if b := prompt[i-1]; b != '_' && b != '`' && !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9') {
			return true
		}
	}
	return false
}

// fetchTier is what a fetch tool's request does: a GET (or HEAD) of
// http(s) URLs with no body, no credentials in the URL and no header that
// carries one only reads (issue 31: the seeds' read-only levels fetch
// without asking); a body or a method that writes is the write tier; a
// request toolguard cannot read that way (no URL, another scheme, a header
// or URL with a credential) stays the execute tier. Where the URL points
// (private, loopback, metadata, the domain lists) is netguard's to judge,
// whatever the tier.
func fetchTier(c *call.Call) risk.Tier {
	if len(c.URLs) == 0 {
		return risk.Execute
	}
	for _, u := range c.URLs {
		if !plainFetchURL(u) {
			return risk.Execute
		}
	}
	t := risk.Read
	for k, v := range c.Input {
		switch strings.ToLower(k) {
		case "method":
			m, ok := v.(string)
			switch {
			case !ok:
				return risk.Execute
			case m == "" || strings.EqualFold(m, "GET") || strings.EqualFold(m, "HEAD"):
			default:
				t = risk.Write // POST, PUT, DELETE…: the request changes something
			}
		case "body", "data", "json", "form", "payload", "content", "files":
			if !emptyValue(v) {
				t = risk.Write // the request sends data
			}
		case "headers", "header", "cookies", "cookie", "auth", "authorization", "token", "api_key", "apikey", "credentials":
			if !emptyValue(v) && (k != "headers" && k != "header" || secretHeaders(v)) {
				return risk.Execute // the request carries a credential
			}
		}
	}
	return t
}

// plainFetchURL reports whether a fetched URL is http(s) with no
// credentials in its user part or in a query parameter named for one.
func plainFetchURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.User != nil {
		return false
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return false
	}
	for k := range u.Query() {
		if secretName(k) {
			return false
		}
	}
	return true
}

// secretName reports whether a parameter or header name is one credentials
// travel in.
func secretName(k string) bool {
	k = strings.ToLower(k)
	if k == "authorization" || k == "proxy-authorization" || k == "cookie" || k == "sig" {
		return true
	}
	for _, part := range []string{"token", "key", "secret", "auth", "session", "password", "passwd", "credential", "signature"} {
		if strings.Contains(k, part) {
			return true
		}
	}
	return false
}

// secretHeaders reports whether a fetch tool's headers argument (an object
// or a list of "Name: value" strings) carries a credential; one toolguard
// cannot read is judged to.
func secretHeaders(v any) bool {
	switch h := v.(type) {
	case map[string]any:
		for k := range h {
			if secretName(k) {
				return true
			}
		}
		return false
	case []any:
		for _, el := range h {
			s, ok := el.(string)
			if !ok {
				return true
			}
			name, _, _ := strings.Cut(s, ":")
			if secretName(strings.TrimSpace(name)) {
				return true
			}
		}
		return false
	}
	return true
}

// emptyValue reports whether an argument holds nothing (null, "", {}, []).
func emptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case map[string]any:
		return len(x) == 0
	case []any:
		return len(x) == 0
	}
	return false
}

// secretsInArguments denies handing a credential to a tool that sends
// its arguments elsewhere (an MCP server, a fetch, a tool toolguard does
// not know): a private key or an API token in the input is on its way out.
func (e *evaluation) secretsInArguments() {
	switch e.c.Kind {
	case call.MCP, call.Other, call.Fetch:
	default:
		if !e.c.Sends { // a web search's query goes to the search engine
			return
		}
	}
	if kind := e.tokenIn(e.c.Input, 0); kind != "" {
		e.add(analysis.Critical("effects.secret-to-tool", risk.CatExfiltration, risk.Span{}, e.c.Tool,
			fmt.Sprintf("The arguments of %s hold a secret (%s); the tool would send it on.", e.c.Tool, kind),
			"pass the tool a reference to the secret, not the secret itself"))
	}
}

// tokenIn returns the kind of the first credential found in the string
// values of v ("" when none, or when the work budget runs out first:
// scanning costs up to 30 ns a byte, so that an input of a few hundred
// kilobytes is too large to check).
func (e *evaluation) tokenIn(v any, depth int) string {
	if depth > 32 || !e.spend(1) {
		return ""
	}
	switch x := v.(type) {
	case string:
		if !e.spend(tokenScanCost(len(x))) {
			return ""
		}
		return risk.FindToken(x)
	case map[string]any:
		var buf [8]string // most tools take a few arguments
		keys := buf[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if kind := e.tokenIn(x[k], depth+1); kind != "" {
				return kind
			}
		}
	case []any:
		for _, el := range x {
			if kind := e.tokenIn(el, depth+1); kind != "" {
				return kind
			}
		}
	}
	return ""
}

// fetchesListed reports whether a fetch tool's URLs all go to hosts the
// policy's allowed domains name.
func (e *evaluation) fetchesListed() bool {
	if len(e.c.URLs) == 0 {
		return false
	}
	for _, u := range e.c.URLs {
		if !e.p.net.Listed(u) {
			return false
		}
	}
	return true
}

// judgeSQL sets the tier of a database tool by the statements it is given:
// read when every one only reads, a write otherwise, and the rule packs'
// categories for the destructive kinds (DROP, TRUNCATE, DELETE without
// WHERE, …).
func (e *evaluation) judgeSQL(stmts []string) {
	if len(stmts) == 0 {
		return
	}
	t := risk.Read
	for _, s := range stmts {
		if rules.SQLReadOnly(s) {
			continue
		}
		t = t.Worse(risk.Write)
		for _, k := range rules.SQLKinds(s) {
			e.add(risk.Finding{Rule: "sql." + k, Category: risk.CatDBDrop, Tier: risk.Destructive, Blast: risk.BlastHigh,
				Subject: analysis.Shorten(s), Reason: fmt.Sprintf("The SQL given to %s is a %s statement.", e.c.Tool, k),
				Suggestion: "change the data through a migration a person reviews"})
			t = risk.Destructive
		}
	}
	if e.tier == e.c.BaseTier() && !e.c.TierSet {
		e.tier, e.callTier = t, t // the statements, not the tool's kind, say what the call does
		return
	}
	e.raise(t)
}

func (e *evaluation) checkToolPaths() {
	access := toolAccess(e.c)
	for _, p := range e.c.Paths {
		if access == paths.Write && e.contentJudged(p) {
			e.checkJudgedPath(p) // its content is judged instead (persistedWrites)
			continue
		}
		e.checkPath(p, access, "", true) // a delete tool removes the path itself
	}
}

// toolAccess is how a non-shell tool touches its paths. Unknown tools are
// judged as writing, the conservative choice.
func toolAccess(c *call.Call) paths.Access {
	switch {
	case c.BaseTier() == risk.Destructive:
		return paths.Delete
	case c.Kind == call.Read || c.Kind == call.Search || c.Kind == call.Fetch:
		return paths.Read
	case c.BaseTier() == risk.Read:
		return paths.Read
	}
	return paths.Write
}

// checkPath judges one path the call touches with access a, relative to
// dir; removes says a delete removes the path itself (rm), not what lies
// below it (find -delete).
func (e *evaluation) checkPath(p string, a paths.Access, dir string, removes bool) {
	removes = removes && a == paths.Delete
	e.judgePath(pathKey{kind: 'p', v: p, a: a, dir: dir, removes: removes}, pathCost, func() pathResult {
		env := e.pathEnv(dir)
		if cp, err := paths.Canonicalize(p, env, e.p.home); err == nil {
			fs := e.p.paths.CheckPath(cp, a, env)
			if removes {
				if f := analysis.DeleteFinding(cp, env, e.p.home); f != nil {
					fs = append(fs, *f)
				}
				if f := analysis.HistoryFinding(cp, env, "", analysis.LockFile(path.Base(cp.Resolved))); f != nil {
					fs = append(fs, *f)
				}
			}
			return pathResult{fs: fs, envPath: cp.Resolved, hasEnv: true, raises: true}
		}
		fs := e.p.paths.Check(p, a, env) // reports why the path is invalid
		return pathResult{fs: fs, envPath: p, hasEnv: true, raises: true}
	})
}

func (e *evaluation) checkURLs(urls []string) {
	for _, u := range urls {
		e.checkURL(e.p.net, u, risk.Span{})
	}
}

// checkURL judges one URL with a guard (fetch tools' or shell commands'),
// denies toolguard's own approval endpoints, and records it for rules.
func (e *evaluation) checkURL(g *netguard.Guard, u string, span risk.Span) {
	if !e.spend(urlCost) {
		return
	}
	e.add(g.CheckURL(e.ctx, u)...)
	e.selfApproval(u, span)
	e.env.URLs = append(e.env.URLs, u)
	e.env.Hosts = append(e.env.Hosts, hostOf(u))
}
