package policy

import "time"

// Config is one policy document: the schema shared by TOML (primary), YAML
// and JSON files. The zero value of every field means "not set here", so a
// layer only changes what it names; the defaults (the Default column of the
// reference, `toolguard policy show`) say what an unset key stands for.
type Config struct {
	// Settings are the top-level policy.
	Settings
	// Profiles are named whole policies; an agent picks one in [agents].
	// Empty means no profiles.
	Profiles map[string]*Settings `toml:"profiles"`
	// Agents picks a profile per agent name (claude-code, codex,
	// gemini-cli, cursor, docker-agent, or a custom agent name).
	Agents map[string]AgentConfig `toml:"agents"`
	// TrustedProjects lists project directories whose policy files may
	// loosen the policy. Empty means every project file may only tighten.
	// Only honoured in the user policy and --config files.
	TrustedProjects []string `toml:"trusted_projects" merge:"append"`
}

// Settings is one whole policy: the top level of a file, or a profile.
type Settings struct {
	// Mode names the tier → action table: readonly, strict, supervised,
	// trusted or full. Empty means supervised (the default), unless
	// read_only, approval_mode, autonomy or [mode_table] say otherwise.
	Mode string `toml:"mode" enum:"readonly,strict,supervised,trusted,full"`
	// Unattended says no human can answer: every ask becomes deny. False
	// (the default) lets asks reach an approver.
	Unattended bool `toml:"unattended"`
	// ReadOnly (Aar, ai-chat) forces the readonly mode: only reads run.
	// False leaves the mode alone.
	ReadOnly bool `toml:"read_only"`
	// ApprovalMode is ai-chat's name for the mode: auto (= full),
	// ask_for_dangerous (= trusted), ask_for_writes or ask (= supervised).
	// Empty means not set.
	ApprovalMode string `toml:"approval_mode" enum:"auto,ask_for_dangerous,ask_for_writes,ask"`
	// Autonomy is ZeroClaw's name for the mode: readonly, supervised or
	// full. Empty means not set.
	Autonomy string `toml:"autonomy" enum:"readonly,supervised,full"`
	// RequireApprovalForWrites (Aar) makes write-tier calls ask when true
	// and allows them when false. Unset keeps the mode's choice.
	RequireApprovalForWrites *bool `toml:"require_approval_for_writes"`
	// RequireApprovalForExecute (Aar) makes execute-tier calls ask when
	// true and allows them when false. Unset keeps the mode's choice.
	RequireApprovalForExecute *bool `toml:"require_approval_for_execute"`
	// ModeTable sets the action per tier directly; keys left empty keep the
	// mode's action.
	ModeTable ModeTable `toml:"mode_table"`

	// Tools gates tools by name and maps unknown tools onto kinds.
	Tools Tools `toml:"tools"`
	// Paths judges every path a call touches.
	Paths Paths `toml:"paths"`
	// Commands judges shell commands.
	Commands Commands `toml:"commands"`
	// Network judges URLs and hosts.
	Network Network `toml:"network"`
	// Rules are user rules, checked before the built-in checks; a matching
	// deny always wins.
	Rules []Rule `toml:"rules" merge:"append"`
	// Grants are "always" approvals recorded by toolguard; each may turn an
	// ask into allow, never a deny.
	Grants []Grant `toml:"grants" merge:"append"`
	// Budget limits how much an agent may do.
	Budget Budget `toml:"budget"`
	// SubAgents limits sub-agents (calls of kind agent).
	SubAgents SubAgents `toml:"subagents"`
	// Approval configures how asks reach a person.
	Approval Approval `toml:"approval"`
	// Sandbox configures `toolguard exec`.
	Sandbox Sandbox `toml:"sandbox"`
	// Audit configures the decision log.
	Audit Audit `toml:"audit"`
	// Hooks configures the agent hook adapters.
	Hooks Hooks `toml:"hooks"`
	// State says where shared state lives: files, or a fleet's database.
	State State `toml:"state"`
}

