package analysis

import "github.com/toolguard/toolguard/shell"

// FillsInto returns the directories and paths a command puts existing
// files into, as written: the destination of cp, mv, install, ln and rsync
// (DEST, or the -t/--target-directory directory), and the directory tar
// or unzip extracts into (-C, --directory, -d). A destination whose text
// is not known, or an rsync destination on another host, is left out;
// nil for any other command. The judge uses it to see a command line that
// fills a directory and then deletes it (mv src out/ && rm -rf out).
func FillsInto(cmd *shell.Command) []string {
	if spec, ok := copySpecs[cmd.Name]; ok {
		ca, ok := spec.parse(cmd.Name, cmd.Args())
		if !ok || !ca.dest.Known || ca.dest.Value == "" || cmd.Name == "rsync" && isRemoteOperand(ca.dest.Value) {
			return nil
		}
		return []string{ca.dest.Value}
	}
	switch cmd.Name {
	case "tar", "bsdtar", "gtar", "unzip":
		if e, ok := extractions(cmd); ok && e.into != "" {
			return []string{e.into}
		}
	}
	return nil
}
