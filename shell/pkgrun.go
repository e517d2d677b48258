package shell

import (
	"path"
	"strings"
)

// packageRunner records a package runner (npx, bunx, pnpx, pnpm dlx, yarn
// dlx, npm exec) and the command it starts: the package's program with the
// words after it, as if typed (npx rimraf ~ deletes the home as rimraf ~
// does), a -c/--call string as shell code. The runner itself stays a
// command of its own, judged for what it fetches and runs. For pnpm, yarn
// and npm only their dlx and exec sub-commands start a package.
func (w *walker) packageRunner(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	argv, code, ok := packageRunnerArgv(c.Name, c.Args())
	if !ok {
		return
	}
	if code != nil {
		w.nested(w.derived(c, "bash -c", cx), *code, nest{origin: "bash -c", via: c.Name, state: st.childEnv(c)}, cx)
		return
	}
	if len(argv) > 0 && argv[0].Known {
		w.runNestedArgv(w.derived(c, "package runner", cx), argv, st.childEnv(c), cx)
	}
}

// packageRunnerArgv finds what a package runner starts among its words:
// the program and its words, or the code of -c/--call; ok is false when
// it starts nothing it can name (a sub-command that is no runner, a
// package given by -p with no command after it).
func packageRunnerArgv(name string, args []Word) (argv []Word, code *Word, ok bool) {
	switch path.Base(name) {
	case "pnpm", "yarn":
		if len(args) == 0 || args[0].Value != "dlx" {
			return nil, nil, false
		}
		args = args[1:]
	case "npm":
		if len(args) == 0 || args[0].Value != "exec" && args[0].Value != "x" {
			return nil, nil, false
		}
		args = args[1:]
	}
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			return args[i+1:], nil, len(args) > i+1
		case v == "-c" || v == "--call":
			if i+1 < len(args) {
				return nil, &args[i+1], true
			}
			return nil, nil, false
		case strings.HasPrefix(v, "--call="):
			cw := args[i]
			cw.Value = strings.TrimPrefix(v, "--call=")
			return nil, &cw, true
		case v == "-p" || v == "--package" || v == "--registry" || v == "--cache" || v == "--userconfig":
			i++ // its value
		case strings.HasPrefix(v, "-"):
			// -y, --yes, --no, -q, --quiet, --bun, --silent, --package=X, …
		default:
			if !args[i].Known {
				return nil, nil, false
			}
			return args[i:], nil, true
		}
	}
	return nil, nil, false
}
