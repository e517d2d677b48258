// Package rules classifies one simple shell command with data-driven rule
// packs.
package rules
