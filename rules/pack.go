package rules

import (
	"bytes"
	"fmt"

	"github.com/pelletier/go-toml/v2"
)

// Pack is one rule pack as written in its TOML file (see the package
// documentation for the format). A Pack is plain data; [Compile] checks and
// compiles it.
type Pack struct {
	// Name identifies the pack ("git", "filesystem"); rule ids and
	// Options.Disable may name it. Required.
	Name string `toml:"name"`
	// Description says what the pack covers; empty is allowed.
	Description string `toml:"description"`
	// Executables lists every executable the pack's entries name ("*" for
	// entries that apply to any command). The lazy loader uses it to decide
	// which packs to compile for a command, so it must be complete.
	Executables []string `toml:"executables"`
	// Exe describes the argument grammar of executables, by name.
	Exe map[string]Grammar `toml:"exe"`
	// Safe lists read-only (and known-write) command shapes.
	Safe []Safe `toml:"safe"`
	// Rules are the risky shapes.
	Rules []Rule `toml:"rule"`
	// Paths says which operands of which commands are paths, and how they
	// are accessed.
	Paths []PathSpec `toml:"paths"`
	// URLs says which operands of which commands are URLs or hosts.
	URLs []URLSpec `toml:"urls"`
	// Programs are the effect model's entries (see [Program]).
	Programs []Program `toml:"program"`

	// file is where the pack came from, for error messages.
	file string
}

// Grammar is how an executable reads its argv, so that flag values are not
// mistaken for operands. The zero Grammar means: getopt-style short flag
// clusters, long flags with optional =value, no flag takes a separate value.
type Grammar struct {
	// ValueFlags take the next word as their value when it is not attached
	// ("-n 5", "--namespace prod"). Short flags also take the rest of their
	// cluster ("-n5").
	ValueFlags []string `toml:"value_flags"`
	// RawFlags means single-dash words are whole option names ("-delete",
	// "-auto-approve"), not clusters of single-letter flags.
	RawFlags bool `toml:"raw_flags"`
	// ListFlags take every following word up to ";" or "+" (find -exec).
	ListFlags []string `toml:"list_flags"`
	// NoFlags means every word is an operand (echo, printf).
	NoFlags bool `toml:"no_flags"`
	// Abbreviations means long options may be shortened to a unique prefix
	// ("--forc" for "--force"), as git and GNU getopt_long accept.
	Abbreviations bool `toml:"abbreviations"`
	// DefaultOperand is the operand the command uses when given none
	// (find searches "."); empty means none.
	DefaultOperand string `toml:"default_operand"`
	// OptionsEnd is the operand at which options end: 1 for the first,
	// 2 for ssh (options may follow HOST, but in ssh HOST CMD -x the -x is
	// CMD's). Zero lets options come anywhere, as GNU programs do.
	OptionsEnd int `toml:"options_end"`
	// OwnOptionsFirst means the options before a sub-command are the
	// program's own, never the sub-command's: a rule that names a
	// sub-command reads only the flags after it (git -C DIR branch: -C is
	// git's, not branch's). False reads flags wherever they are.
	OwnOptionsFirst bool `toml:"own_options_first"`

	// opts is ValueFlags and ListFlags as compileGrammar's set, worked out
	// by the generator for the embedded packs (packs_gen.go) so that a hook
	// process does not sort the names on every call; zero otherwise.
	opts nameSet
}

// Safe is a command shape whose effect is known: read-only by default.
type Safe struct {
	// Exe names the executables. Required.
	Exe []string `toml:"exe"`
	// Sub is the sub-command path ("stash", "list"); empty means the
	// executable itself. Each element may list alternatives separated by "|".
	Sub []string `toml:"sub"`
	// Tier is the effect of the shape: "read" (zero value) or "write".
	Tier string `toml:"tier"`
	// UnsafeFlags cancel the shape when any is present ("-i" for sed);
	// the command then gets UnsafeTier.
	UnsafeFlags []string `toml:"unsafe_flags"`
	// UnsafeOperands cancel the shape when any operand matches one of these
	// globs.
	UnsafeOperands []string `toml:"unsafe_operands"`
	// UnsafeTier is the tier when the shape is cancelled: "write" or
	// "execute" (zero value means "execute").
	UnsafeTier string `toml:"unsafe_tier"`
	// MaxOperands, when positive, cancels the shape if there are more
	// operands than this (e.g. "git branch" lists, "git branch x" creates).
	MaxOperands int `toml:"max_operands"`
	// NoOperands cancels the shape when there is any operand.
	NoOperands bool `toml:"no_operands"`
	// Verbs, when set, make the shape apply only if one of the first
	// VerbDepth positional words matches one of these globs ("list",
	// "describe-*"); nil applies the shape to every use.
	Verbs []string `toml:"verbs"`
	// VerbDepth is how many positional words Verbs looks at; zero means 3.
	VerbDepth int `toml:"verb_depth"`
}

