package buildfile

import (
	"errors"
	"path"
	"strings"
)

// JavaScript's test runners, bundlers, linters and frameworks load their
// configuration file as a module before they do anything else: what
// vitest.config.ts, webpack.config.js, eslint.config.mjs or next.config.js
// runs at its top level (and what it imports) runs with the command. The
// file a tool loads is the one its config option names (when that is
// JavaScript or TypeScript: a JSON or YAML file runs nothing), else the
// first of its default names that exists in the directory the command runs
// in (or above it, for the tools that look upwards). Its whole text is one
// step in Node's language.

// jsTool is how one tool finds the configuration it loads.
type jsTool struct {
	names       []string // the default names without their extension, in the order the tool tries them
	exts        []string // the extensions tried for each name
	short, long string   // the option that names the file ("" for none)
	upward      bool     // the default names are looked for in the directory's parents too
	optional    bool     // the file is loaded only when the option is given (rollup -c)
	sub         []string // the sub-commands that load it (nil: all)
	// setup are the configuration's keys that name files the tool runs
	// before the tests (vitest's globalSetup and setupFiles, jest's and
	// Playwright's globalSetup, …): each file named is code it runs.
	setup []string
	// setupFromDir makes the setup files relative to the directory the
	// command runs in (vitest's root, mocha's cwd), not the configuration's.
	setupFromDir bool
}

// jsModuleExts are the extensions of a module Node (or the tool's own
// TypeScript loader) runs.
var jsModuleExts = []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"}

// jsScriptExts are the extensions the tools that take only JavaScript try.
var jsScriptExts = []string{".js", ".mjs", ".cjs"}

// jsTools are the tools whose configuration is code, by program name.
var jsTools = map[string]jsTool{
	"vitest": {names: []string{"vitest.config", "vite.config"}, exts: jsModuleExts, short: "-c", long: "--config",
		setup: []string{"globalSetup", "setupFiles"}, setupFromDir: true},
	"vite": {names: []string{"vite.config"}, exts: jsModuleExts, short: "-c", long: "--config"},
	"jest": {names: []string{"jest.config"}, exts: jsModuleExts, short: "-c", long: "--config",
		setup: []string{"globalSetup", "globalTeardown", "setupFiles", "setupFilesAfterEnv"}},
	"webpack":     {names: []string{"webpack.config"}, exts: jsModuleExts, short: "-c", long: "--config"},
	"webpack-cli": {names: []string{"webpack.config"}, exts: jsModuleExts, short: "-c", long: "--config"},
	"rollup":      {names: []string{"rollup.config"}, exts: jsModuleExts, short: "-c", long: "--config", optional: true},
	"eslint":      {names: []string{"eslint.config", ".eslintrc"}, exts: jsModuleExts, short: "-c", long: "--config", upward: true},
	"playwright": {names: []string{"playwright.config"}, exts: jsModuleExts, short: "-c", long: "--config", sub: []string{"test"},
		setup: []string{"globalSetup", "globalTeardown"}},
	"next":    {names: []string{"next.config"}, exts: jsModuleExts},
	"cypress": {names: []string{"cypress.config"}, exts: jsModuleExts, short: "-C", long: "--config-file"},
	"nuxt":    {names: []string{"nuxt.config"}, exts: jsModuleExts},
	"nuxi":    {names: []string{"nuxt.config"}, exts: jsModuleExts},
	"astro":   {names: []string{"astro.config"}, exts: jsModuleExts, long: "--config"},
	"mocha": {names: []string{".mocharc"}, exts: jsScriptExts, long: "--config",
		setup: []string{"require", "file"}, setupFromDir: true},
	"prettier":  {names: []string{"prettier.config", ".prettierrc"}, exts: jsModuleExts, long: "--config", upward: true},
	"tsup":      {names: []string{"tsup.config"}, exts: jsModuleExts, long: "--config"},
	"stylelint": {names: []string{"stylelint.config", ".stylelintrc"}, exts: jsScriptExts, long: "--config", upward: true},
}

