package rules

// RuleExample is one text of the per-pack classification cases with the
// rule ids the packs match in it, for the test in package rules_test that
// runs them through the whole decision.
type RuleExample struct {
	Pack, Cmd string
	IDs       []string
	// StdinNotKnown are the ids among IDs whose rule applies only while
	// the command's stdin is not known text (stdin_not_known): the whole
	// decision knows decoded literal text and judges it instead.
	StdinNotKnown []string
}

// RuleExamples are the per-pack cases that match at least one rule.
func RuleExamples() []RuleExample {
	notKnown := map[string]bool{}
	packs, err := BuiltinPacks()
	if err != nil {
		panic(err)
	}
	for _, p := range packs {
		for _, r := range p.Rules {
			notKnown[r.ID] = r.Match.StdinNotKnown
		}
	}
	var out []RuleExample
	for pack, cases := range packCases {
		for _, c := range cases {
			if len(c.ids) > 0 {
				ex := RuleExample{Pack: pack, Cmd: c.cmd, IDs: c.ids}
				for _, id := range c.ids {
					if notKnown[id] {
						ex.StdinNotKnown = append(ex.StdinNotKnown, id)
					}
				}
				out = append(out, ex)
			}
		}
	}
	return out
}