// ModeTable is an action per tier. Each field is "allow", "ask", "deny" or
// empty (keep the mode's action).
type ModeTable struct {
	// Read is the action for read-tier calls.
	Read string `toml:"read" enum:"allow,ask,deny"`
	// Write is the action for write-tier calls.
	Write string `toml:"write" enum:"allow,ask,deny"`
	// Execute is the action for execute-tier calls.
	Execute string `toml:"execute" enum:"allow,ask,deny"`
	// Destructive is the action for destructive-tier calls.
	Destructive string `toml:"destructive" enum:"allow,ask,deny"`
}

// AgentConfig selects settings for one agent.
type AgentConfig struct {
	// Profile names an entry of [profiles]; empty means the top-level policy.
	Profile string `toml:"profile"`
}

// Tools gates tools by name.
type Tools struct {
	// Allowed, when non-empty, is the only set of tools that may run
	// (names or globs such as "mcp__github__*"); others are denied. Empty
	// means no restriction.
	Allowed []string `toml:"allowed"`
	// Excluded tools are always denied (ai-chat denied_tools, ZeroClaw
	// excluded_tools). Empty means none.
	Excluded []string `toml:"excluded" merge:"append"`
	// AutoApprove tools skip the ask of the mode table (ZeroClaw
	// auto_approve); findings that force ask or deny still apply. "*"
	// means every tool. Empty means none.
	AutoApprove []string `toml:"auto_approve"`
	// AlwaysAsk tools always ask, even when the mode would allow them
	// ("*" for all). Empty means none.
	AlwaysAsk []string `toml:"always_ask" merge:"append"`
	// Tiers overrides the tier of a tool by name (ai-chat tool_tiers):
	// read, write, execute or destructive. Empty means the mapping's tier.
	Tiers map[string]string `toml:"tiers"`
	// Map adds or overrides tool mappings: tool name (or glob) → kind,
	// tier and which arguments hold the command, paths and URLs.
	Map map[string]ToolMapping `toml:"map"`
}

// ToolMapping maps one tool onto a kind.
type ToolMapping struct {
	// Kind is shell, read, write, fetch, search, mcp, agent or other.
	// Required.
	Kind string `toml:"kind" enum:"shell,read,write,fetch,search,mcp,agent,other"`
	// Tier overrides the kind's default tier; empty keeps it.
	Tier string `toml:"tier" enum:"read,write,execute,destructive"`
	// CommandArgs are argument keys holding a shell command.
	CommandArgs []string `toml:"command_args"`
	// PathArgs are argument keys holding paths.
	PathArgs []string `toml:"path_args"`
	// URLArgs are argument keys holding URLs.
	URLArgs []string `toml:"url_args"`
	// CwdArgs are argument keys holding the working directory.
	CwdArgs []string `toml:"cwd_args"`
}

