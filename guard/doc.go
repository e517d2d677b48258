// Package guard is the facade a Go agent embeds: one [Guard.Authorize] call
// decides a tool call with the policy, applies standing grants and budgets,
// asks a person when the verdict is ask, remembers session and always
// approvals, and writes the audit record.
//
// The policy's Decide stays pure; everything with state or I/O (grants,
// budgets, the approver, the audit log) lives here, configured with
// options. A Guard is safe for concurrent use.
package guard
