package buildfile

// Swift is the language of a Package.swift.
const Swift Lang = "swift"

// swift reads the Package.swift that swift build, test, run and package
// compile and run to know the package, as Swift (--package-path names its
// directory).
func (r *resolver) swift(inv Invocation) {
	if r.onlyDry || len(inv.Args) == 0 {
		return
	}
	switch inv.Args[0] {
	case "build", "test", "run", "package":
	default:
		return // the REPL, swift FILE (a script the call runs) and the toolchain's other tools
	}
	dir := inv.Dir
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if a == "--" {
			break
		}
		if a == "--help" || a == "-h" || a == "--version" {
			return
		}
		if v, n := flagValue(inv.Args, i, "", "--package-path"); n > 0 {
			dir = join(dir, v)
			i += n - 1
		}
	}
	r.plan.Runner = "swift"
	p := join(dir, "Package.swift")
	if text, ok := r.read(p); ok {
		r.step(Step{File: p, Text: text, Lang: Swift, Dir: dir})
	}
}