// Paths judges paths.
type Paths struct {
	// Denied globs block any access. They are added to the built-in list,
	// which can never shrink. "~/" is the home directory, "<workspace>/"
	// the workspace; "**/" matches at any depth.
	Denied []string `toml:"denied" merge:"append"`
	// DeniedExceptions are globs of files the built-in denied list catches
	// by name that are not secrets for this user (a fixture named
	// credentials.json, say). They are added to the built-in exceptions
	// (templates, public keys, source and documentation files) and never
	// lift the user's own denied globs. Only the user's own policy file
	// may set them: a project file, --config, the environment, a flag or a
	// request override that does is refused. Empty means none.
	DeniedExceptions []string `toml:"denied_exceptions" merge:"append"`
	// Allowed, when non-empty, is the only set of globs that may be
	// touched outside the workspace and roots (Aar allowed_paths). Empty
	// means no such restriction.
	Allowed []string `toml:"allowed"`
	// Sensitive globs make any access ask. Added to the built-in list.
	Sensitive []string `toml:"sensitive" merge:"append"`
	// SensitiveWrite globs make writes ask (ai-chat sensitive_paths).
	// Added to the built-in list.
	SensitiveWrite []string `toml:"sensitive_write" merge:"append"`
	// Rules are Aar path_rules: the first matching pattern gives the read
	// and write verdicts, before the roots are considered.
	Rules []PathRule `toml:"rules" merge:"append"`
	// Roots are directories besides the workspace that may be read and
	// written (ZeroClaw allowed_roots). Empty means none beyond the
	// temporary directory ($TMPDIR and /tmp), which is always a root.
	Roots []string `toml:"roots"`
	// ReadOnlyRoots may be read but not written. Empty means none.
	ReadOnlyRoots []string `toml:"read_only_roots"`
	// WriteOnlyRoots may be written but not read. Empty means none.
	WriteOnlyRoots []string `toml:"write_only_roots"`
	// WorkspaceOnly denies writes outside the workspace and roots. Unset
	// means true; the full mode sets it to false, as ZeroClaw does.
	WorkspaceOnly *bool `toml:"workspace_only"`
	// ReadOutside is the verdict for reads outside the workspace and roots:
	// allow, ask or deny. Empty means allow.
	ReadOutside string `toml:"read_outside" enum:"allow,ask,deny"`
	// WriteOutside is the verdict for writes outside the workspace and
	// roots when workspace_only is false. Empty means ask.
	WriteOutside string `toml:"write_outside" enum:"allow,ask,deny"`
}

// PathRule is one Aar path rule.
type PathRule struct {
	// Pattern is a glob (doublestar syntax). Required.
	Pattern string `toml:"pattern"`
	// Read is the verdict for reads: allow, ask or deny. Empty means allow.
	Read string `toml:"read" enum:"allow,ask,deny"`
	// Write is the verdict for writes: allow, ask or deny. Empty means allow.
	Write string `toml:"write" enum:"allow,ask,deny"`
}

// Commands judges shell commands.
type Commands struct {
	// Denied are Aar's denied-command substrings, matched against every
	// simple command's normalised text; a match denies. Added to the
	// built-in list, which never shrinks.
	Denied []string `toml:"denied" merge:"append"`
	// Allowed is ZeroClaw's strict allow-list: when non-empty, every
	// simple command's executable must be listed (bare names compare
	// case-insensitively, paths exactly; "*" allows any) and ZeroClaw's
	// argument rules apply. Empty means no allow-list.
	Allowed []string `toml:"allowed"`
	// CustomPatterns are ai-chat regexes (case-insensitive) over the
	// normalised command text; a match asks. Empty means none.
	CustomPatterns []string `toml:"custom_patterns" merge:"append"`
	// BlockHighRisk denies critical and high-blast commands outright
	// instead of asking, unless the executable is in Allowed (ZeroClaw
	// block_high_risk_commands). Unset means false: high-blast commands ask.
	BlockHighRisk *bool `toml:"block_high_risk"`
	// RequireApprovalForMediumRisk (ZeroClaw) makes medium-blast commands
	// ask even when the mode would allow their tier. Unset means false.
	RequireApprovalForMediumRisk *bool `toml:"require_approval_for_medium_risk"`
	// DisableRules turns off built-in rules or whole packs by id. Empty
	// means every rule is on.
	DisableRules []string `toml:"disable_rules" merge:"append"`
}

