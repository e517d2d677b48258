// Package fleet keeps toolguard's shared state in PostgreSQL, so that many
// `toolguard serve` replicas and many agents' hooks enforce one policy with
// one set of pending approvals, grants, budgets, sub-agent totals and one
// audit trail. It is used when the policy sets [state] url; without it
// everything stays in files (package state) and this package is not
// touched.
//
// A [Store] is one process's connection to the database. Open applies the
// embedded, versioned migrations under an advisory lock, so replicas that
// start together are safe. From a Store come the implementations of the
// interfaces the guard uses — [Store.Grants] (approval.Keeper),
// [Store.Ledger] (budget.Ledger), [Store.Tally] (budget.Tally) and
// [Store.Audit] (audit.Sink, with group commit: every record is durable
// before Write returns) — and the [Board], the fleet's pending approvals:
// each is owned by the replica whose client waits for it and holds a lease
// that replica renews; any replica may answer it, exactly one answer wins,
// and LISTEN/NOTIFY releases the owner at once. A replica that dies has
// its approvals closed as abandoned when the lease runs out.
//
// What decides whether a call may run — grants, approval cards and
// answers, notifications — is signed with the fleet key (Options.Key);
// rows without a valid signature, which anyone who reaches the database
// could write, are ignored and counted ([Store.Rejected]). An answer given
// on a replica other than the owner is taken by the owner ([Board.Take])
// before the answering replica reports it, or withdrawn. A failed audit
// write is amended with what the caller was answered ([audit.Amender]),
// kept in a local spool until the database takes it.
//
// Every operation has a deadline, and a Store that has seen the database
// fail answers at once with [ErrUnavailable] until a background probe finds
// it again, so callers deny fast while it is down and resume by themselves
// when it returns.
package fleet
