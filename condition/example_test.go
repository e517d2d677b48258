package condition_test

import (
	"fmt"

	"github.com/toolguard/toolguard/condition"
)

// toolCall is the Env of the example: the variables of one tool call.
type toolCall struct {
	tool  string
	names []string
	paths []string
}

func (c *toolCall) Lookup(name string) any {
	switch name {
	case "tool":
		return c.tool
	case "names":
		return c.names
	case "paths":
		return c.paths
	}
	return nil
}

func Example() {
	vars := map[string]condition.Type{
		"tool":  condition.String,
		"names": condition.StringList,
		"paths": condition.StringList,
	}
	prog, err := condition.Compile(`tool == "Bash" && ("terraform" in names || any(paths, hasPrefix(#, "/srv")))`, vars)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(prog.Eval(&toolCall{tool: "Bash", names: []string{"terraform", "jq"}}))
	fmt.Println(prog.Eval(&toolCall{tool: "Bash", names: []string{"ls"}, paths: []string{"/home/me"}}))

	_, err = condition.Compile(`"terraform" in nmes`, vars)
	fmt.Println(err)
	_, err = condition.Compile(`tool contains 1`, vars)
	fmt.Println(err)
	// Output:
	// true <nil>
	// false <nil>
	// column 16: unknown variable "nmes": expected one of names, paths, tool (did you mean names?)
	// column 15: expected string on the right of contains, found int
}