// Network judges URLs and hosts.
type Network struct {
	// AllowedDomains, when non-empty, are the only hosts that may be
	// fetched ("example.com" includes its subdomains). Empty means any.
	AllowedDomains []string `toml:"allowed_domains"`
	// DeniedDomains are never fetched. Empty means none.
	DeniedDomains []string `toml:"denied_domains" merge:"append"`
	// Private is the verdict for private, link-local and CGNAT addresses:
	// allow, ask or deny. Empty means deny. Cloud metadata addresses are
	// always denied.
	Private string `toml:"private" enum:"allow,ask,deny"`
	// Loopback is the verdict for loopback addresses and localhost. Empty
	// means deny.
	Loopback string `toml:"loopback" enum:"allow,ask,deny"`
	// CommandsPrivate is the verdict for private and link-local hosts that
	// shell commands contact (ssh, scp, curl, nc): allow, ask or deny.
	// Empty means allow: LAN hosts are everyday targets of developer
	// commands, which the mode judges anyway. Fetch tools use Private.
	CommandsPrivate string `toml:"commands_private" enum:"allow,ask,deny"`
	// CommandsLoopback is the verdict for loopback hosts that shell
	// commands contact (curl localhost:8080). Empty means allow; toolguard's
	// own approval endpoints are denied whatever this says.
	CommandsLoopback string `toml:"commands_loopback" enum:"allow,ask,deny"`
	// Resolve looks hostnames up in DNS and judges every address. False
	// (the default) judges the URL text only.
	Resolve bool `toml:"resolve"`
	// AskFetch makes every call of a fetch tool (WebFetch, an MCP fetch
	// server's fetch, an HTTP GET tool) the execute tier, so that the modes
	// below full ask a person before each one. Unset means false: a GET of
	// a public http(s) URL that carries no secret is the read tier, allowed
	// in readonly and supervised as ZeroClaw's http_request allows it; a
	// request with a body or a method that writes is the write tier. The
	// address checks (private, loopback, metadata, the domain lists) apply
	// whatever this says.
	AskFetch *bool `toml:"ask_fetch"`
}

// Rule is one user rule.
type Rule struct {
	// ID names the rule in decisions ("user:<id>"). Required, unique.
	ID string `toml:"id"`
	// Action is allow, ask or deny. Required.
	Action string `toml:"action" enum:"allow,ask,deny"`
	// Tools the rule applies to (names or globs); empty means any tool.
	Tools []string `toml:"tools"`
	// Command matches shell commands: "Bash(npm run test:*)" or
	// "npm run test:*" (prefix, ":*" meaning any further arguments), or
	// an exact command. Empty means any command.
	Command string `toml:"command"`
	// Argv matches each simple command's argv word by word with globs,
	// e.g. ["kubectl", "*", "--context=prod*"]; a trailing "**" matches any
	// remaining words. Empty means any argv.
	Argv []string `toml:"argv"`
	// Paths are globs matched against every path the call touches. Empty
	// means any path.
	Paths []string `toml:"paths"`
	// Hosts are host globs matched against every URL the call fetches.
	// Empty means any host.
	Hosts []string `toml:"hosts"`
	// When is an optional condition in expr syntax (package condition) over
	// tool, kind, command, commands, names, paths, urls, hosts, cwd,
	// workspace, agent, session and tier, e.g. `"terraform" in names`.
	// Empty means always.
	When string `toml:"when"`
	// Reason is shown to the person and the model. Empty means a generic
	// reason naming the rule.
	Reason string `toml:"reason"`
}

// Grant is an "always" approval recorded by toolguard.
type Grant struct {
	// Tool is the tool name the grant covers. Required.
	Tool string `toml:"tool"`
	// Command limits the grant to exactly this shell command, whatever the
	// agent calls its shell tool. Empty means no such limit.
	Command string `toml:"command"`
	// CommandPrefix limits the grant to shell commands starting with it
	// (then a blank or the end), whatever the agent calls its shell tool.
	// Empty means no such limit.
	CommandPrefix string `toml:"command_prefix"`
	// Paths and URLs limit the grant to calls of the tool that touch at
	// least one of them and nothing else. Empty means no such limit.
	Paths []string `toml:"paths"`
	URLs  []string `toml:"urls"`
	// Digest limits the grant to calls of the tool with exactly these
	// arguments ("sha256:" and the hex SHA-256 of their JSON). Empty means
	// no such limit. With none of command, command_prefix, paths, urls and
	// digest, the grant covers every call of the tool.
	Digest string `toml:"digest"`
	// Added is when the grant was recorded; informational.
	Added time.Time `toml:"added"`
}

