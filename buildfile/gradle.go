package buildfile

import (
	"path"
	"slices"
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// Gradle evaluates its scripts before it runs any task (help, tasks and
// projects included): the init scripts (-I, ~/.gradle/init.gradle and
// ~/.gradle/init.d), the settings script, buildSrc's build, and the build
// script of the root and of every project the settings include. Each
// script is Groovy (.gradle) or Kotlin (.gradle.kts) code that can do
// anything, so each is a step: the whole file, in its language.

// The languages of Gradle's scripts.
const (
	Groovy Lang = "groovy"
	Kotlin Lang = "kotlin"
)

// gradleValueFlags are Gradle's options that take a value as the next word.
var gradleValueFlags = []string{"-x", "--exclude-task", "--console", "--warning-mode", "--max-workers", "--priority",
	"--tests", "--include-build", "-D", "-P", "--system-prop", "--project-prop", "--dependency-verification", "-F",
	"--write-locks", "--update-locks", "-M", "--write-verification-metadata", "--project-cache-dir", "--task",
	"--configuration", "--dependency", "--scan-uri", "--type", "--dsl", "--package", "--project-name", "--test-framework"}

// gradleNoRun are the options with which Gradle evaluates no script.
var gradleNoRun = []string{"--help", "-h", "-?", "--version", "-v", "--stop", "--status"}

func (r *resolver) gradle(inv Invocation) {
	dir := inv.Dir
	var initScripts []string
	buildFile, settingsFile, userHome := "", "", ""
	if inv.Home != "" {
		userHome = path.Join(inv.Home, ".gradle")
	}
	args := inv.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if slices.Contains(gradleNoRun, a) {
			return
		}
		if v, n := flagValue(args, i, "-I", "--init-script"); n > 0 {
			initScripts = append(initScripts, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-p", "--project-dir"); n > 0 {
			dir = join(inv.Dir, v)
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-b", "--build-file"); n > 0 {
			buildFile = v
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-c", "--settings-file"); n > 0 {
			settingsFile = v
			i += n - 1
			continue
		}
		if v, n := flagValue(args, i, "-g", "--gradle-user-home"); n > 0 {
			userHome = join(inv.Dir, v)
			i += n - 1
			continue
		}
		if slices.Contains(gradleValueFlags, a) {
			i++
		}
	}
	r.plan.Runner = "gradle"
	if slices.Contains(inv.Env, "GRADLE_USER_HOME") {
		r.problem("GRADLE_USER_HOME", "the command sets Gradle's user home, whose init scripts are not known")
		userHome = ""
	}
	for _, s := range initScripts {
		r.gradleScript(join(inv.Dir, s), inv.Dir)
	}
	if userHome != "" {
		r.gradleScript(path.Join(userHome, "init.gradle"), dir)
		r.gradleScript(path.Join(userHome, "init.gradle.kts"), dir)
		if _, ok := r.fs.(Lister); ok {
			initd := path.Join(userHome, "init.d")
			names, _ := r.list(initd)
			slices.Sort(names)
			for _, n := range names {
				if strings.HasSuffix(n, ".gradle") || strings.HasSuffix(n, ".gradle.kts") {
					r.gradleScript(path.Join(initd, n), dir)
				}
			}
		}
	}
	var settings string
	if settingsFile != "" {
		settings = r.gradleScript(join(inv.Dir, settingsFile), dir)
	} else {
		settings = r.gradleScript(path.Join(dir, "settings.gradle"), dir) + "\n" +
			r.gradleScript(path.Join(dir, "settings.gradle.kts"), dir)
	}
	for _, b := range []string{"buildSrc/settings.gradle", "buildSrc/settings.gradle.kts", "buildSrc/build.gradle", "buildSrc/build.gradle.kts"} {
		r.gradleScript(path.Join(dir, b), path.Join(dir, "buildSrc"))
	}
	if buildFile != "" {
		r.gradleScript(join(inv.Dir, buildFile), dir)
	} else {
		r.gradleBuild(dir)
	}
	for _, p := range gradleIncludes(settings) {
		r.gradleBuild(path.Join(dir, p))
	}
}

// gradleBuild adds the build script of the project in dir.
func (r *resolver) gradleBuild(dir string) {
	r.gradleScript(path.Join(dir, "build.gradle"), dir)
	r.gradleScript(path.Join(dir, "build.gradle.kts"), dir)
}

// gradleScript adds the script at p as a step, when there is one, and
// returns its text.
func (r *resolver) gradleScript(p, dir string) string {
	text, ok := r.read(p)
	if !ok {
		return ""
	}
	lang := Groovy
	if strings.HasSuffix(p, ".kts") {
		lang = Kotlin
	}
	r.step(Step{File: p, Text: text, Lang: lang, Dir: dir})
	return text
}

// gradleIncludeRE finds the include statements of a settings script;
// gradleQuotedRE the quoted project paths in one.
var (
	gradleIncludeRE = lazyre.Regexp{Expr: `(?m)^[ \t]*include[ \t(]([^\n]*)`}
	gradleQuotedRE  = lazyre.Regexp{Expr: `["']([^"'$\n]+)["']`}
)

// gradleIncludes are the directories, relative to the root, of the
// projects a settings script includes with literal paths (include 'a',
// ':b:c' is b/c), in order and once each. A path computed when the script
// runs is not known; the settings script itself is a step.
func gradleIncludes(settings string) []string {
	if !gradleIncludeRE.MayMatch(settings) {
		return nil
	}
	var out []string
	for _, m := range gradleIncludeRE.Get().FindAllStringSubmatch(settings, -1) {
		for _, q := range gradleQuotedRE.Get().FindAllStringSubmatch(m[1], -1) {
			p := strings.ReplaceAll(strings.Trim(q[1], ":"), ":", "/")
			if p == "" || !validGradlePath(p) || slices.Contains(out, p) || len(out) >= MaxFiles {
				continue
			}
			out = append(out, p)
		}
	}
	return out
}

// validGradlePath reports whether p is a project path that stays below
// the root.
func validGradlePath(p string) bool {
	if strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/") != "" {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." || part == "." || part == "" {
			return false
		}
	}
	return true
}
