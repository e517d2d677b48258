package policy

import (
	"fmt"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// condition is a compiled `when` expression of a user rule.
//
// Conditions use the expr language (github.com/expr-lang/expr), whose
// syntax for the expressions rules need is the same as CEL's:
//
//	"rm" in names && any(paths, hasPrefix(#, "/srv"))
//
// CEL was the first choice (DESIGN §4) but linking cel-go adds about 1.3 ms
// of package initialisation to every toolguard process, measured on the CI
// machine, which alone breaks the hook latency budget (DESIGN §10); expr
// adds about 0.2 ms, is type-checked at compile time against the variables
// below, and always terminates.
type condition struct {
	src  string
	prog *vm.Program
}

// conditionEnv lists the variables a condition can read.
type conditionEnv struct {
	Tool      string   `expr:"tool"`      // tool name as sent
	Kind      string   `expr:"kind"`      // shell, read, write, fetch, …
	Command   string   `expr:"command"`   // shell command text ("" for other tools)
	Commands  []string `expr:"commands"`  // each simple command, words joined by spaces
	Names     []string `expr:"names"`     // executable names of the simple commands
	Paths     []string `expr:"paths"`     // canonical paths the call touches
	URLs      []string `expr:"urls"`      // URLs the call fetches
	Hosts     []string `expr:"hosts"`     // hosts of those URLs
	Cwd       string   `expr:"cwd"`       // working directory
	Workspace string   `expr:"workspace"` // project root
	Agent     string   `expr:"agent"`     // agent name
	Session   string   `expr:"session"`   // session id
	Tier      string   `expr:"tier"`      // base tier of the tool
}

// ConditionVariables documents the variables available to `when`.
func ConditionVariables() []string {
	return []string{"tool", "kind", "command", "commands", "names", "paths", "urls", "hosts", "cwd", "workspace", "agent", "session", "tier"}
}

func compileCondition(src string) (*condition, error) {
	prog, err := expr.Compile(src, expr.Env(conditionEnv{}), expr.AsBool(), expr.MaxNodes(2000))
	if err != nil {
		return nil, fmt.Errorf("%q: %w (variables: %v)", src, err, ConditionVariables())
	}
	return &condition{src: src, prog: prog}, nil
}

// eval runs the condition; an evaluation error counts as "matched" for
// deny and ask rules and "not matched" for allow rules (fail closed).
func (c *condition) eval(env *conditionEnv, failMatches bool) bool {
	out, err := expr.Run(c.prog, env)
	if err != nil {
		return failMatches
	}
	b, ok := out.(bool)
	return ok && b
}
