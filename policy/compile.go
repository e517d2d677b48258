package policy

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/netguard"
	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
)

// Policy is a compiled, immutable configuration. It is safe for concurrent
// use; build one with [Compile] and share it.
type Policy struct {
	doc       *Config
	cfg       *Settings
	mode      string
	table     Table
	home      string
	tools     *call.Table
	gate      toolGate
	paths     *paths.Checker
	net       *netguard.Guard
	cmdNet    *netguard.Guard
	rules     *rules.Set
	denied    []deniedPattern
	deniedIx  deniedIndex // which commands a pattern of denied may match
	custom    []*regexp.Regexp
	allowed   allowList
	user      []*userRule
	grants    []grantRule
	highRisk  map[string]bool
	profiles  map[string]*Policy
	agents    map[string]string
	profile   string
	protected []string
	secrets   []string
	// selfPorts are the ports toolguard's approval server listens on, and
	// hostNames the machine's own names: together they say which addresses
	// reach the approval server however they are spelled.
	selfPorts []int
	hostNames []string
	// servers are configured approval servers, which may be on another
	// machine (a fleet).
	servers []netguard.Endpoint
	// shadowDirs are the PATH directories ahead of toolguard's own.
	shadowDirs []string
	// selfPrograms are the paths of toolguard's program.
	selfPrograms []string
	// guardArgs are the policy options the deciding guard was started with
	// (Options.GuardArgs).
	guardArgs []string

	// fleetDB is the [state] url database, whose clients are
	// self-protection (fleetdb.go); nil when none is configured.
	fleetDB *fleetDB
	// hash is [Policy.Hash], computed on first use.
	hashOnce sync.Once
	hash     string
}

// Options tune compilation. The zero value is valid.
type Options struct {
	// Home is the home directory used for "~"; empty means $HOME.
	Home string
	// Protected are extra globs that calls must never write (toolguard's
	// own files and the agents' hook settings); nil means only the
	// built-in set of toolguard's config and state directories.
	Protected []string
	// Denied are extra globs that calls must never read or write, beyond
	// the configuration's (for example the token of `toolguard serve`,
	// whose reader could approve its own calls); nil means none.
	Denied []string
	// ApprovalPorts are ports on which a toolguard serve is known to
	// listen, besides the configured approval server's and 7878; nil means
	// none.
	ApprovalPorts []int
	// Programs are the paths of toolguard's own program (os.Executable and
	// where it is installed); writing them or signalling processes running
	// them is self-tampering. Nil means only the program name "toolguard".
	Programs []string
	// GuardArgs are the policy options the guard process compiling this
	// policy was itself started with, as words ("--config", "/etc/tg.toml",
	// "--no-user-config"): a toolguard exec or mcp command line that passes
	// the same ones (as the hook's own [sandbox] wrap rewrite does) loosens
	// nothing. Nil means none.
	GuardArgs []string

	// Path are the directories of the PATH the agent's commands run with,
	// in order: the ones ahead of toolguard's own directory (every one
	// when it is not among them) may not get a program named toolguard
	// (shadow.go). Nil means no PATH is known: only a program named
	// toolguard written into the usual program directories
	// (usualShadowPrograms) is judged a shadow.
	Path []string
}

// Compile checks cfg and builds an immutable Policy. Every problem is
// reported at once (errors.Join).
func Compile(cfg *Config, opts Options) (*Policy, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	p, err := compileOne(&cfg.Settings, opts, "")
	if err != nil {
		return nil, err
	}
	p.doc = cfg
	p.fleetDB = parseFleetDB(cfg.State.URL)
	return p, p.compileProfiles(cfg, opts)
}

