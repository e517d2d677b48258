package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/internal/tree"
)

// Layer is one source of configuration, lowest first in [LoadOptions].
type Layer struct {
	// Name is the file name (or "environment") used in error messages.
	Name string
	// Data is the document; its format comes from Name's extension, or
	// Format when set.
	Data []byte
	// Format is "toml", "yaml" or "json"; empty means from Name.
	Format string
	// Untrusted layers (project files) may only tighten the policy.
	Untrusted bool
	// Lenient makes an untrusted layer drop what it may not set (keys that
	// would loosen the policy, keys only the user's files may set) instead
	// of failing the whole load; what was dropped is in [Loaded.Ignored].
	// Project files are lenient: a cloned repository whose policy tries to
	// loosen the user's must not make every call fail there. Per-request
	// overrides and sub-agent policies are not: their caller is told.
	Lenient bool
	// User marks the user's own policy file, the only layer that may set
	// the keys in userOnlyKeys.
	User bool
}

// userOnlyKeys may be set only by the user's own policy file: they lift
// built-in protections.
var userOnlyKeys = []string{"paths.denied_exceptions", "audit.on_failure"}

// LoadOptions say where configuration comes from. The zero value loads
// only the built-in defaults.
type LoadOptions struct {
	// UserFile is the user policy; empty means none. [UserFile] finds the
	// default location.
	UserFile string
	// ConfigFile is the file given with --config; empty means none.
	ConfigFile string
	// ProjectDir is searched for a project policy (.toolguard.toml,
	// .toolguard.yaml, .toolguard.json or .toolguard/policy.*); empty means
	// no project policy.
	ProjectDir string
	// Environ is the process environment, searched for TOOLGUARD_*
	// variables; nil means none.
	Environ []string
	// Flags is applied last, to express command-line flags; nil means none.
	Flags func(*Config)
}

// Loaded is the merged configuration and where it came from.
type Loaded struct {
	Config *Config
	// Files are the files that contributed, lowest layer first.
	Files []string
	// Ignored are the settings of lenient layers that were dropped, each
	// with its file, line and why; empty when none were.
	Ignored []error
}

// UserFile returns the default user policy path
// ($XDG_CONFIG_HOME/toolguard/policy.toml, or ~/.config/…), choosing a
// .yaml, .yml or .json sibling when only that exists.
func UserFile() string {
	if f := ExistingUserFile(); f != "" {
		return f
	}
	return UserFileCandidates()[0]
}

// ExistingUserFile is the user policy file UserFile chooses when one of the
// candidates exists, "" when none does: a loader then need not open
// policy.toml again only to find it missing (a hook process loads its
// policy on every call).
func ExistingUserFile() string {
	for _, f := range UserFileCandidates() {
		if _, err := os.Stat(f); err == nil {
			return f
		}
	}
	return ""
}

// UserFileCandidates are the paths UserFile looks at, in order: the
// policy.toml, policy.yaml, policy.yml and policy.json of toolguard's
// configuration directory.
func UserFileCandidates() []string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".config")
	}
	base := filepath.Join(dir, "toolguard", "policy")
	return []string{base + ".toml", base + ".yaml", base + ".yml", base + ".json"}
}

// Load reads and merges every layer: built-in defaults < user file <
// --config file < project file (tighten-only unless trusted) < TOOLGUARD_*
// environment < flags. All problems are reported at once.
func Load(opts LoadOptions) (*Loaded, error) {
	out := &Loaded{Config: &Config{}}
	var errs []error
	for _, f := range []string{opts.UserFile, opts.ConfigFile} {
		if f == "" {
			continue
		}
		errs = append(errs, loadFile(out, f, f == opts.ConfigFile, f == opts.UserFile && f != opts.ConfigFile))
	}
	errs = append(errs, loadProject(out, opts.ProjectDir))
	for _, env := range envLayers(opts.Environ) {
		errs = append(errs, out.apply(env))
	}
	if opts.Flags != nil {
		opts.Flags(out.Config)
	}
	return out, errors.Join(errs...)
}

