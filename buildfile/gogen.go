package buildfile

import (
	"path"
	"slices"
	"strings"
)

func (r *resolver) goGenerate(inv Invocation) {
	var pkgs []string
	args := inv.Args
	dry := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-n":
			dry = true
		case a == "-run" || a == "-skip" || a == "-tags" || a == "-C" || a == "-mod" || a == "-modfile" || a == "-overlay":
			if a == "-C" && i+1 < len(args) {
				inv.Dir = join(inv.Dir, args[i+1])
			}
			i++
		case strings.HasPrefix(a, "-"):
		default:
			pkgs = append(pkgs, a)
		}
	}
	r.plan.Runner = "go generate"
	if dry {
		r.plan.DryRun = true
		return
	}
	if r.onlyDry {
		r.plan = Plan{}
		return
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	for _, p := range pkgs {
		if strings.HasSuffix(p, ".go") {
			r.generateFile(join(inv.Dir, p))
			continue
		}
		if !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "/") {
			r.problem(join(inv.Dir, "go.mod"), "the package "+p+" is named by import path, whose directory is not resolved")
			continue
		}
		base, all := strings.CutSuffix(p, "/...")
		if p == "..." {
			base, all = ".", true
		}
		r.generateDir(join(inv.Dir, base), all, 0)
	}
}

// generateDir adds the go:generate steps of the Go files in dir, and
// below it when all is set (skipping testdata, vendor and directories
// starting with . or _, as go does).
func (r *resolver) generateDir(dir string, all bool, depth int) {
	if depth > MaxDepth*2 {
		r.problem(dir, "the packages nest too deeply")
		return
	}
	names, ok := r.list(dir)
	if !ok {
		return
	}
	slices.Sort(names)
	for _, n := range names {
		if strings.HasSuffix(n, ".go") && !strings.HasPrefix(n, ".") && !strings.HasPrefix(n, "_") {
			r.generateFile(path.Join(dir, n))
		}
	}
	if !all {
		return
	}
	for _, n := range names {
		sub, isDir := strings.CutSuffix(n, "/")
		if !isDir || sub == "testdata" || sub == "vendor" || strings.HasPrefix(sub, ".") || strings.HasPrefix(sub, "_") {
			continue
		}
		r.generateDir(path.Join(dir, sub), true, depth+1)
	}
}

// generateFile adds the //go:generate lines of one Go file.
func (r *resolver) generateFile(file string) {
	text, ok := r.read(file)
	if !ok {
		return
	}
	for _, s := range generateSteps(file, text) {
		if !r.step(s) {
			return
		}
	}
}

// generateSteps are the commands a Go file's //go:generate lines run,
// with $GOFILE, $GOPACKAGE, $GOLINE and $DOLLAR expanded and -command
// aliases replaced.
func generateSteps(file, text string) []Step {
	var out []Step
	pkg := ""
	aliases := map[string]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if pkg == "" {
			if rest, ok := strings.CutPrefix(line, "package "); ok {
				pkg = strings.TrimSpace(strings.Fields(rest + " x")[0])
			}
		}
		rest, ok := strings.CutPrefix(line, "//go:generate")
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		cmd := strings.TrimSpace(rest)
		cmd = strings.NewReplacer("$GOFILE", path.Base(file), "$GOPACKAGE", pkg, "$DOLLAR", "$",
			"$GOLINE", itoa(i+1)).Replace(cmd)
		f := strings.Fields(cmd)
		if len(f) >= 3 && f[0] == "-command" {
			aliases[f[1]] = strings.Join(f[2:], " ")
			continue
		}
		if len(f) > 0 {
			if a, ok := aliases[f[0]]; ok {
				cmd = a + strings.TrimPrefix(cmd, f[0])
			}
		}
		if cmd != "" {
			out = append(out, Step{File: file, Line: i + 1, Text: cmd, Lang: Shell, Dir: path.Dir(file)})
		}
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// goRunValueFlags are go run's build flags that take a value.
var goRunValueFlags = []string{"-C", "-exec", "-tags", "-ldflags", "-gcflags", "-asmflags", "-gccgoflags", "-mod",
	"-modfile", "-o", "-p", "-overlay", "-pgo", "-toolexec", "-buildmode", "-compiler", "-installsuffix", "-pkgdir",
	"-coverpkg", "-covermode", "-reldir"}

// goRun reads the Go source go run builds and runs: the files named
// (x.go …), or the non-test .go files of the package a local path (./cmd/gen,
// ../../tools/gen) or an import path under the main module names. A package
// from elsewhere (pkg@version, another module) is not read: as before.
func (r *resolver) goRun(inv Invocation) {
	args := inv.Args
	dir := inv.Dir
	var files []string
	pkg := ""
	for i := 0; i < len(args) && pkg == ""; i++ {
		a := args[i]
		switch {
		case a == "-C" && i+1 < len(args):
			dir = join(dir, args[i+1])
			i++
		case slices.Contains(goRunValueFlags, a):
			i++
		case strings.HasPrefix(a, "-"):
		case strings.HasSuffix(a, ".go"):
			files = append(files, join(dir, a))
		default:
			if len(files) == 0 {
				pkg = a
			}
			i = len(args)
		}
	}
	if len(files) == 0 && pkg == "" {
		return
	}
	if len(files) == 0 {
		pd, ok := r.goPackageDir(dir, pkg)
		if !ok {
			return
		}
		names, ok := r.list(pd)
		if !ok {
			return
		}
		for _, n := range names {
			if strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && !strings.HasPrefix(n, ".") && !strings.HasPrefix(n, "_") {
				files = append(files, join(pd, n))
			}
		}
	}
	for _, f := range files {
		if text, ok := r.read(f); ok {
			r.plan.Runner = "go run"
			if !r.step(Step{File: f, Text: text, Lang: "go", Dir: dir}) {
				return
			}
		}
	}
}

// goPackageDir is the directory of the package go run is given: a local
// path, or an import path under the module whose go.mod is in dir or above
// it; false for a package from elsewhere.
func (r *resolver) goPackageDir(dir, pkg string) (string, bool) {
	if strings.Contains(pkg, "@") || strings.Contains(pkg, "...") {
		return "", false
	}
	if pkg == "." || pkg == ".." || strings.HasPrefix(pkg, "./") || strings.HasPrefix(pkg, "../") || path.IsAbs(pkg) {
		return join(dir, pkg), true
	}
	for d, i := dir, 0; i < MaxDepth; d, i = path.Dir(d), i+1 {
		if text, ok := r.read(join(d, "go.mod")); ok {
			mod := goModulePath(text)
			if rest, ok := strings.CutPrefix(pkg, mod); ok && mod != "" && (rest == "" || strings.HasPrefix(rest, "/")) {
				return join(d, "."+rest), true
			}
			return "", false
		}
		if d == "/" || d == "." {
			break
		}
	}
	return "", false
}

// goModulePath is the module path a go.mod declares ("" when none).
func goModulePath(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
