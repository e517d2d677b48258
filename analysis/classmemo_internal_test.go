package analysis

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// memoBase is a command with every field of shell.Command set, and
// commands before and after it in its pipeline, an input producer and a
// command whose output is its code.
func memoBase() *shell.Command {
	w := func(v string, at int) shell.Word {
		return shell.Word{Value: v, Known: true, Quoted: true, Glob: true, Span: risk.Span{Start: at, End: at + len(v)}}
	}
	own := func(name string, at int) *shell.Command {
		return &shell.Command{Name: name, Argv: []shell.Word{w(name, at), w("-x", at+10)},
			Assigns:   []shell.Assign{{Name: "A", Value: w("1", at+20)}},
			Env:       []shell.Assign{{Name: "E", Value: w("2", at+30)}},
			Redirects: []shell.Redirect{{Op: ">", Fd: "2", Target: w("out", at+40), Body: "b", BodyKnown: true, Span: risk.Span{Start: at + 40, End: at + 45}}},
			Wrappers:  []string{"sudo"}, Privileged: true, Remote: "h", Origin: "eval", Depth: 1,
			Span: risk.Span{Start: at, End: at + 50}, Dir: w("/d", at+60), Background: true, ArgsFromInput: true, Unbounded: true,
			Inline: &shell.Inline{Lang: "python", Code: "x", Known: true, Via: "argv"}}
	}
	cmd := own("grep", 100)
	from := own("git", 0)
	from.PipeTo, cmd.PipeFrom = cmd, from
	to := own("wc", 200)
	cmd.PipeTo, to.PipeFrom = to, cmd
	cmd.Stdin = &shell.Stdin{Text: "t", Known: true, Via: "pipe", From: from, Span: risk.Span{Start: 0, End: 50}}
	cmd.CodeFrom = own("cat", 300)
	return cmd
}

// leafPaths lists, as field-index paths from the command, every field the
// rule packs may read: every field of the command and of the commands it
// points to, but spans (which the memo moves) and pointers back to a
// command already listed.
func leafPaths(v reflect.Value, path []int, seen map[uintptr]bool, out *[][]int) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		if len(path) > 0 {
			*out = append(*out, append([]int(nil), path...)) // the pointer itself: set to nil
		}
		leafPaths(v.Elem(), path, seen, out)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[risk.Span]() {
			return
		}
		for i := range v.NumField() {
			if !v.Type().Field(i).IsExported() {
				continue // the shell package's own bookkeeping: no rule pack reads it
			}
			leafPaths(v.Field(i), append(path, i), seen, out)
		}
	case reflect.Slice:
		*out = append(*out, append(append([]int(nil), path...), -1)) // the length: one more element
		for i := range v.Len() {
			leafPaths(v.Index(i), append(path, -2-i), seen, out)
		}
	default:
		*out = append(*out, append([]int(nil), path...))
	}
}

// mutate changes the leaf at path in the command rooted at v.
func mutate(v reflect.Value, path []int) {
	for _, step := range path {
		for v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		switch {
		case step == -1:
			v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
			return
		case step <= -2:
			v = v.Index(-2 - step)
		default:
			v = v.Field(step)
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.Zero(v.Type()))
	case reflect.String:
		v.SetString(v.String() + "z")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int:
		v.SetInt(v.Int() + 1)
	default:
		panic("a field of a kind the test cannot change: " + v.Kind().String())
	}
}

// TestCommandKeyFields changes, one at a time, every field of a command
// (and of the commands of its pipeline, its input's producer and the
// command its code comes from) but the spans, and checks that the memo's
// key changes: a field added to shell.Command that the key leaves out
// fails here.
func TestCommandKeyFields(t *testing.T) {
	base := string(commandKey(nil, memoBase()))
	var leaves [][]int
	leafPaths(reflect.ValueOf(memoBase()), nil, map[uintptr]bool{}, &leaves)
	if len(leaves) < 60 {
		t.Fatalf("only %d fields found", len(leaves))
	}
	for _, path := range leaves {
		c := memoBase()
		mutate(reflect.ValueOf(c), path)
		if got := string(commandKey(nil, c)); got == base {
			t.Errorf("changing the field at %v does not change the key", path)
		}
	}
	// spans alone do not change it
	c := memoBase()
	c.Span.Start++
	c.Argv[1].Span.End++
	c.PipeFrom.Argv[0].Span.Start++
	if got := string(commandKey(nil, c)); got != base {
		t.Error("a span changed the key")
	}
}

