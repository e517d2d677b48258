// Package policy holds toolguard's configuration schema, the mode presets, the
// compilation of a configuration into an immutable [*Policy], and
// [Policy.Decide], which turns one tool call into a [Decision]. What the
// code of a call does is package analysis's to say; Decide is the judge
// of the effects it reports (judge.go), weighing them against the
// policy's command lists, path and URL rules, user rules, self-protection
// and work budget.
//
// Decide is pure: it performs no I/O beyond stat and readlink while
// canonicalising paths, keeps no state between calls, and is safe for
// concurrent use. Approvals, grants, budgets and the audit trail live in the
// approval, budget, audit and guard packages, which wrap Decide.
package policy
