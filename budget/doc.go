// Package budget limits how much an agent may do: actions per sliding hour
// and cost per day for each sender ([Counter], shared exactly by every
// process through files in the state directory), sub-agent limits
// ([Limiter]), and the check that a sub-agent's policy does not exceed its
// parent's ([CheckEscalation]).
//
// The limits and their defaults come from the four systems toolguard started
// from: ZeroClaw's per-sender action window, daily cost budget and
// escalation guard, and ai-chat's sub-agent limiter.
package budget
