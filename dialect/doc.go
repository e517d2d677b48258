// Package dialect translates code written for shells whose language is not
// POSIX — PowerShell (pwsh -Command, powershell -EncodedCommand) and
// nushell (nu -c) — into POSIX shell text with the same effects, so that
// package shell parses it and the analysis judges each command as it
// judges the POSIX command that does the same: Remove-Item -Recurse is rm
// -r, Get-Content is cat, Set-Content and Out-File write their file,
// Invoke-WebRequest is curl (with -OutFile, curl -o), a download piped to
// Invoke-Expression is a download piped to a shell, nushell's rm, open,
// save and http get are rm, cat, a redirect and curl.
//
// The translation models a part of each language: pipelines of commands
// with literal, quoted, variable and parenthesised arguments, and the
// common cmdlets and aliases by their parameters. Anything else —
// script blocks, closures, member calls, .NET types, keywords, a
// parameter a cmdlet does not have, a provider path such as env: or
// HKLM: — makes the translation fail (ok is false), and the caller keeps
// the code unproven. A cmdlet the table does not know is written as a
// command of its own name, which no effect entry describes, so it stays
// unproven too; a program that is not a cmdlet is run as PowerShell and
// nushell run external programs, with its arguments as written.
//
// Variables: PowerShell's $HOME, $env:HOME and ~ are the home directory,
// $env:NAME is the environment variable NAME, $PWD the working directory;
// any other variable is written as ${__ps_NAME} (nushell: ${__nu_NAME}),
// which the shell analysis does not know unless the code assigned it a
// literal first.
package dialect
