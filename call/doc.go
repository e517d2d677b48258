// Package call defines the normalised tool call that toolguard judges, the
// kinds of tools, and the table that maps each agent's tool names and argument
// fields onto those kinds.
//
// Agents name the same tool differently (Bash, run_shell_command, shell,
// Shell) and put its arguments under different keys (command, cmd,
// file_path, path). A [Table] turns an agent's (name, input) pair into a
// [Call] whose Command, Paths and URLs fields are filled in, so that every
// later stage sees one shape. Unknown and MCP tools default to the execute
// tier.
package call