// TestRebaseMovesSpans: an answer moved to a command with the same key
// carries that command's spans; a span at no one place of the first
// command is refused.
func TestRebaseMovesSpans(t *testing.T) {
	old, cur := memoBase(), memoBase()
	shift := func(c *shell.Command, by int) {
		c.Span.Start += by
		c.Span.End += by
		for i := range c.Argv {
			c.Argv[i].Span.Start += by
			c.Argv[i].Span.End += by
		}
	}
	shift(cur, 1000)
	res := resultWithSpans(old.Span, old.Argv[1].Span)
	got, ok := rebase(new(spanMap), new([]rules.PathRef), res, old, cur)
	if !ok || got.Findings[0].Span != cur.Span || got.Paths[0].Word.Span != cur.Argv[1].Span {
		t.Fatalf("rebase: %v %+v", ok, got)
	}
	if res.Findings[0].Span != old.Span {
		t.Error("rebase changed the remembered answer")
	}
	if _, ok := rebase(new(spanMap), new([]rules.PathRef), resultWithSpans(risk.Span{Start: 1, End: 999}, old.Argv[1].Span), old, cur); ok {
		t.Error("a span at no place of the command was moved")
	}
}

func resultWithSpans(finding, path risk.Span) rules.Result {
	return rules.Result{Findings: []risk.Finding{{Rule: "r", Span: finding}},
		Paths: []rules.PathRef{{Word: shell.Word{Value: "-x", Span: path}, Access: "read"}}}
}

// TestMemoStartsAfterFirstCommands: an ordinary call of a few commands
// pays nothing for the memo (no key, no copy of an answer), and a call
// past memoAfter commands, or one told RememberEvery, remembers.
func TestMemoStartsAfterFirstCommands(t *testing.T) {
	set, err := rules.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	cmd := memoBase()
	a := New(Context{Rules: set, Budget: shell.NewBudget(1 << 24)}, nil)
	for i := range memoAfter {
		if _, ok := a.classify(cmd); !ok {
			t.Fatalf("command %d not classified", i+1)
		}
		if a.memo.seen != nil || len(a.memo.buf) != 0 {
			t.Fatalf("command %d of %d: the memo holds %d answers and a %d-byte key before it starts", i+1, memoAfter, len(a.memo.seen), len(a.memo.buf))
		}
	}
	a.classify(cmd)
	if len(a.memo.seen) != 1 {
		t.Fatalf("command %d: the memo holds %d answers, want 1", memoAfter+1, len(a.memo.seen))
	}
	every := New(Context{Rules: set, Budget: shell.NewBudget(1 << 24)}, nil)
	every.RememberEvery()
	every.classify(cmd)
	if len(every.memo.seen) != 1 {
		t.Fatalf("RememberEvery: the memo holds %d answers after the first command, want 1", len(every.memo.seen))
	}
}

// TestKeyOverBoundsOwnKey: keyOver says a command's key is too long only
// when the key it would build is (so no command the memo could hold is
// classified afresh for it), and it says so for a command handed
// thousands of exported variables.
func TestKeyOverBoundsOwnKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() shell.Word { return shell.Word{Value: strings.Repeat("v", rng.IntN(40))} }
	for i := range 2000 {
		c := &shell.Command{Name: "cmd"}
		for range rng.IntN(30) {
			c.Argv = append(c.Argv, word())
		}
		for range rng.IntN(30) {
			c.Env = append(c.Env, shell.Assign{Name: strings.Repeat("E", rng.IntN(12)), Value: word()})
		}
		for range rng.IntN(4) {
			c.Redirects = append(c.Redirects, shell.Redirect{Op: ">", Target: word(), Body: word().Value})
		}
		limit := rng.IntN(1500)
		if keyOver(c, limit) && len(ownKey(nil, c)) <= limit {
			t.Fatalf("case %d: keyOver(%d) but the key is %d bytes", i, limit, len(ownKey(nil, c)))
		}
	}
	big := &shell.Command{Name: "ls", Argv: []shell.Word{{Value: "ls"}}}
	for i := range 10_000 {
		big.Env = append(big.Env, shell.Assign{Name: fmt.Sprintf("V%d", i), Value: shell.Word{Value: "1"}})
	}
	if !keyOver(big, maxMemoKey) {
		t.Fatal("a command with 10,000 exported variables is not over the key limit")
	}
}

