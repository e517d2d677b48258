// Package shell analyses a shell command string the way a shell would, without
// running any of it.
//
// [Parse] reads the text with mvdan.cc/sh/v3 (bash dialect) and produces a
// [Script]: every simple command that could run, with its argv resolved
// statically, its assignments and redirects, and wrappers such as sudo, env
// or timeout removed. Code nested in strings (bash -c, eval, ssh host CMD,
// here-docs or pipes fed to a shell) is parsed again and its commands are
// added with an Origin that says how they were reached. Anything that cannot
// be known statically is recorded as a [Problem]; callers must treat a script
// with problems as unverifiable.
package shell
