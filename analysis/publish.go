package analysis

import (
	"encoding/json"
	"path"
	"strings"
	"sync"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/shell"
)

// What a package manager publishes is every file of the package that its
// ignore rules leave in: npm (and yarn, pnpm and bun, which follow npm)
// packs the package's directory, less what package.json's "files" leaves
// out, or else what .npmignore — or, without one, .gitignore — lists, and
// never .npmrc or .git. A denied file that is packed (a .env beside
// package.json with no ignore file naming it) is sent to a public
// registry: publish is judged as a recursive read of the package that
// leaves out what those files name, so the denied file denies the call.

// publishValues are the publish options that take the next word.
var publishValues = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"--tag": true, "--access": true, "--otp": true, "--registry": true, "-w": true, "--workspace": true,
		"--provenance-file": true, "--publish-branch": true, "--report-summary": true,
	}
})

// npmAlwaysSkipped are the names npm never packs that hold secrets or a
// repository.
var npmAlwaysSkipped = []string{".npmrc", ".git", "node_modules"}

// publishes judges the files a package publish sends.
func (a *Analysis) publishes(cmd *shell.Command, dir string) {
	if a.ctx.Files == nil {
		return
	}
	folder, ok := publishFolder(cmd)
	if !ok {
		return
	}
	pkg := folder.Value
	if !path.IsAbs(pkg) {
		pkg = path.Join(dir, pkg)
	}
	if !a.spend(ScanCost(2<<10) + buildStepCost) { // package.json and an ignore file
		return
	}
	if files, ok := a.packageFiles(pkg); ok {
		for _, f := range files {
			w := shell.Word{Value: path.Join(pkg, f), Known: true, Span: folder.Span}
			shape := File
			if HasGlobMeta(f) {
				shape, w.Glob = Glob, true
			}
			a.judge.Path(Path{Word: w, Access: paths.Read, Shape: shape, Dir: dir})
			if shape == File {
				a.judge.Path(Path{Word: w, Access: paths.Read, Shape: Tree, Dir: dir, Publish: true})
			}
		}
		return
	}
	names := paths.Names{Skip: append(a.ignoredNames(pkg), npmAlwaysSkipped...)}
	a.judge.Path(Path{Word: shell.Word{Value: pkg, Known: true, Span: folder.Span}, Access: paths.Read, Shape: Tree, Dir: dir, Names: names, Publish: true})
}

// publishFolder returns the package directory a publish command sends
// (its operand, or "."); ok is false for any other command, a dry run, a
// tarball or a word not known.
func publishFolder(cmd *shell.Command) (shell.Word, bool) {
	switch cmd.Name {
	case "npm", "yarn", "pnpm", "bun":
	default:
		return shell.Word{}, false
	}
	sub, folder := false, shell.Word{Value: ".", Known: true, Span: cmd.Span}
	args := cmd.Args()
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case !w.Known:
			return shell.Word{}, false
		case w.Value == "--dry-run" && i+1 < len(args) && args[i+1].Known && args[i+1].Value == "false":
			i++ // npm's parser takes the word as the value: no dry run
		case w.Value == "--dry-run":
			return shell.Word{}, false
		case publishValues()[w.Value]:
			i++
		case strings.HasPrefix(w.Value, "-"):
		case !sub:
			if w.Value != "publish" {
				return shell.Word{}, false
			}
			sub = true
		default:
			if strings.HasSuffix(w.Value, ".tgz") || strings.Contains(w.Value, "://") {
				return shell.Word{}, false
			}
			folder = w
		}
	}
	return folder, sub
}

// packageFiles returns package.json's "files" list; ok is false when the
// package has none (or no readable package.json).
func (a *Analysis) packageFiles(pkg string) ([]string, bool) {
	text, err := a.ctx.Files.Read(path.Join(pkg, "package.json"))
	if err != nil {
		return nil, false
	}
	var pj struct {
		Files []string `json:"files"`
	}
	if json.Unmarshal([]byte(text), &pj) != nil || pj.Files == nil {
		return nil, false
	}
	out := make([]string, 0, len(pj.Files))
	for _, f := range pj.Files {
		if f = strings.Trim(strings.TrimPrefix(f, "./"), "/"); f != "" && !strings.HasPrefix(f, "!") {
			out = append(out, f)
		}
	}
	return out, true
}

// ignoredNames returns the base-name globs the package's .npmignore (or,
// without one, .gitignore) leaves out. A negation ("!.env.example") may
// put back anything, so an ignore file with one leaves nothing out; a
// pattern with a directory in it ("config/.env") leaves out nothing here
// either (paths.Names takes base names): both judge more than npm sends,
// never less.
func (a *Analysis) ignoredNames(pkg string) []string {
	text, err := a.ctx.Files.Read(path.Join(pkg, ".npmignore"))
	if err != nil {
		if text, err = a.ctx.Files.Read(path.Join(pkg, ".gitignore")); err != nil {
			return nil
		}
	}
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line[0] == '#':
			continue
		case line[0] == '!':
			return nil
		}
		line = strings.Trim(line, "/")
		if line != "" && !strings.Contains(line, "/") {
			out = append(out, line)
		}
	}
	return out
}