func compileOne(cfg *Settings, opts Options, profile string) (*Policy, error) {
	p := &Policy{cfg: cfg, doc: &Config{Settings: *cfg}, profile: profile, home: homeDir(opts.Home)}
	var errs []error
	add := func(field string, err error) {
		if err != nil {
			errs = append(errs, prefixErr(profile, field, err))
		}
	}
	var err error
	p.table, p.mode, err = cfg.table()
	add("mode", err)
	p.tools, err = compileTools(cfg.Tools)
	add("tools", err)
	p.gate, err = compileGate(cfg.Tools)
	add("tools", err)
	p.shadowDirs = shadowDirsOf(opts.Path, opts.Programs)
	p.protected = protectedGlobs(append(slices.Clone(opts.Protected), opts.Programs...))
	for _, d := range p.shadowDirs {
		p.protected = append(p.protected, d+"/toolguard")
	}
	if opts.Path == nil {
		p.protected = append(p.protected, usualShadowPrograms(p.home)...)
	}
	p.secrets = opts.Denied
	p.selfPorts = approvalPorts(cfg.Approval.Server, opts.ApprovalPorts)
	p.hostNames = machineNames()
	if ep, ok := netguard.ParseEndpoint(cfg.Approval.Server); ok && cfg.Approval.Server != "" {
		p.servers = append(p.servers, ep)
	}
	p.selfPrograms = opts.Programs
	p.guardArgs = slices.Clone(opts.GuardArgs)
	p.paths, err = paths.Compile(p.pathsConfig())
	add("paths", err)
	p.net, err = netguard.Compile(networkConfig(cfg.Network))
	add("network", err)
	p.cmdNet, err = netguard.Compile(commandsNetworkConfig(cfg.Network))
	add("network", err)
	p.rules, err = rules.BuiltinWith(rules.Options{Disable: cfg.Commands.DisableRules})
	add("commands.disable_rules", err)
	if p.rules != nil && p.tools != nil {
		p.tools = p.tools.WithPrograms(p.rules.Knows) // unknown tools' strings that read as commands are judged as such
	}
	p.denied, err = compileDeniedWithDefaults(cfg.Commands.Denied)
	p.deniedIx = indexDenied(p.denied)
	add("commands.denied", err)
	p.custom, err = compilePatterns(cfg.Commands.CustomPatterns)
	add("commands.custom_patterns", err)
	p.allowed = newAllowList(cfg.Commands.Allowed)
	p.user, err = compileUserRules(cfg.Rules)
	add("rules", err)
	p.grants, err = compileGrants(cfg.Grants)
	add("grants", err)
	p.highRisk = setOf(HighRiskCommands())
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

func prefixErr(profile, field string, err error) error {
	if profile != "" {
		field = "profiles." + profile + "." + field
	}
	return fmt.Errorf("%s: %w", field, err)
}

func (p *Policy) compileProfiles(cfg *Config, opts Options) error {
	var errs []error
	p.profiles = map[string]*Policy{}
	for _, name := range sortedKeys(cfg.Profiles) {
		prof := cfg.Profiles[name]
		if prof == nil {
			prof = &Settings{}
		}
		sub, err := compileOne(prof, opts, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		sub.fleetDB = p.fleetDB
		p.profiles[name] = sub
	}
	p.agents = map[string]string{}
	for _, agent := range sortedKeys(cfg.Agents) {
		prof := cfg.Agents[agent].Profile
		if _, ok := cfg.Profiles[prof]; prof != "" && !ok {
			errs = append(errs, fmt.Errorf("agents.%s.profile: unknown profile %q (valid: %s)", agent, prof, strings.Join(sortedKeys(cfg.Profiles), ", ")))
		}
		p.agents[agent] = prof
	}
	return errors.Join(errs...)
}

// ForAgent returns the policy that applies to an agent: its profile when
// [agents.NAME] names one, else p itself.
func (p *Policy) ForAgent(agent string) *Policy {
	if prof := p.agents[agent]; prof != "" {
		if sub := p.profiles[prof]; sub != nil {
			return sub
		}
	}
	return p
}

// Mode is the display name of the effective mode.
func (p *Policy) Mode() string { return p.mode }

// Config returns the configuration the policy was compiled from. Callers
// must not modify it.
func (p *Policy) Config() *Config { return p.doc }

// Tools is the tool-name table the policy uses to normalise calls.
func (p *Policy) Tools() *call.Table { return p.tools }

// Unreadable reports whether the policy denies reading the clean absolute
// path, judged by its name alone (nothing is resolved or read): what a
// sandbox keeps out of reach of the commands it runs for an agent.
func (p *Policy) Unreadable(path string) bool { return p.paths.Unreadable(path) }

// Rules is the compiled rule set.
func (p *Policy) Rules() *rules.Set { return p.rules }

func homeDir(h string) string {
	if h != "" {
		return h
	}
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	return "/nonexistent-home"
}

func setOf(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func compilePatterns(pats []string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	var errs []error
	for i, s := range pats {
		re, err := regexp.Compile("(?i)" + s)
		if err != nil {
			errs = append(errs, fmt.Errorf("[%d] %q: %w", i, s, err))
			continue
		}
		out = append(out, re)
	}
	return out, errors.Join(errs...)
}

func parseVerdictOr(s string, def risk.Verdict) risk.Verdict {
	if s == "" {
		return def
	}
	v, err := risk.ParseVerdict(s)
	if err != nil {
		return risk.Deny // validated at load; fail closed regardless
	}
	return v
}

// Profile returns the compiled named profile, or nil.
func (p *Policy) Profile(name string) *Policy { return p.profiles[name] }

// ProfileNames lists the profiles, sorted.
func (p *Policy) ProfileNames() []string { return sortedKeys(p.profiles) }
