package jsonquote

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/internal/jsonquote/jsonquotetest"
)

// clearRepeated empties the table, so that a test sees its own misses.
func clearRepeated() {
	for i := range repeated {
		repeated[i].texts[0].Store(nil)
		repeated[i].texts[1].Store(nil)
		repeated[i].missed.Store(0)
	}
}

// TestAppendRepeated quotes each text three times after a prefix: the
// first quoting (a miss) and the ones from the table must all be what
// encoding/json writes, and the prefix must stay as it was.
func TestAppendRepeated(t *testing.T) {
	clearRepeated()
	long := strings.Repeat("The supervised mode asks a person <first> & \"then\" ", 25)
	tests := []struct {
		name, s, want string
	}{
		{"empty", "", `""`},
		{"short, below the table", "git.push-force", `"git.push-force"`},
		{"one byte below the table", strings.Repeat("a", repeatedMin-1), `"` + strings.Repeat("a", repeatedMin-1) + `"`},
		{"the shortest in the table", strings.Repeat("b", repeatedMin), `"` + strings.Repeat("b", repeatedMin) + `"`},
		{"a reason", "The supervised mode allows read-tier calls.", `"The supervised mode allows read-tier calls."`},
		{"escapes", "A forced push <overwrites> the \"remote\" branch & its\tcommits\n",
			`"A forced push \u003coverwrites\u003e the \"remote\" branch \u0026 its\tcommits\n"`},
		{"invalid UTF-8 and U+2028", "a reason with \xff and \u2028 and é in it",
			`"a reason with \ufffd and \u2028 and é in it"`},
		{"the longest in the table", long[:repeatedMax], std(t, long[:repeatedMax], true)},
		{"one byte above the table", long[:repeatedMax+1], std(t, long[:repeatedMax+1], true)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want != std(t, tt.s, true) {
				t.Fatalf("test's want %s is not encoding/json's %s", tt.want, std(t, tt.s, true))
			}
			for i := range 3 {
				got := string(AppendRepeated([]byte("x:"), tt.s))
				if diff := cmp.Diff("x:"+tt.want, got); diff != "" {
					t.Fatalf("quoting %d (-want +got):\n%s", i+1, diff)
				}
			}
		})
	}
}

// TestAppendRepeatedSharedSet: a text is kept when it misses twice
// running; two texts of one set are both kept (the table does not make
// them evict each other, as a direct-mapped one did with the policy's hash
// and a reason); a third evicts the older; every text is quoted as itself
// throughout.
func TestAppendRepeatedSharedSet(t *testing.T) {
	clearRepeated()
	base := "%04d is the number of the rule's reason, which repeats."
	bySet := map[uint64][]string{}
	var same []string
	for i := 0; same == nil; i++ {
		s := fmt.Sprintf(base, i)
		set := repeatedSet(s)
		bySet[set] = append(bySet[set], s)
		if len(bySet[set]) == 3 {
			same = bySet[set]
		}
	}
	a, b, c := same[0], same[1], same[2]
	set := &repeated[repeatedSet(a)]
	kept := func() []string {
		var out []string
		for i := range set.texts {
			if e := set.texts[i].Load(); e != nil {
				out = append(out, e.text)
			}
		}
		return out
	}
	for i, step := range []struct {
		s    string
		kept []string
	}{
		{a, nil}, // quoted once: not kept
		{a, []string{a}},
		{b, []string{a}},
		{b, []string{b, a}},
		{a, []string{b, a}}, // found second: nothing moves
		{b, []string{b, a}},
		{c, []string{b, a}},
		{c, []string{c, b}}, // a, the older, goes
		{a, []string{c, b}},
		{a, []string{a, c}},
	} {
		if got, want := string(AppendRepeated(nil, step.s)), std(t, step.s, true); got != want {
			t.Fatalf("step %d: AppendRepeated(%q) = %s, want %s", i, step.s, got, want)
		}
		if diff := cmp.Diff(step.kept, kept()); diff != "" {
			t.Fatalf("step %d: the set holds (-want +got):\n%s", i, diff)
		}
	}
}

// TestAppendRepeatedKeepsNoBuffer: the table keeps its own copy of a
// text, so a caller writing into the bytes it quoted from changes nothing.
// The text written over it has the bytes the set is chosen by, so a table
// holding the caller's bytes would answer it with the first text's quoting.
func TestAppendRepeatedKeepsNoBuffer(t *testing.T) {
	clearRepeated()
	buf := []byte("The first part of a reason, the second part.!!!")
	s := unsafe.String(&buf[0], len(buf)) // as a caller's string over a reused buffer
	AppendRepeated(nil, s)
	AppendRepeated(nil, s) // a second miss running: the table keeps the text
	set := repeatedSet(s)
	copy(buf[9:], "PART")
	if repeatedSet(s) != set {
		t.Fatalf("the test's texts must share a set")
	}
	if got, want := string(AppendRepeated(nil, s)), std(t, s, true); got != want {
		t.Fatalf("after the buffer changed: %s, want %s", got, want)
	}
}

// TestAppendRepeatedConcurrent quotes texts from many goroutines at once
// (run it with -race).
func TestAppendRepeatedConcurrent(t *testing.T) {
	clearRepeated()
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = fmt.Sprintf("Reason %d: a <text> that \"repeats\" call after call.", i)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				s := texts[(i*7+g)%len(texts)]
				if got, want := string(AppendRepeated(nil, s)), string(Append(nil, s, true)); got != want {
					t.Errorf("AppendRepeated(%q) = %s, want %s", s, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func FuzzAppendRepeated(f *testing.F) {
	for _, s := range jsonquotetest.Samples {
		f.Add(s, s)
	}
	f.Add("The supervised mode allows read-tier calls.", "The supervised mode allows read-tier calls!")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, s := range []string{a, b, a, b} {
			if got, want := string(AppendRepeated(nil, s)), std(t, s, true); got != want {
				t.Fatalf("AppendRepeated(%q) = %s, encoding/json %s", s, got, want)
			}
		}
	})
}

func BenchmarkAppendRepeated(b *testing.B) {
	s := "A forced push overwrites the remote branch; commits others pushed are lost."
	buf := make([]byte, 0, 256)
	b.Run("Append", func(b *testing.B) {
		for b.Loop() {
			buf = Append(buf[:0], s, true)
		}
	})
	b.Run("AppendRepeated", func(b *testing.B) {
		for b.Loop() {
			buf = AppendRepeated(buf[:0], s)
		}
	})
}