// Rule is one risky command shape.
type Rule struct {
	// ID is unique across every pack, e.g. "git.push-force". Required.
	ID string `toml:"id"`
	// Exe names the executables ("*" for any). Required.
	Exe []string `toml:"exe"`
	// Sub is the sub-command path; each element may list alternatives
	// separated by "|" and may be a glob. Empty means any.
	Sub []string `toml:"sub"`
	// Category is the kind of harm (risk.Category). Required.
	Category string `toml:"category"`
	// Tier is "read", "write", "execute" or "destructive". Required.
	Tier string `toml:"tier"`
	// Blast is "none", "low", "medium", "high", "critical" or "unknown".
	// Required.
	Blast string `toml:"blast"`
	// Verdict is the floor the finding puts on the decision: "allow"
	// (zero value: leave it to the mode table), "ask" or "deny".
	Verdict string `toml:"verdict"`
	// Unverifiable marks the finding as about something that cannot be
	// known statically (the policy never allows it).
	Unverifiable bool `toml:"unverifiable"`
	// Reason is one sentence a person understands. Required.
	Reason string `toml:"reason"`
	// Suggestion says what would be allowed instead. Required.
	Suggestion string `toml:"suggestion"`
	// Match holds the conditions; all given conditions must hold.
	Match Match `toml:"match"`
}

