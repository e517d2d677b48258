// Package archtest holds tests that guard the shape of the module: which
// packages may depend on what, and that every package is documented. It
// has no code of its own.
package archtest
