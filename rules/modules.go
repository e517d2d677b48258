package rules

import (
	"strings"

	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// python -m MODULE runs a module that is, for some modules, a program of
// its own with the same command line: python -m pip list is pip list,
// python3 -m json.tool data.json reads data.json as the json.tool entry
// says, python3 -m zipfile -l x.zip lists x.zip as the python-m-zipfile
// entry says. When the words after the module are a read the module's program
// is proven to make (pip list, pip show, pip freeze), the python command
// is judged as that read. Anything else (python -m pip install x, python
// -m http.server, a module not listed here) is judged as before: python
// running the module, with the packs' rules about it.
//
// Which file python runs is decided when it runs: -m looks in the
// directory it runs in first, so a project's pip.py or json/ package
// would run instead. The analysis reads those files (the module files of
// python -m, package analysis) and judges what they hold as code; this
// judgement is only the module's own, from its installed copy.

// ModulePrograms maps the modules python -m runs that are programs of
// their own to the effect-model entry of that program.
var ModulePrograms = map[string]string{"pip": "pip", "json.tool": "json.tool",
	"zipfile": "python-m-zipfile", "tarfile": "python-m-tarfile"}

// moduleCommand returns the command python -m MODULE ARGS is, MODULE's
// program given ARGS (the module's word standing for the program), when
// MODULE is in ModulePrograms and nothing else of the command changes
// which code python runs: only python's options that do not (-I, -E, -s,
// -S, -B, -u, -q, -b, -O, -P, -W), no PYTHON* variable set on the
// command or exported before it, no privilege or remote host. ok is false
// otherwise.
func moduleCommand(cmd *shell.Command) (*shell.Command, bool) {
	if cmd.Name != "python" && cmd.Name != "python3" || cmd.Remote != "" || len(cmd.Argv) < 3 {
		return nil, false
	}
	for _, as := range cmd.Assigns {
		if strings.HasPrefix(as.Name, "PYTHON") {
			return nil, false
		}
	}
	for _, as := range cmd.Env {
		if strings.HasPrefix(as.Name, "PYTHON") {
			return nil, false
		}
	}
	args := cmd.Argv[1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Known {
			return nil, false
		}
		switch w.Value {
		case "-m":
			if i+1 >= len(args) || !args[i+1].Known {
				return nil, false
			}
			prog, ok := ModulePrograms[args[i+1].Value]
			if !ok {
				return nil, false
			}
			argv := make([]shell.Word, 0, len(args)-i-1)
			argv = append(argv, shell.Word{Value: prog, Known: true, Span: args[i+1].Span})
			argv = append(argv, args[i+2:]...)
			mod := *cmd
			mod.Name, mod.Argv = prog, argv
			return &mod, true
		case "-W":
			i++ // a warning filter: which warnings print
		case "-I", "-E", "-s", "-S", "-B", "-u", "-q", "-b", "-bb", "-O", "-OO", "-P":
		default:
			return nil, false
		}
	}
	return nil, false
}

// classifyModule judges python -m MODULE ARGS as MODULE's program when
// that is a proven read (moduleCommand); ok is false otherwise, and the
// command is judged as python's.
func (s *Set) classifyModule(cmd *shell.Command, st *classifyState) (Result, bool) {
	mod, ok := moduleCommand(cmd)
	if !ok {
		return Result{}, false
	}
	res := s.classify(mod, st)
	*st = classifyState{}
	if !res.Proven || res.Tier != risk.Read || len(res.Findings) > 0 {
		return Result{}, false
	}
	return res, true
}
