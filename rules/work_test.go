package rules

import "testing"

// TestClassifyWork: what Classify reports it did grows with the words of
// a command and with how much the packs say about its program, so that the
// call's budget charges a command what judging it cost.
func TestClassifyWork(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	work := func(text string) int {
		cmds := splitCommand(text)
		return s.Classify(cmds[len(cmds)-1]).Work
	}
	for _, c := range []struct{ less, more string }{
		{"cat a", "cat a b c d e f"},
		{"cat a", "cat a/very/long/path/name/that/is/compared/with/every/pattern/of/every/rule"},
		{"true", "cat notes.txt"},
		{"echo hi", "sed -e s/a/b/g f"},
		{"cp a b", "cp a b c d e f g h"},
		{"rm x", "rm x y z"},
	} {
		if l, m := work(c.less), work(c.more); l <= 0 || l >= m {
			t.Errorf("work(%q) = %d, work(%q) = %d: want 0 < first < second", c.less, l, c.more, m)
		}
	}
}