// jsConfig adds the configuration file the tool inv names loads, as one
// step in Node's language.
func (r *resolver) jsConfig(inv Invocation) {
	tool, ok := jsTools[inv.Name]
	if !ok || r.onlyDry {
		return
	}
	file, given, ok := jsConfigOption(tool, inv.Args)
	if !ok || tool.optional && !given || tool.sub != nil && !jsSubcommand(tool, inv.Args) {
		return
	}
	var text string
	if file != "" {
		if !hasExt(file, tool.exts) {
			return // a JSON or YAML configuration: data, not code
		}
		file = join(inv.Dir, file)
		if text, ok = r.read(file); !ok {
			return
		}
	} else if file, text, ok = r.jsDefaultConfig(tool, inv.Dir); !ok {
		return
	}
	r.plan.Runner = inv.Name
	if r.step(Step{File: file, Text: text, Lang: "node", Dir: inv.Dir}) && tool.setup != nil {
		base := path.Dir(file)
		if tool.setupFromDir {
			base = inv.Dir
		}
		r.jsSetup(jsSetupNames(text, tool.setup), base, inv.Dir)
	}
}

// jsConfigOption returns the file the config option names ("" for none),
// whether the option was given, and false when the command loads no
// configuration (--help, --version, a configuration given inline).
func jsConfigOption(tool jsTool, args []string) (file string, given, ok bool) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return file, given, true
		case a == "--help" || a == "-h" || a == "--version":
			return "", false, false
		case tool.optional && (a == tool.short || a == tool.long) && (i+1 == len(args) || strings.HasPrefix(args[i+1], "-")):
			given = true // rollup -c alone: the default name
			continue
		}
		if tool.short == "" && tool.long == "" {
			continue
		}
		if v, n := flagValue(args, i, tool.short, tool.long); n > 0 {
			if strings.HasPrefix(strings.TrimSpace(v), "{") {
				return "", false, false // jest --config '{…}': the configuration itself, as JSON
			}
			file, given, i = v, true, i+n-1
		}
	}
	return file, given, true
}

// jsSubcommand reports whether the command's first operand is one of the
// tool's sub-commands that load the configuration.
func jsSubcommand(tool jsTool, args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			for _, s := range tool.sub {
				if a == s {
					return true
				}
			}
			return false
		}
	}
	return false
}

// jsDefaultConfig reads the first of the tool's default configuration
// files in dir (and its parents, for a tool that looks upwards). A walk
// from inside the home stops at the home: the directories above it
// (/home, /) are the system's, which neither the user's agent nor a
// cloned project writes (a write outside the workspace is judged).
// A walk from elsewhere goes to the root.
func (r *resolver) jsDefaultConfig(tool jsTool, dir string) (file, text string, ok bool) {
	var names []string
	for _, n := range tool.names {
		for _, e := range tool.exts {
			names = append(names, n+e)
		}
	}
	look := r.first
	if tool.upward {
		look = r.firstListed
	}
	for d, i := path.Clean(dir), 0; i <= MaxDepth; d, i = path.Dir(d), i+1 {
		if file, text, ok = look(d, names...); ok || r.failedOn(file) || !tool.upward || d == "/" || d == "." || d == path.Clean(r.home) {
			return file, text, ok
		}
	}
	return "", "", false
}

// hasExt reports whether file ends in one of exts.
func hasExt(file string, exts []string) bool {
	e := path.Ext(file)
	for _, x := range exts {
		if e == x {
			return true
		}
	}
	return false
}

// firstListed is first for a tool that looks in every parent directory:
// one listing of dir tells which of the up to a dozen names are there, so
// that a walk to the root where none is costs a listing a directory, not a
// failed open a name. Names are compared exactly, then without case (as a
// case-insensitive file system finds them). A directory that cannot be
// listed (unreadable, too large, the work budget) is looked in name by
// name as before, so its problems are the reads' own.
func (r *resolver) firstListed(dir string, names ...string) (file, text string, ok bool) {
	l, isLister := r.fs.(Lister)
	if !isLister {
		return r.first(dir, names...)
	}
	listed, err := l.List(dir)
	switch {
	case errors.Is(err, ErrNotExist):
		return "", "", false
	case err != nil:
		return r.first(dir, names...)
	}
	var there []string
	for _, n := range names {
		if e, found := listedName(listed, n); found {
			there = append(there, e)
		}
	}
	return r.first(dir, there...)
}

// listedName returns the entry of listed that is the file n: the same
// name, else the same without case; a directory (a trailing "/") is not.
func listedName(listed []string, n string) (string, bool) {
	fold := ""
	for _, e := range listed {
		switch {
		case e == n:
			return e, true
		case fold == "" && strings.EqualFold(e, n):
			fold = e
		}
	}
	return fold, fold != ""
}
