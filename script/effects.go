package script

// Effects is what a script does when it runs.
type Effects struct {
	// Reads are files the script reads by name.
	Reads []string
	// Writes are files the script writes by name.
	Writes []string
	// Uploads are files (also in Reads) whose content the script sends over
	// the network (ftp's put).
	Uploads []string
	// Shell are shell commands the script starts, as text, to be analysed
	// as shell code.
	Shell []string
	// Pager is true when the commands in Shell only read what the program
	// prints on their input (git's core.pager, pager.log): they do what
	// their code does and nothing more; false for code that is handed files
	// or arguments (an editor, a helper).
	Pager bool
	// SecretInput is true when the commands in Shell are handed
	// credentials on their input (git's credential helper is given the
	// user name and password it stores or looks up).
	SecretInput bool
	// Private is true when the script prints a database's content or
	// hands it to a program (sqlite3's .dump, COPY … TO PROGRAM, which
	// gives the program the rows on its input): private data, which a
	// call must not send over the network.
	Private bool
	// Exec is true when the script runs code that cannot be analysed here
	// (a command built at run time, a program file, an embedded language).
	Exec bool
	// WritesInput is true when the script writes the files it was given
	// (vim's :w, :wq).
	WritesInput bool
	// Network is true when the script opens network connections.
	Network bool
	// Environment is true when the script prints or exposes the process
	// environment, which holds credentials (jq's env, awk's ENVIRON).
	Environment bool
	// Unknown says why the script is not proven harmless when something in
	// it was not understood; empty when everything was.
	Unknown string
}

// Proven reports whether the script was understood completely and only
// reads: no writes, no commands, no network, no environment dump.
func (e Effects) Proven() bool {
	return e.Unknown == "" && len(e.Writes) == 0 && len(e.Uploads) == 0 && len(e.Shell) == 0 && !e.Exec && !e.WritesInput &&
		!e.Network && !e.Environment
}

// unknown records the first reason the script is not understood.
func (e *Effects) unknown(why string) {
	if e.Unknown == "" {
		e.Unknown = why
	}
}

// maxScript bounds the input an analyser reads; longer scripts are not
// proven (their tail is not looked at).
const maxScript = 64 << 10

func tooLong(src string) (Effects, bool) {
	if len(src) > maxScript {
		return Effects{Unknown: "the script is too long to analyse"}, true
	}
	return Effects{}, false
}
