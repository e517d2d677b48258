package rules

// RuleExample is one text of the per-pack classification cases with the
// rule ids the packs match in it, for the test in package rules_test that
// runs them through the whole decision.
type RuleExample struct {
	Pack, Cmd string
	IDs       []string
}

// RuleExamples are the per-pack cases that match at least one rule.
func RuleExamples() []RuleExample {
	var out []RuleExample
	for pack, cases := range packCases {
		for _, c := range cases {
			if len(c.ids) > 0 {
				out = append(out, RuleExample{Pack: pack, Cmd: c.cmd, IDs: c.ids})
			}
		}
	}
	return out
}
