package buildfile

import (
	"slices"
	"strings"
)

// kotlinc -script FILE and kotlin FILE.main.kts (or FILE.kts) run a
// Kotlin script: the whole file is a step in Kotlin. Compiling sources
// (kotlinc src/Main.kt -d app.jar) runs none of them.

// kotlincValueFlags are kotlinc's options that take a value as the next
// word.
var kotlincValueFlags = []string{"-d", "-cp", "-classpath", "-jvm-target", "-module-name", "-jdk-home", "-api-version",
	"-language-version", "-kotlin-home", "-opt-in", "-P", "-Xplugin", "-expression", "-e"}

func (r *resolver) kotlinScript(inv Invocation) {
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-script" && inv.Name == "kotlinc":
			if i+1 < len(args) {
				r.kotlinFile(inv, args[i+1])
			}
			return
		case a == "-help" || a == "-h" || a == "-version":
			return
		case slices.Contains(kotlincValueFlags, a):
			i++
		case strings.HasPrefix(a, "-"):
		case inv.Name == "kotlin":
			if strings.HasSuffix(a, ".kts") {
				r.kotlinFile(inv, a)
			}
			return // the first word that is no option is what kotlin runs; a script's words follow it
		}
	}
}

// kotlinFile adds the script at name.
func (r *resolver) kotlinFile(inv Invocation, name string) {
	r.plan.Runner = "kotlin"
	p := join(inv.Dir, name)
	if name == "-" {
		r.problem(p, "the script comes from standard input")
		return
	}
	if text, ok := r.read(p); ok {
		r.step(Step{File: p, Text: text, Lang: Kotlin, Dir: inv.Dir})
	}
}
