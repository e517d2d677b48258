// Package policy holds toolguard's configuration schema, the mode presets, the
// compilation of a configuration into an immutable [*Policy], and
// [Policy.Decide], which turns one tool call into a [Decision].
//
// Decide is pure: it performs no I/O beyond stat and readlink while
// canonicalising paths, keeps no state between calls, and is safe for
// concurrent use. Approvals, grants, budgets and the audit trail live in the
// approval, budget, audit and guard packages, which wrap Decide.
package policy
