package policy

import (
	"fmt"

	cond "github.com/toolguard/toolguard/condition"
)

// condition is a compiled `when` expression of a user rule.
//
// The language is expr's syntax (github.com/expr-lang/expr) for the subset
// rules need, which for these expressions is also CEL's:
//
//	"rm" in names && any(paths, hasPrefix(#, "/srv"))
//
// It is implemented in package condition, not by linking expr: expr's
// package initialisation and the code it pulls in cost every toolguard
// process (one starts per agent hook call) about 0.4× the CPU time of a
// minimal Go program, which the start-up budget cannot afford (CEL, the
// first choice of DESIGN §4, cost more still). Conditions are type-checked
// at load time against the variables below and always terminate.
type condition struct {
	src  string
	prog *cond.Program
}

// conditionEnv holds the variables a condition can read.
type conditionEnv struct {
	Tool      string   // tool name as sent
	Kind      string   // shell, read, write, fetch, …
	Command   string   // shell command text ("" for other tools)
	Commands  []string // each simple command, words joined by spaces (written when a condition is evaluated: evaluation.commandTexts)
	Names     []string // executable names of the simple commands
	Paths     []string // canonical paths the call touches
	URLs      []string // URLs the call fetches
	Hosts     []string // hosts of those URLs
	Cwd       string   // working directory
	Workspace string   // project root
	Agent     string   // agent name
	Session   string   // session id
	Tier      string   // base tier of the tool
}

// conditionVar declares a variable of conditionEnv.
type conditionVar struct {
	name string
	typ  cond.Type
}

// conditionVars are the variables of conditionEnv, in the order
// ConditionVariables documents them.
func conditionVars() []conditionVar {
	return []conditionVar{
		{"tool", cond.String}, {"kind", cond.String}, {"command", cond.String},
		{"commands", cond.StringList}, {"names", cond.StringList}, {"paths", cond.StringList},
		{"urls", cond.StringList}, {"hosts", cond.StringList}, {"cwd", cond.String},
		{"workspace", cond.String}, {"agent", cond.String}, {"session", cond.String},
		{"tier", cond.String},
	}
}

// Lookup implements [cond.Env].
func (e *conditionEnv) Lookup(name string) any {
	switch name {
	case "tool":
		return e.Tool
	case "kind":
		return e.Kind
	case "command":
		return e.Command
	case "commands":
		return e.Commands
	case "names":
		return e.Names
	case "paths":
		return e.Paths
	case "urls":
		return e.URLs
	case "hosts":
		return e.Hosts
	case "cwd":
		return e.Cwd
	case "workspace":
		return e.Workspace
	case "agent":
		return e.Agent
	case "session":
		return e.Session
	case "tier":
		return e.Tier
	}
	return nil
}

// ConditionVariables documents the variables available to `when`.
func ConditionVariables() []string {
	var names []string
	for _, v := range conditionVars() {
		names = append(names, v.name)
	}
	return names
}

func compileCondition(src string) (*condition, error) {
	vars := map[string]cond.Type{}
	for _, v := range conditionVars() {
		vars[v.name] = v.typ
	}
	prog, err := cond.Compile(src, vars)
	if err != nil {
		// Errors name the column and, for an unknown name, the variables.
		return nil, fmt.Errorf("%q: %w", src, err)
	}
	return &condition{src: src, prog: prog}, nil
}

// eval runs the condition; an evaluation error counts as "matched" for
// deny and ask rules and "not matched" for allow rules (fail closed).
func (c *condition) eval(env *conditionEnv, failMatches bool) bool {
	b, err := c.prog.Eval(env)
	if err != nil {
		return failMatches
	}
	return b
}
