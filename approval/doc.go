// Package approval asks a person whether a call that needs a human (verdict
// ask) may run, and remembers the answers they chose to keep.
//
// An [Approver] answers one [Request]: [Terminal] prompts on the
// controlling terminal, [Callback] hands the request to the embedding
// program, [None] always denies. [Ask] bounds the wait, logs the
// approval_* events and turns every error and timeout into a denial: an
// error is never an approval.
//
// An answer has a [Scope]. Once approves this call only; Session records a
// [Grant] in the state directory, keyed by the agent's session id, so every
// hook process of that session sees it; Always appends a [[grants]] table
// to the user policy file. [ApplyGrants] lets a grant turn an ask into
// allow — never a deny, and never an unverifiable ask.
package approval