func loadFile(out *Loaded, file string, required, user bool) error {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading policy: %w", err)
	}
	return out.apply(Layer{Name: file, Data: data, User: user})
}

// ProjectFiles are the names a project policy may have, in order.
func ProjectFiles() []string {
	return []string{".toolguard.toml", ".toolguard.yaml", ".toolguard.yml", ".toolguard.json",
		".toolguard/policy.toml", ".toolguard/policy.yaml", ".toolguard/policy.yml", ".toolguard/policy.json"}
}

func loadProject(out *Loaded, dir string) error {
	if dir == "" {
		return nil
	}
	for _, name := range ProjectFiles() {
		file := filepath.Join(dir, name)
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		trusted := isTrusted(out.Config.TrustedProjects, dir)
		return out.apply(Layer{Name: file, Data: data, Untrusted: !trusted, Lenient: !trusted})
	}
	return nil
}

func isTrusted(list []string, dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for _, t := range list {
		if filepath.Clean(expandHome(t)) == abs {
			return true
		}
	}
	return false
}

func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, _ := os.UserHomeDir()
		return home + p[1:]
	}
	return p
}

// apply decodes one layer and merges it over the configuration so far.
func (l *Loaded) apply(layer Layer) error {
	n, err := parseLayer(layer)
	if err != nil {
		return err
	}
	var c Config
	meta, decodeErr := tree.DecodeMeta(n, layer.Name, &c) // decodes what it can, listing the rest
	if err := collectErrors(layer.Name, decodeErr, c.validate(layer.Name, n)); err != nil {
		return err // every problem of the layer at once, not the schema's first
	}
	if layer.Untrusted && layer.Lenient {
		meta = l.dropLoosening(layer, &c, meta, n)
	}
	if err := checkUserOnly(layer, meta, n); err != nil {
		return err
	}
	if layer.Untrusted {
		if err := checkTrustedOnly(layer, meta, n); err != nil {
			return err
		}
		if err := checkTightens(l.Config, &c, meta, layer.Name, n); err != nil {
			return err
		}
	}
	merge(l.Config, &c, meta)
	l.Files = append(l.Files, layer.Name)
	return nil
}

// dropLoosening removes from a lenient layer what it may not set: its
// allow rules and allowing path rules, keys only the user's files or a
// trusted layer may set, and keys that would loosen the policy so far.
// Each is recorded in l.Ignored; the layer's other settings still apply.
func (l *Loaded) dropLoosening(layer Layer, c *Config, meta tree.Meta, doc *tree.Node) tree.Meta {
	var dropped []error
	c.Rules = slices.DeleteFunc(c.Rules, func(r Rule) bool {
		if r.Action != "allow" {
			return false
		}
		dropped = append(dropped, positioned(layer.Name, doc, "rules", fmt.Sprintf("rule %q: a project policy may not allow calls", r.ID)))
		return true
	})
	c.Paths.Rules = slices.DeleteFunc(c.Paths.Rules, func(r PathRule) bool {
		if noAllowPathRules(nil, &Config{Settings: Settings{Paths: Paths{Rules: []PathRule{r}}}}) == "" {
			return false
		}
		dropped = append(dropped, positioned(layer.Name, doc, "paths.rules", fmt.Sprintf("path rule %q: a project policy may not allow access", r.Pattern)))
		return true
	})
	checks := []func(tree.Meta) error{
		func(m tree.Meta) error { return checkUserOnly(layer, m, doc) },
		func(m tree.Meta) error { return checkTrustedOnly(layer, m, doc) },
		func(m tree.Meta) error { return checkTightens(l.Config, c, m, layer.Name, doc) },
	}
	for _, check := range checks { // each sees what the ones before left, so a key is reported once
		var errs tree.Errors
		if !errors.As(check(meta), &errs) {
			continue
		}
		var keys []string
		for _, e := range errs {
			key := indexRE.Get().ReplaceAllString(e.Path, "")
			if !slices.ContainsFunc(keys, func(k string) bool { return underKey(key, k) }) {
				keys = append(keys, key)
				dropped = append(dropped, e)
			}
		}
		meta = meta.Without(func(p string) bool {
			key := indexRE.Get().ReplaceAllString(p, "")
			return slices.ContainsFunc(keys, func(k string) bool { return underKey(key, k) })
		})
	}
	for _, err := range dropped {
		l.Ignored = append(l.Ignored, fmt.Errorf("%w (ignored; the rest of the file applies)", err))
	}
	return meta
}

