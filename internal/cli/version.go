package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func init() { register("version", newVersionCmd) }

// Version is the release version; "dev" for builds from a work tree.
var Version = "dev"

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the toolguard version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(a.io.Stdout, "toolguard", Version, buildInfo())
			return err
		},
	}
}

func buildInfo() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev := ""
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			rev = " " + s.Value[:12]
		}
	}
	return "(" + bi.GoVersion + rev + ")"
}
