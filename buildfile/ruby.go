package buildfile

import (
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// Ruby is the language of a Rakefile, a Gemfile and a gemspec.
const Ruby Lang = "ruby"

// rakefileNames are the names rake looks for, in its order.
var rakefileNames = []string{"Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"}

// rake reads the Rakefile rake loads — in the directory or, as rake looks
// upwards, the nearest parent that has one — and the .rake files of its
// rakelib directory, as Ruby: rake runs the whole Rakefile to define its
// tasks, so every task, and rake -T or -P, runs all its top-level code.
func (r *resolver) rake(inv Invocation) {
	if r.onlyDry {
		return
	}
	dir, file, rakelib, search := inv.Dir, "", "rakelib", true
	for i := 0; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if a == "--" {
			break
		}
		switch a {
		case "-h", "--help", "-H", "-V", "--version":
			return
		case "-N", "--nosearch", "--no-search":
			search = false
			continue
		}
		if v, n := flagValue(inv.Args, i, "-f", "--rakefile"); n > 0 {
			file = v
			i += n - 1
			continue
		}
		if v, n := flagValue(inv.Args, i, "-C", "--directory"); n > 0 {
			dir = join(dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(inv.Args, i, "-R", "--rakelibdir"); n > 0 {
			rakelib = v
			i += n - 1
		}
	}
	r.plan.Runner = "rake"
	r.rakeFiles(dir, file, rakelib, search, nil)
}

// rakeFiles adds the Rakefile (file, or the first of rakefileNames found
// in dir or above when search is set) and rakelib/*.rake beside it, and
// the extra .rake directories of a Rails application (lib/tasks).
func (r *resolver) rakeFiles(dir, file, rakelib string, search bool, extra []string) {
	var text string
	var ok bool
	if file != "" {
		file, text, ok = r.runnerFile(join(dir, file), dir, "Rakefile")
	} else {
		for d, i := path.Clean(dir), 0; i <= 2*MaxDepth; d, i = path.Dir(d), i+1 {
			file, text, ok = r.first(d, rakefileNames...)
			if ok || r.failedOn(file) || !search || d == "/" || d == "." {
				break
			}
		}
	}
	if !ok {
		return
	}
	root := path.Dir(file)
	r.rakeStep(file, text, root)
	for _, sub := range append([]string{rakelib}, extra...) {
		r.rubyDir(join(root, sub), ".rake", root, true)
	}
}

// rakeStep adds a Rakefile or .rake file, whole, as Ruby, then the shell
// commands its sh and ruby calls run, each on its line.
func (r *resolver) rakeStep(file, text, dir string) {
	r.step(Step{File: file, Text: text, Lang: Ruby, Dir: dir})
	for _, c := range rakeCommands(text) {
		if c.problem != "" {
			r.problem(file, c.problem)
			continue
		}
		if !r.step(Step{File: file, Line: c.line, Text: c.text, Lang: Shell, Dir: dir}) {
			return
		}
	}
}

// rubyDir adds the files of dir whose names end in ext, in name order, as
// Ruby run in runDir (with their sh commands when rake is set). A
// directory that does not exist adds nothing.
func (r *resolver) rubyDir(dir, ext, runDir string, rake bool) {
	names, ok := r.list(dir)
	if !ok {
		return
	}
	slices.Sort(names)
	for _, n := range names {
		if strings.HasSuffix(n, "/") || !strings.HasSuffix(n, ext) {
			continue
		}
		p := path.Join(dir, n)
		text, ok := r.read(p)
		switch {
		case ok && rake:
			r.rakeStep(p, text, runDir)
		case ok:
			r.step(Step{File: p, Text: text, Lang: Ruby, Dir: runDir})
		}
	}
}

// railsCommands are the rails commands that are not rake tasks: they load
// the application, or make a new one, not the Rakefile.
var railsCommands = map[string]bool{
	"new": true, "server": true, "s": true, "console": true, "c": true, "generate": true, "g": true,
	"destroy": true, "d": true, "dbconsole": true, "db": true, "runner": true, "r": true,
	"credentials:edit": true, "credentials:show": true, "encrypted:edit": true, "encrypted:show": true,
	"-v": true, "--version": true, "-h": true, "--help": true, "help": true, "version": true,
	"plugin": true, "app:template": true, "routes": true,
}

// rails reads what rails TASK (and bin/rails TASK) runs through rake: the
// Rakefile, lib/tasks/*.rake, and db/seeds.rb for the tasks that seed.
func (r *resolver) rails(inv Invocation) {
	if r.onlyDry || len(inv.Args) == 0 || railsCommands[inv.Args[0]] || strings.HasPrefix(inv.Args[0], "-") {
		return
	}
	r.plan.Runner = "rails"
	r.rakeFiles(inv.Dir, "", "rakelib", true, []string{"lib/tasks"})
	for _, task := range inv.Args {
		switch task {
		case "db:seed", "db:setup", "db:reset", "db:prepare", "db:seed:replant":
			p := path.Join(inv.Dir, "db/seeds.rb")
			if text, ok := r.read(p); ok {
				r.step(Step{File: p, Text: text, Lang: Ruby, Dir: inv.Dir})
			}
			return
		}
	}
}

// gem reads the gemspec gem build evaluates: the one named, or the
// .gemspec files of the directory.
func (r *resolver) gem(inv Invocation) {
	if r.onlyDry || len(inv.Args) == 0 || inv.Args[0] != "build" {
		return
	}
	dir, spec := inv.Dir, ""
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if v, n := flagValue(inv.Args, i, "-C", ""); n > 0 {
			dir = join(dir, v)
			i += n - 1
			continue
		}
		if a == "-h" || a == "--help" {
			return
		}
		if _, n := flagValue(inv.Args, i, "-o", "--output"); n > 0 {
			i += n - 1
			continue
		}
		if !strings.HasPrefix(a, "-") && spec == "" {
			spec = a
		}
	}
	r.plan.Runner = "gem"
	if spec != "" {
		p := join(dir, spec)
		if !strings.HasSuffix(p, ".gemspec") {
			p += ".gemspec" // gem build NAME builds NAME.gemspec
		}
		if text, ok := r.read(p); ok {
			r.step(Step{File: p, Text: text, Lang: Ruby, Dir: dir})
		}
		return
	}
	r.rubyDir(dir, ".gemspec", dir, false)
}

// bundleEvaluates are the bundle commands that evaluate the Gemfile.
var bundleEvaluates = map[string]bool{
	"install": true, "update": true, "exec": true, "check": true, "lock": true, "list": true,
	"show": true, "info": true, "outdated": true, "package": true, "pack": true, "cache": true,
	"binstubs": true, "clean": true, "console": true, "add": true, "remove": true, "doctor": true,
	"pristine": true, "open": true, "licenses": true, "viz": true, "platform": true,
}

// bundle reads the Gemfile Bundler evaluates (gems.rb too), in the
// directory or the nearest parent that has one, as Ruby; a plain bundle is
// bundle install. It returns what bundle exec runs, nil for none.
func (r *resolver) bundle(inv Invocation) []string {
	args := inv.Args
	if len(args) == 0 {
		args = []string{"install"}
	}
	if r.onlyDry || !bundleEvaluates[args[0]] {
		return nil
	}
	var rest []string
	gemfile := ""
	if args[0] == "exec" {
		rest = args[1:]
		if len(rest) > 0 && strings.HasPrefix(rest[0], "--") { // --keep-file-descriptors, --gemfile
			if v, n := flagValue(rest, 0, "", "--gemfile"); n > 0 {
				gemfile = v
				rest = rest[n:]
			} else {
				rest = rest[1:]
			}
		}
	} else {
		for i := 1; i < len(args); i++ {
			if v, n := flagValue(args, i, "", "--gemfile"); n > 0 {
				gemfile = v
				i += n - 1
			}
		}
	}
	r.plan.Runner = "bundle"
	if slices.Contains(inv.Env, "BUNDLE_GEMFILE") && gemfile == "" {
		r.problem("BUNDLE_GEMFILE", "the Gemfile is named by a variable set for the command")
		return rest
	}
	var file, text string
	var ok bool
	if gemfile != "" {
		file = join(inv.Dir, gemfile)
		text, ok = r.read(file)
	} else {
		for d, i := path.Clean(inv.Dir), 0; i <= 2*MaxDepth; d, i = path.Dir(d), i+1 {
			file, text, ok = r.first(d, "Gemfile", "gems.rb")
			if ok || r.failedOn(file) || d == "/" || d == "." {
				break
			}
		}
	}
	if ok {
		r.step(Step{File: file, Text: text, Lang: Ruby, Dir: path.Dir(file)})
		if gemspecLine.Get().MatchString(text) { // gemspec: Bundler evaluates the directory's gemspecs too
			r.rubyDir(path.Dir(file), ".gemspec", path.Dir(file), false)
		}
	}
	return rest
}

// gemspecLine is a Gemfile's gemspec directive.
var gemspecLine = lazyre.Regexp{Expr: `(?m)^[ \t]*gemspec\b`}