// underKey reports whether a field path without indices is key or lies
// below it.
func underKey(path, key string) bool { return path == key || strings.HasPrefix(path, key+".") }

// trustedOnlyKeys may not be set by a project policy file: they move
// where grants, budgets and the audit trail are kept, so a repository
// could point them at a database holding grants of its own.
var trustedOnlyKeys = []string{"state"}

// checkTrustedOnly refuses trustedOnlyKeys in an untrusted layer.
func checkTrustedOnly(layer Layer, meta tree.Meta, doc *tree.Node) error {
	var errs tree.Errors
	for _, p := range meta.Paths() {
		key := indexRE.Get().ReplaceAllString(p, "")
		for _, k := range trustedOnlyKeys {
			if key == k || strings.HasPrefix(key, k+".") {
				errs = append(errs, positioned(layer.Name, doc, p, "["+k+"] may not be set in a project policy file: set it in your own policy file, with --config or with --state"))
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// checkUserOnly refuses the keys only the user's own policy file may set
// in any other layer.
func checkUserOnly(layer Layer, meta tree.Meta, doc *tree.Node) error {
	if layer.User {
		return nil
	}
	var errs tree.Errors
	for _, p := range meta.Paths() {
		key := indexRE.Get().ReplaceAllString(p, "")
		for _, k := range userOnlyKeys {
			if key == k || strings.HasPrefix(key, k+".") {
				errs = append(errs, positioned(layer.Name, doc, p, k+" may only be set in the user's own policy file ("+
					UserFileCandidates()[0]+"): it lifts built-in protections"))
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// envLayers turns each TOOLGUARD_SECTION__KEY=value variable into a
// one-line TOML layer named after the variable: "__" separates table names,
// values are TOML literals when they parse as one (true, 12, ["a"]) and
// strings otherwise. Empty variables are ignored.
func envLayers(environ []string) []Layer {
	var out []Layer
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || value == "" || !strings.HasPrefix(name, "TOOLGUARD_") || notSetting(name) {
			continue
		}
		key := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(name, "TOOLGUARD_"), "__", "."))
		out = append(out, Layer{Name: "$" + name, Format: "toml", Data: []byte(key + " = " + tomlValue(value) + "\n")})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// notSetting names the TOOLGUARD_ variables that are not policy settings:
// the config path; the run id that toolguard exec's sandbox puts into
// every command it runs (sandbox.RunVar), so toolguard inside the sandbox
// still loads its policy; the bearer token of a fleet server that
// forwarding hooks and Claude Code's HTTP hook send
// (hook.ServerTokenEnv), set in the environment of agents whose other
// toolguard commands still load a policy. The switches of the retired hook
// relay (TOOLGUARD_RELAY, TOOLGUARD_RELAY_*) are ignored so that a shell
// profile that still sets them does not fail every load.
func notSetting(name string) bool {
	return name == "TOOLGUARD_CONFIG" || name == "TOOLGUARD_SANDBOX_RUN" || name == "TOOLGUARD_SERVER_TOKEN" ||
		name == "TOOLGUARD_RELAY" || strings.HasPrefix(name, "TOOLGUARD_RELAY_")
}

func tomlValue(v string) string {
	switch {
	case v == "true" || v == "false":
		return v
	case isInt(v):
		return v
	case strings.HasPrefix(v, "["):
		return v
	}
	return strconv.Quote(v)
}

func isInt(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

func parseLayer(layer Layer) (*tree.Node, error) {
	if layer.Format != "" {
		return tree.ParseFormat(layer.Name, layer.Format, layer.Data)
	}
	return tree.Parse(layer.Name, layer.Data)
}
