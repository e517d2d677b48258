package shell

// Default budgets used when the corresponding Options field is zero.
const (
	DefaultMaxBytes    = 64 << 10
	DefaultMaxDepth    = 8
	DefaultMaxCommands = 512
)

// Options configures [Parse]. The zero value is valid: no home directory, no
// known variables, default budgets.
type Options struct {
	// Home is the user's home directory, used for ~ and $HOME. Empty leaves
	// ~ literal and $HOME unknown (unless Env sets HOME).
	Home string
	// Env holds variables whose values are known statically (HOME, PWD,
	// USER, …). Nil means none: every variable the script does not assign
	// itself is unknown.
	Env map[string]string
	// MaxBytes bounds the input size; zero means DefaultMaxBytes.
	MaxBytes int
	// MaxDepth bounds the nesting of code inside code (bash -c, eval, $(…),
	// here-docs fed to a shell, function calls); zero means DefaultMaxDepth.
	MaxDepth int
	// MaxCommands bounds the number of simple commands recorded; zero means
	// DefaultMaxCommands.
	MaxCommands int
	// Budget is the work budget of the whole analysis this parse is part
	// of; a caller that parses several texts for one call (the command,
	// then code found in its options) passes the same Budget to each and
	// charges it for its own work too. Nil gives the parse a budget of
	// DefaultWorkLimit units of its own.
	Budget *Budget
	// PipedStdin says the script reads on its stdin a program's output,
	// not known before it runs: a pager's code, which git or man pipe
	// their output into. A shell or an interpreter that reads its code
	// there (PAGER=sh git log) runs that text, as git log | sh does.
	PipedStdin bool
	// Arena is where the parse makes its commands and their words, to be
	// used again after [Arena.Reset]; nil makes them on the heap, owned
	// by the Script as any value is.
	Arena *Arena
}

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxCommands <= 0 {
		o.MaxCommands = DefaultMaxCommands
	}
	return o
}

// lookupBase returns a variable known from the options.
func (o *Options) lookupBase(name string) (string, bool) {
	if v, ok := o.Env[name]; ok {
		return v, true
	}
	if name == "HOME" && o.Home != "" {
		return o.Home, true
	}
	return "", false
}