// FuzzKeyFieldsDelimit: the key's fields delimit themselves, so two runs
// of fields in the same order have equal keys only when the fields are
// equal (the decimal form it replaced had the same property).
func FuzzKeyFieldsDelimit(f *testing.F) {
	f.Add("a", 1, "b", "a", 1, "b")
	f.Add("a1", 0, "", "a", 10, "")
	f.Add("", -1, "x", "", 1, "x")
	f.Add(strings.Repeat("z", 300), 300, "", strings.Repeat("z", 299), 300, "z")
	f.Fuzz(func(t *testing.T, s1 string, n1 int, u1 string, s2 string, n2 int, u2 string) {
		k1 := keyString(keyInt(keyString(nil, s1), n1), u1)
		k2 := keyString(keyInt(keyString(nil, s2), n2), u2)
		same := s1 == s2 && n1 == n2 && u1 == u2
		if (string(k1) == string(k2)) != same {
			t.Fatalf("(%q %d %q) and (%q %d %q): keys equal %v, fields equal %v", s1, n1, u1, s2, n2, u2, string(k1) == string(k2), same)
		}
	})
}

// TestRebaseMovesEverySpan fills every list of a rules.Result with one
// element whose span is the command's first word, rebases it onto a copy
// of the command at another place, and checks that no span of the result
// is left where it was: a word list added to rules.Result that rebase
// leaves out (gh api's Endpoints once were) fails here.
func TestRebaseMovesEverySpan(t *testing.T) {
	simple := func(at int) *shell.Command {
		w := func(v string, at int) shell.Word {
			return shell.Word{Value: v, Known: true, Span: risk.Span{Start: at, End: at + len(v)}}
		}
		return &shell.Command{Name: "gh", Argv: []shell.Word{w("gh", at), w("api", at+3), w("x", at+7)}, Span: risk.Span{Start: at, End: at + 8}}
	}
	old, cur := simple(0), simple(0)
	shift(cur, 1000)
	at := old.Argv[2].Span
	var res rules.Result
	v := reflect.ValueOf(&res).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Slice || !f.CanSet() {
			continue
		}
		f.Set(reflect.Append(f, reflect.Zero(f.Type().Elem())))
		setSpans(f.Index(0), at)
	}
	out, ok := rebase(&spanMap{}, new([]rules.PathRef), res, old, cur)
	if !ok {
		t.Fatal("rebase failed")
	}
	var left []string
	findSpans(reflect.ValueOf(out), "Result", at, &left)
	if len(left) > 0 {
		t.Errorf("spans left at the old place: %v", left)
	}
}

// shift moves every span of c's own words by d.
func shift(c *shell.Command, d int) {
	mv := func(s *risk.Span) {
		if !s.IsZero() {
			s.Start, s.End = s.Start+d, s.End+d
		}
	}
	for i := range c.Argv {
		mv(&c.Argv[i].Span)
	}
	for i := range c.Assigns {
		mv(&c.Assigns[i].Value.Span)
	}
	for i := range c.Env {
		mv(&c.Env[i].Value.Span)
	}
	for i := range c.Redirects {
		mv(&c.Redirects[i].Target.Span)
		mv(&c.Redirects[i].Span)
	}
	mv(&c.Dir.Span)
	mv(&c.Span)
	if c.Stdin != nil {
		mv(&c.Stdin.Span)
	}
}

// setSpans sets every risk.Span reachable in v (not through pointers) to s.
func setSpans(v reflect.Value, s risk.Span) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[risk.Span]() {
			v.Set(reflect.ValueOf(s))
			return
		}
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				setSpans(v.Field(i), s)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			setSpans(v.Index(i), s)
		}
	}
}

