// Package condition compiles and evaluates the boolean `when` expressions
// of user rules.
//
// The language is the small subset of expr (github.com/expr-lang/expr) that
// rules need, with expr's syntax and precedence, so that conditions written
// for expr keep working:
//
//	"terraform" in names
//	any(paths, hasPrefix(#, "/srv")) && agent != "ci"
//	kind == "shell" ? any(commands, # matches "^git push .*--force") : false
//
// # Values and types
//
// A condition sees four types: bool, int, string and []string (a list of
// strings). [Compile] checks every expression against the declared
// variables and requires a bool result, so a condition that compiles
// cannot meet a type error when it runs.
//
// Literals are "double" or 'single' quoted strings (with the escapes \" \'
// \\ \n and \t), decimal integers, true, false, and lists of strings
// ["a", b]. `#` is the current element inside a predicate.
//
// # Operators
//
// From the loosest to the tightest binding:
//
//	a ? b : c                    ternary (right-associative); b and c have the same type
//	||  or                       bool
//	&&  and                      bool
//	== !=                        any two values of the same type
//	< <= > >=                    ints or strings; a < b < c means a < b && b < c
//	in                           string in []string
//	contains startsWith endsWith strings
//	matches                      string matches an RE2 regular expression
//	!  not                       bool; binds tighter than all of the above
//
// The comparison operators (== to matches) share one precedence level and
// associate to the left; `not` before in, contains, startsWith, endsWith
// or matches negates it ("rm" not in names). Because ! binds tightly,
// negate a comparison with parentheses: !("rm" in names).
//
// # Functions
//
//	len(s) len(list)             runes of a string, elements of a list (int)
//	any(list, pred)              pred holds for some element
//	all(list, pred)              pred holds for every element (true for an empty list)
//	none(list, pred)             pred holds for no element
//	one(list, pred)              pred holds for exactly one element
//	count(list, pred)            elements for which pred holds (int)
//	filter(list, pred)           those elements ([]string)
//	hasPrefix(s, p) hasSuffix(s, p)
//	lower(s) upper(s) trim(s) trim(s, cutset)
//	split(s, sep)                []string
//	join(list) join(list, sep)   string
//
// A predicate is any bool expression, optionally in braces, in which `#`
// is the current element; in nested predicates `#` is the innermost one:
// any(commands, any(split(#, " "), # == "--force")).
//
// # Limits
//
// Compile refuses expressions of more than [MaxNodes] nodes or nested
// more than [MaxDepth] levels deep (parentheses, lists, calls,
// predicates, unary operators and ternary branches). Evaluation runs no
// loops except over the elements of lists, so its work is bounded by the
// sizes of the inputs; it also stops with an error after [MaxSteps]
// steps (predicate iterations, list elements made or read, 64-byte units
// of string read), and never panics. A comparison chain evaluates each
// operand once.
//
// The package runs no code at initialisation and imports only the
// standard library: every toolguard process links it, and start-up time
// is the budget it must fit (see docs/design-notes.md).
package condition
