package analysis

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// TestShiftSpansStdins: every command's Stdin is moved once, in a copy of
// its own, even when the walk shared one between commands, and the Stdin
// the walk made is left as it was.
func TestShiftSpansStdins(t *testing.T) {
	shared := &shell.Stdin{Via: "heredoc", Text: "x", Known: true, Span: risk.Span{Start: 5, End: 9}}
	other := &shell.Stdin{Via: "pipe", Span: risk.Span{Start: 20, End: 30}}
	cmds := []*shell.Command{
		{Name: "a", Span: risk.Span{Start: 0, End: 3}, Stdin: shared},
		{Name: "b", Span: risk.Span{Start: 4, End: 10}},
		{Name: "c", Span: risk.Span{Start: 11, End: 12}, Stdin: shared},
		{Name: "d", Span: risk.Span{Start: 31, End: 40}, Stdin: other},
		{Name: "e", Span: risk.Span{Start: 41, End: 42}, Stdin: &shell.Stdin{Via: "file"}},
	}
	shiftSpans(cmds, 100)
	want := []*shell.Stdin{
		{Via: "heredoc", Text: "x", Known: true, Span: risk.Span{Start: 105, End: 109}},
		nil,
		{Via: "heredoc", Text: "x", Known: true, Span: risk.Span{Start: 105, End: 109}},
		{Via: "pipe", Span: risk.Span{Start: 120, End: 130}},
		{Via: "file"},
	}
	for i, c := range cmds {
		if diff := cmp.Diff(want[i], c.Stdin, cmp.AllowUnexported(shell.Stdin{})); diff != "" {
			t.Errorf("%s's Stdin (-want +got):\n%s", c.Name, diff)
		}
	}
	if cmds[0].Stdin == cmds[2].Stdin || cmds[0].Stdin == shared {
		t.Error("a moved Stdin is shared")
	}
	if shared.Span != (risk.Span{Start: 5, End: 9}) || other.Span != (risk.Span{Start: 20, End: 30}) {
		t.Errorf("the walk's Stdins changed: %+v %+v", shared.Span, other.Span)
	}
	if cmds[1].Span != (risk.Span{Start: 104, End: 110}) {
		t.Errorf("b's span = %+v", cmds[1].Span)
	}
}