// findSpans lists the fields under v whose span is s.
func findSpans(v reflect.Value, name string, s risk.Span, out *[]string) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[risk.Span]() {
			if v.Interface().(risk.Span) == s {
				*out = append(*out, name)
			}
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				findSpans(v.Field(i), name+"."+v.Type().Field(i).Name, s, out)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			findSpans(v.Index(i), fmt.Sprintf("%s[%d]", name, i), s, out)
		}
	}
}

// TestClonePathsBlock checks the copies rebase makes in the call's block:
// each equals its source, a copy's append or element write reaches neither
// the source nor another copy, and the Names lists are copies too.
func TestClonePathsBlock(t *testing.T) {
	src := []rules.PathRef{
		{Word: shell.Word{Value: "a", Known: true}, Access: "read", Names: paths.Names{Only: []string{"x"}, Skip: []string{"y"}}},
		{Word: shell.Word{Value: "b", Known: true}, Access: "write", Tree: true},
	}
	want := []rules.PathRef{
		{Word: shell.Word{Value: "a", Known: true}, Access: "read", Names: paths.Names{Only: []string{"x"}, Skip: []string{"y"}}},
		{Word: shell.Word{Value: "b", Known: true}, Access: "write", Tree: true},
	}
	block := make([]rules.PathRef, 0, 8) // room after each copy: an unclipped copy would append into the next
	if got := clonePaths(&block, nil); got != nil {
		t.Fatalf("clonePaths(nil) = %v, want nil", got)
	}
	first := clonePaths(&block, src)
	second := clonePaths(&block, src)
	if !reflect.DeepEqual(first, want) || !reflect.DeepEqual(second, want) {
		t.Fatalf("copies differ from the source:\n%+v\n%+v", first, second)
	}
	first = append(first, rules.PathRef{Access: "exec"})
	first[0].Access = "changed"
	first[0].Names.Only[0] = "changed"
	if !reflect.DeepEqual(second, want) {
		t.Errorf("the second copy changed with the first: %+v", second)
	}
	if !reflect.DeepEqual(src, want) {
		t.Errorf("the source changed with a copy: %+v", src)
	}
	if len(block) != 4 {
		t.Errorf("block holds %d paths, want 4", len(block))
	}
}

// TestKeyStringAsVarint: a string's length is the varint it was before the
// one-byte case was written out, for every length around that case's end.
func TestKeyStringAsVarint(t *testing.T) {
	for n := range 300 {
		s := strings.Repeat("x", n)
		want := append(binary.AppendUvarint([]byte("k"), uint64(n)), s...)
		if got := keyString([]byte("k"), s); string(got) != string(want) {
			t.Errorf("length %d: key %q, want %q", n, got[:min(len(got), 4)], want[:min(len(want), 4)])
		}
	}
}

// FuzzKeyWordDelimit: two words followed by a string have equal keys only
// when their values, their four flags and the strings are equal.
func FuzzKeyWordDelimit(f *testing.F) {
	f.Add("a", uint8(1), "b", "a", uint8(1), "b")
	f.Add("a", uint8(1), "b", "a", uint8(2), "b")
	f.Add("a1", uint8(0), "", "a", uint8(0), "1")
	f.Add("", uint8(15), "", "", uint8(7), "")
	f.Fuzz(func(t *testing.T, v1 string, f1 uint8, u1 string, v2 string, f2 uint8, u2 string) {
		word := func(v string, f uint8) shell.Word {
			return shell.Word{Value: v, Known: f&1 != 0, Quoted: f&2 != 0, Glob: f&4 != 0, Walked: f&8 != 0}
		}
		w1, w2 := word(v1, f1), word(v2, f2)
		k1 := keyString(keyWord(nil, w1), u1)
		k2 := keyString(keyWord(nil, w2), u2)
		same := w1 == w2 && u1 == u2
		if (string(k1) == string(k2)) != same {
			t.Fatalf("(%+v %q) and (%+v %q): keys equal %v, fields equal %v", w1, u1, w2, u2, string(k1) == string(k2), same)
		}
	})
}
