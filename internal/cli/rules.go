package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/toolguard/toolguard/rules"
)

func init() { register("rules", newRulesCmd) }

func newRulesCmd(a *app) *cobra.Command {
	var pack string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "rules [ID…]",
		Short: "List the rules in force, or describe the named rules",
		Long: `List every built-in rule (minus those disabled in the policy) with its pack,
category, tier and blast radius, then the policy's own [[rules]] (pack
"policy", named user:ID as decisions name them); name rule ids or prefixes
to see each in full (user: for every rule of the policy).`,
	}
	pf := addPolicyFlags(cmd)
	cmd.Flags().StringVar(&pack, "pack", "", "only rules of this pack")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the rules as JSON")
	cmd.RunE = func(cmd *cobra.Command, ids []string) error {
		p, err := pf.load("")
		if err != nil {
			return err
		}
		list := filterRules(append(p.Rules().Rules(), p.UserRuleInfos()...), pack, ids)
		if len(ids) > 0 && len(list) == 0 {
			return fmt.Errorf("no rule matches %s (see `toolguard rules` for the ids)", strings.Join(ids, ", "))
		}
		switch {
		case asJSON:
			return printJSON(a.io.Stdout, list)
		case len(ids) > 0:
			describeRules(a.io.Stdout, list)
			return nil
		}
		return listRules(a.io.Stdout, list)
	}
	return cmd
}

func filterRules(all []rules.RuleInfo, pack string, ids []string) []rules.RuleInfo {
	var out []rules.RuleInfo
	for _, r := range all {
		if pack != "" && r.Pack != pack {
			continue
		}
		if len(ids) > 0 && !matchesAnyID(r.ID, ids) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func matchesAnyID(id string, ids []string) bool {
	for _, want := range ids {
		if id == want || strings.HasPrefix(id, want) {
			return true
		}
	}
	return false
}

func listRules(w io.Writer, list []rules.RuleInfo) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tPACK\tCATEGORY\tTIER\tBLAST")
	for _, r := range list {
		if r.Pack == "policy" {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Pack, "-", r.Verdict, r.Blast)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Pack, r.Category, r.Tier, r.Blast)
	}
	fmt.Fprintf(tw, "\n%d rules\n", len(list))
	return tw.Flush()
}

func describeRules(w io.Writer, list []rules.RuleInfo) {
	for _, r := range list {
		if r.Pack == "policy" {
			fmt.Fprintf(w, "%s (a [[rules]] entry of your policy, action %s)\n  %s\n", r.ID, r.Verdict, r.Matches)
			if r.Reason != "" {
				fmt.Fprintf(w, "  why: %s\n", r.Reason)
			}
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "%s (pack %s)\n  matches: %s\n  executables: %s\n  category %s, tier %s, blast radius %s",
			r.ID, r.Pack, r.Matches, strings.Join(r.Executables, ", "), r.Category, r.Tier, r.Blast)
		if r.Verdict > 0 {
			fmt.Fprintf(w, ", at least %s", r.Verdict)
		}
		fmt.Fprintf(w, "\n  why: %s\n  instead: %s\n\n", r.Reason, r.Suggestion)
	}
}