// Match is the structured condition of a rule. Every field left at its zero
// value is ignored; all the others must hold.
type Match struct {
	// FlagsAll: every group must be present; a group is satisfied by any of
	// its flags ([["-r","-R","--recursive"],["-f","--force"]]).
	FlagsAll [][]string `toml:"flags_all"`
	// FlagsAny: at least one of these flags is present.
	FlagsAny []string `toml:"flags_any"`
	// FlagsNone: none of these flags is present; a long option switched
	// off by its own value (--dry-run=false, --dry-run=$X, npm's
	// --dry-run false) is not.
	FlagsNone []string `toml:"flags_none"`
	// FlagsNoValue: one of these value-taking flags is present but its value
	// is missing (bash -c at the end of an xargs line: the code comes from
	// input).
	FlagsNoValue []string `toml:"flags_no_value"`
	// FlagValues: flag → globs; matches when one of the flags is present
	// with a value matching one of its globs (case-insensitive, "*" matches
	// anything).
	FlagValues map[string][]string `toml:"flag_values"`
	// OperandsAny: at least one operand matches a pattern (a glob or an
	// @class such as @root, @home, @cwd, @parent, @system, @unknown; see the
	// package documentation).
	OperandsAny []string `toml:"operands_any"`
	// OperandsNone: no operand matches any of these patterns.
	OperandsNone []string `toml:"operands_none"`
	// OperandsOutside: at least one operand matches none of these patterns.
	OperandsOutside []string `toml:"operands_outside"`
	// LastOperandAny: the last operand (a destination) matches a pattern.
	// When every pattern starts with "!", the condition is the opposite:
	// there is an operand, and the last one matches none of the patterns
	// without their "!" (rsync --delete into anything but a build output:
	// ["!@temp", "!@outputs"]). Mixing the two forms is an error.
	LastOperandAny []string `toml:"last_operand_any"`
	// OperandAt: the operand at this index (0-based, after the sub-command)
	// must match one of OperandAtAny; nil means no such condition.
	OperandAt *int `toml:"operand_at"`
	// OperandAtAny are the patterns for OperandAt.
	OperandAtAny []string `toml:"operand_at_any"`
	// WordsAny: any argument word (flags and values included) matches one
	// of these patterns.
	WordsAny []string `toml:"words_any"`
	// MinOperands: at least this many operands.
	MinOperands int `toml:"min_operands"`
	// DashDash: operands follow a "--" separator.
	DashDash bool `toml:"dashdash"`
	// Verbs: one of the first VerbDepth positional words matches one of
	// these globs.
	Verbs []string `toml:"verbs"`
	// VerbDepth is how many positional words Verbs looks at; zero means 3.
	VerbDepth int `toml:"verb_depth"`
	// InlineAll: substrings of the inline code, all present.
	InlineAll []string `toml:"inline_all"`
	// InlineAlso: a second any-of list that must also match (for example
	// a destructive command text and a process-spawning call).
	InlineAlso []string `toml:"inline_also"`
	// InlineNone: substrings of the inline code, none present.
	InlineNone []string `toml:"inline_none"`
	// InlineNotKnown: the command has no statically known inline code
	// (none at all, or code that could not be resolved).
	InlineNotKnown bool `toml:"inline_not_known"`
	// Assigns: a VAR=value prefix whose name matches one of these globs.
	Assigns []string `toml:"assigns"`
	// AssignsLoaded: only an assignment that names something to load
	// counts for Assigns — its value is not empty and not /dev/null
	// (BASH_ENV=/dev/null bash -c … loads nothing). False: any value.
	AssignsLoaded bool `toml:"assigns_loaded"`
	// Redirects: an output redirect whose target matches one of these
	// patterns.
	Redirects []string `toml:"redirects"`
	// RedirectsAny: a redirect in any direction (not a here-doc) whose
	// target matches one of these patterns (/dev/tcp/**).
	RedirectsAny []string `toml:"redirects_any"`
	// Privileged: the command runs under sudo/doas/su.
	Privileged bool `toml:"privileged"`
	// Remote: the command runs on another host (ssh host CMD).
	Remote bool `toml:"remote"`
	// Origins: the command was reached through one of these (shell.Command
	// Origin values, e.g. "xargs").
	Origins []string `toml:"origins"`
	// Dir: the directory an earlier cd moved to matches a pattern.
	Dir []string `toml:"dir"`
	// StdinFrom: the pipeline feeding stdin contains one of these
	// executables (or an @class: @downloader, @decoder, @envdump).
	StdinFrom []string `toml:"stdin_from"`
	// StdinNotKnown: the command's stdin is not statically known text (the
	// shell analysis could not decode it: base64 -d of literal text is
	// known, and judged as the code it is). False matches either way.
	StdinNotKnown bool `toml:"stdin_not_known"`
	// StdinOperands: the command feeding stdin has an operand matching one
	// of these patterns (cat ~/.ssh/id_rsa | …).
	StdinOperands []string `toml:"stdin_operands"`
	// SQL: statement kinds found in the SQL or store commands given by
	// SQLFlags, operands or stdin text: drop-database, drop-table,
	// drop-other, truncate, delete-all, update-all, alter-drop, flush,
	// shutdown, mongo-drop, mongo-delete-all, unknown.
	SQL []string `toml:"sql"`
	// SQLFlags are the flags whose values hold statements ("-c",
	// "--command", "-e").
	SQLFlags []string `toml:"sql_flags"`
	// SQLOperands means the operands hold statements (sqlite3 db 'SQL',
	// redis-cli FLUSHALL).
	SQLOperands bool `toml:"sql_operands"`
	// SQLSkip is how many leading operands are not statements (the
	// database name); zero means none.
	SQLSkip int `toml:"sql_skip"`
	// Inline: interpreter one-liner languages ("python", "node", …, "*").
	Inline []string `toml:"inline"`
	// InlineAny: substrings of the inline code, at least one present.
	InlineAny []string `toml:"inline_any"`
	// InlineUnknown: the inline code is not statically known.
	InlineUnknown bool `toml:"inline_unknown"`
	// PipeSelfBackground: the command pipes into a command of its own name
	// and runs in the background (the fork-bomb shape).
	PipeSelfBackground bool `toml:"pipe_self_background"`
	// UnknownExe: only for executables no pack knows.
	UnknownExe bool `toml:"unknown_exe"`
	// NameUnknown: the executable word itself is not statically known.
	NameUnknown bool `toml:"name_unknown"`
}

