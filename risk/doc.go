// Package risk is the shared vocabulary of a toolguard decision: verdicts,
// tiers, blast radius, categories and findings.
//
// Every stage that judges part of a tool call (the rule packs, the path and URL
// checks, user rules) reports a [Finding]; the policy combines findings into a
// decision. Keeping the vocabulary in one small package lets those stages stay
// independent of one another and of the policy that composes them.
package risk