// Budget limits how much an agent may do. Reads are never counted. Every
// surface counts the calls it lets run: a hook call when toolguard allows
// it (an ask the agent puts to its own user is not counted, since only the
// agent learns the answer), /v1/hooks, /v1/authorize, /v1/decide with
// "will_run", MCP calls and exec. Counts are exact across processes.
type Budget struct {
	// MaxActionsPerHour per sender over a sliding hour. Zero means no limit
	// (ZeroClaw's default of 20 is too low for coding agents).
	MaxActionsPerHour int `toml:"max_actions_per_hour"`
	// MaxCostPerDayCents per sender, as reported by the caller. Zero means
	// no limit.
	MaxCostPerDayCents int `toml:"max_cost_per_day_cents"`
}

// SubAgents limits sub-agents. Zero fields take the defaults shown.
type SubAgents struct {
	// Allow lets calls of kind agent run at all. Unset means true.
	Allow *bool `toml:"allow"`
	// MaxConcurrent sub-agents at once. Zero means 5.
	MaxConcurrent int `toml:"max_concurrent"`
	// MaxTotal sub-agents per session. Zero means 10.
	MaxTotal int `toml:"max_total"`
	// MaxDepth of nested sub-agents. Zero means 3.
	MaxDepth int `toml:"max_depth"`
	// MaxPromptChars of a sub-agent's prompt. Zero means 32000.
	MaxPromptChars int `toml:"max_prompt_chars"`
	// MaxOutputChars of a sub-agent's output. Zero means 4000.
	MaxOutputChars int `toml:"max_output_chars"`
	// Timeout is a sub-agent's wall clock. Zero means 120s.
	Timeout time.Duration `toml:"timeout"`
}

// Approval configures how asks reach a person.
type Approval struct {
	// Approver is auto (terminal when a tty is present, else the server
	// when configured, else none), terminal, server or none. Empty means
	// auto. Hooks use it only for asks the agent cannot put to a person,
	// and auto there means the server when configured, never the terminal
	// (the agent's interface owns it).
	Approver string `toml:"approver" enum:"auto,terminal,server,none"`
	// Timeout waits this long for an answer, clamped to 10s–600s; then
	// the call is denied. Zero means 120s. A hook waits at most 135s, inside
	// the hook timeout install writes.
	Timeout time.Duration `toml:"timeout"`
	// Server is the URL of a `toolguard serve` instance for approvals.
	// Empty means none.
	Server string `toml:"server"`
}

// Sandbox configures `toolguard exec`.
type Sandbox struct {
	// Wrap runs the shell calls a hook allows inside toolguard's sandbox,
	// in the agents whose hook can rewrite a call: the call is allowed with
	// its command changed to run through "toolguard exec --wrapped", where
	// it can write only the workspace, the temporary directories and the
	// toolchains' caches, and read nothing the policy denies. "execute"
	// wraps the calls of the execute tier and above, "all" every shell
	// call. Empty means "off": calls run as the agent starts them.
	Wrap string `toml:"wrap" enum:"off,execute,all"`
	// Backend is auto, landlock, bwrap, firejail or none. Empty means auto
	// (the strongest available).
	Backend string `toml:"backend" enum:"auto,landlock,bwrap,firejail,none"`
	// Require fails closed when the backend cannot enforce the sandbox.
	// False runs with what is available.
	Require bool `toml:"require"`
	// AllowNetwork lets sandboxed commands open network connections.
	// False blocks them where the backend can.
	AllowNetwork bool `toml:"allow_network"`
	// EnvPassthrough lists environment variables passed through by exact
	// name, even if they look secret. Empty means only the safe set.
	EnvPassthrough []string `toml:"env_passthrough"`
	// Timeout stops the command and its process group. Zero means 10m, as
	// long as the agents let a shell command run.
	Timeout time.Duration `toml:"timeout"`
	// MaxMemoryMB limits each sandboxed process's heap and private writable
	// memory (RLIMIT_DATA), in MiB. Zero means 2048; -1 means no limit.
	MaxMemoryMB int `toml:"max_memory_mb"`
	// MaxOutputBytes per stream. Zero means 1 MiB.
	MaxOutputBytes int `toml:"max_output_bytes"`
	// CPUTime limits CPU seconds. Zero means no limit beyond Timeout.
	CPUTime time.Duration `toml:"cpu_time"`
	// MaxFileSizeMB limits files the command writes. Zero means no limit.
	MaxFileSizeMB int `toml:"max_file_size_mb"`
	// MaxOpenFiles limits open descriptors. Zero means the system limit.
	MaxOpenFiles int `toml:"max_open_files"`
}