// PathSpec says which operands of a command are paths and how they are used.
type PathSpec struct {
	// Exe names the executables. Required.
	Exe []string `toml:"exe"`
	// Sub restricts the spec to a sub-command path.
	Sub []string `toml:"sub"`
	// Operands is the access of every operand: "read", "write", "delete";
	// empty means operands are not paths.
	Operands string `toml:"operands"`
	// Last is the access of the last operand when there are two or more
	// (the destination of cp/mv).
	Last string `toml:"last"`
	// Skip leaves out the first Skip operands (the mode of chmod).
	Skip int `toml:"skip"`
	// ScriptFlags: when none of these is present, the first operand is a
	// program or pattern, not a path (sed, grep, awk).
	ScriptFlags []string `toml:"script_flags"`
	// WhenFlags: the spec applies only if one of these flags is present
	// (sed -i); WhenFlagsAccess replaces Operands then.
	WhenFlags []string `toml:"when_flags"`
	// FlagValues: flag → access for flags whose value is a path
	// ("-o" = "write"); "key=" entries match key=value operands (dd of=).
	FlagValues map[string]string `toml:"flag_values"`
}

// URLSpec says which words of a command are URLs or hosts it contacts.
type URLSpec struct {
	// Exe names the executables. Required.
	Exe []string `toml:"exe"`
	// Sub restricts the spec to a sub-command path.
	Sub []string `toml:"sub"`
	// Operands: "all" (every operand), "http" (every operand, with
	// http:// added when the scheme is missing, as curl and wget do),
	// "httpie" (the URL operand after an optional method; ":port" is
	// localhost), "first" (the first operand is a host), "remote"
	// (operands of the form host:path or user@host:path), "url" (operands
	// that look like URLs or host:path), "repository" (the first operand,
	// read as "url" reads it: git fetch REPO REFSPEC…, whose main:main is
	// a refspec).
	Operands string `toml:"operands"`
	// Flags whose value is a URL or host ("--url", "-H" for some tools).
	Flags []string `toml:"flags"`
}

// ParsePack decodes one pack file. file names the source in errors.
// Unknown keys are errors.
func ParsePack(file string, data []byte) (Pack, error) {
	var p Pack
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Pack{}, fmt.Errorf("%s: %w", file, describeTOMLError(err))
	}
	p.file = file
	return p, nil
}

// describeTOMLError adds the position and the offending key when go-toml
// reports them.
func describeTOMLError(err error) error {
	if de, ok := err.(*toml.DecodeError); ok {
		row, col := de.Position()
		return fmt.Errorf("line %d column %d: %v", row, col, de)
	}
	if se, ok := err.(*toml.StrictMissingError); ok {
		return fmt.Errorf("unknown keys: %s", se.String())
	}
	return err
}

// packHeader is the part of a pack file before its first table; the lazy
// loader reads only that.
type packHeader struct {
	Name        string   `toml:"name"`
	Description string   `toml:"description"`
	Executables []string `toml:"executables"`
}

// parseHeader reads the top-level keys of a pack file without decoding the
// rest.
func parseHeader(file string, data []byte) (packHeader, error) {
	var h packHeader
	if i := bytes.Index(data, []byte("\n[")); i >= 0 {
		data = data[:i]
	}
	if quick, ok := quickHeader(data); ok {
		return quick, nil
	}
	if err := toml.Unmarshal(data, &h); err != nil {
		return h, fmt.Errorf("%s: header: %w", file, err)
	}
	if h.Name == "" || len(h.Executables) == 0 {
		return h, fmt.Errorf("%s: header must set name and executables before the first table", file)
	}
	return h, nil
}

// quickHeader reads the usual one-line name and executables keys without a
// TOML decoder; anything unusual falls back to the decoder.
func quickHeader(data []byte) (packHeader, bool) {
	var h packHeader
	for _, line := range bytes.Split(data, []byte("\n")) {
		switch {
		case bytes.HasPrefix(line, []byte("name = ")):
			arr := stringArray(append(append([]byte("["), bytes.TrimPrefix(line, []byte("name = "))...), ']'))
			if len(arr) != 1 {
				return h, false
			}
			h.Name = arr[0]
		case bytes.HasPrefix(line, []byte("executables = [")):
			if h.Executables = stringArray(line); h.Executables == nil {
				return h, false
			}
		}
	}
	return h, h.Name != "" && len(h.Executables) > 0
}
