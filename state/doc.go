// Package state locates toolguard's state and configuration directories and
// provides the few file primitives every stateful package needs: atomic
// replacement of a file, an inter-process lock, and setting a corrupt file
// aside.
//
// Grants, budgets and the audit log are shared by many short-lived hook
// processes of one agent session, so every read-modify-write goes through
// [Lock], every rewrite through [WriteFile], and a file that cannot be parsed
// is moved out of the way with [SetAside] (never silently reset) so that the
// caller can fail closed with an error a person can act on.
package state