// Audit configures the decision log.
type Audit struct {
	// Disabled turns the audit log off. False (the default) logs every
	// decision.
	Disabled bool `toml:"disabled"`
	// Path of the log. Empty means $XDG_STATE_HOME/toolguard/audit.jsonl.
	Path string `toml:"path"`
	// MaxSizeMB rotates the log before it passes this size, in MiB. Zero
	// means 256.
	MaxSizeMB int `toml:"max_size_mb"`
	// RotateEvery rotates the log once its first record is this old, so a
	// quiet log is rotated too and old days can be dropped. Zero means
	// 24h.
	RotateEvery time.Duration `toml:"rotate_every"`
	// Keep is how many rotated files to keep; the oldest beyond it are
	// removed. Zero means 3000 (days of history at 5,000 decisions a
	// second: docs/audit.md).
	Keep int `toml:"keep"`
	// MaxAge removes rotated files last written longer ago than this.
	// Zero means 720h (30 days).
	MaxAge time.Duration `toml:"max_age"`
	// Compress is how rotated files are kept: "gzip" (audit.jsonl.<time>.gz,
	// read back by `toolguard audit`) or "none". Empty means gzip.
	Compress string `toml:"compress" enum:"gzip,none"`
	// OnFailure is what happens to a call whose audit record cannot be
	// written (disk full, the log path unusable): "deny" blocks it with a
	// reason naming the log; "allow" keeps the decision and reports the
	// failure on stderr and in the events log. Empty means deny. Only the
	// user's own policy file may set it.
	OnFailure string `toml:"on_failure" enum:"deny,allow"`
}

// State says where approvals, grants, budgets, sub-agent totals and the
// audit trail live. The zero value keeps them in files under the state
// directory, for one machine.
type State struct {
	// URL of the PostgreSQL database shared by a fleet of serve replicas
	// and hooks ("postgres://user@db.example:5432/toolguard?sslmode=verify-full").
	// Empty means files (no database). Project policy files may not set it.
	URL string `toml:"url"`
	// Lease is how long a replica's waiting approvals stay answerable after
	// its last heartbeat: a replica that dies has them closed as abandoned
	// once it runs out. Zero means 15s; at least 2s.
	Lease time.Duration `toml:"lease"`
	// Timeout bounds each database operation (waiting for a connection
	// included); one that takes longer is treated as the database being
	// unreachable: the call is denied and its record kept in the spool.
	// Zero means 750ms.
	Timeout time.Duration `toml:"timeout"`
	// Replica names this process in the database (approvals it owns, audit
	// records it writes). Empty means host name and process id.
	Replica string `toml:"replica"`
	// KeyFile holds the fleet key (mode 0600): grants, approval cards,
	// answers and notifications in the database are signed with it, and
	// rows without a valid signature are ignored, so whoever reaches the
	// database without it (an agent) cannot grant or approve anything. Give
	// every replica and every hook with url set the same file; keep it out
	// of agents' reach. Empty means fleet.key in the state directory,
	// created when missing.
	KeyFile string `toml:"key_file"`
}

// Hooks configures the agent hook adapters.
type Hooks struct {
	// DeferAllow answers allowed calls with "no opinion" so the agent's own
	// permission rules apply. False (the default) answers an explicit allow
	// so harmless reads do not nag.
	DeferAllow bool `toml:"defer_allow"`
}
