package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/policy"
)

func init() { register("policy", newPolicyCmd) }

func newPolicyCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "policy", Short: "Validate, show, summarise and document the policy"}
	cmd.AddCommand(newPolicyValidate(a), newPolicyShow(a), newPolicySummary(a), newPolicyDocs(a))
	return cmd
}

func newPolicyValidate(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "validate [FILE…]",
		Short: "Check policy files (or the effective layers) and list every problem",
		Long: `Check the given policy files, each on its own, or with no files every layer
toolguard would load (user file, --config, project file, TOOLGUARD_* variables).
Every problem is listed with file:line:column, the field and the valid values.
Settings of a project policy that would loosen the user's are listed too:
toolguard ignores them (and applies the rest of the file).
Exit code 0 when valid, 1 otherwise.`,
	}
	pf := addPolicyFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, files []string) error {
		if len(files) == 0 {
			p, err := pf.load("")
			if err != nil {
				return err
			}
			if err := p.Rules().Check(); err != nil {
				return fmt.Errorf("rule packs: %w", err)
			}
			if len(pf.ignored) > 0 {
				for _, err := range pf.ignored {
					fmt.Fprintln(a.io.Stderr, err)
				}
				return exitWith(ExitError)
			}
			fmt.Fprintln(a.io.Stdout, "policy ok")
			return nil
		}
		return validateFiles(a, files)
	}
	return cmd
}

func validateFiles(a *app, files []string) error {
	bad := false
	for _, f := range files {
		if err := policy.ValidateFile(f); err != nil {
			bad = true
			fmt.Fprintln(a.io.Stderr, err)
			continue
		}
		fmt.Fprintf(a.io.Stdout, "%s: ok\n", f)
	}
	if bad {
		return exitWith(ExitError)
	}
	return nil
}

func newPolicyShow(a *app) *cobra.Command {
	var format string
	cmd := &cobra.Command{Use: "show", Short: "Print the effective policy after merging every layer"}
	pf := addPolicyFlags(cmd)
	cmd.Flags().StringVar(&format, "format", "toml", "output format: toml or json")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		p, err := pf.load("")
		if err != nil {
			return err
		}
		out, err := policy.Render(p.Effective(), format)
		if err != nil {
			return err
		}
		_, err = a.io.Stdout.Write(out)
		return err
	}
	return cmd
}

func newPolicySummary(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "summary", Short: "Print the policy as text for an agent's system prompt"}
	pf := addPolicyFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		p, err := pf.load("")
		if err != nil {
			return err
		}
		_, err = fmt.Fprint(a.io.Stdout, p.Summary())
		return err
	}
	return cmd
}

func newPolicyDocs(a *app) *cobra.Command {
	var schema bool
	cmd := &cobra.Command{
		Use:   "docs",
		Short: "Print the reference of every policy key (or the JSON Schema with --schema)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			text := policy.ReferenceMarkdown()
			if schema {
				text = policy.JSONSchema()
			}
			_, err := fmt.Fprint(a.io.Stdout, text)
			return err
		},
	}
	cmd.Flags().BoolVar(&schema, "schema", false, "print the JSON Schema instead")
	return cmd
}
