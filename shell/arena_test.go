package shell

import (
	"reflect"
	"strings"
	"testing"
)

// mixedScript is about n bytes of a build script of many commands, a
// loop, a pipeline, a substitution and nested code per step, to fill an
// arena.
func mixedScript(n int) string {
	var sb strings.Builder
	for i := 0; sb.Len() < n; i++ {
		t := itoa(i)
		sb.WriteString("if [ -d ./cmd/tool" + t + " ]; then\n  go build -o bin/tool" + t + " ./cmd/tool" + t + "\nfi\n" +
			"for f in ./testdata/*.golden; do cp \"$f\" ./build/ ; done\ngit status --short | grep -c . || true\n" +
			"X" + t + "=$(cat VERSION) bash -c 'echo $0' \"$X" + t + "\" > out.txt 2>&1 &\n")
	}
	return sb.String()
}

// parseInArena parses src in a, after the arena made and gave back the
// commands of other scripts, and as the only parse of a fresh walk: the
// Scripts must be equal. Two parses share the arena before its Reset, as
// an analysis's do.
func parseInArena(t *testing.T, a *Arena, src string) {
	t.Helper()
	opts := Options{Home: "/home/u", MaxBytes: 64 << 10, Env: map[string]string{"HOME": "/home/u", "PWD": "/work"}}
	heapWork, arenaWork := NewBudget(0), NewBudget(0)
	opts.Budget = heapWork
	want, wantErr := Parse(src, opts)
	opts.Budget, opts.Arena = arenaWork, a
	before, _ := Parse(mixedScript(2<<10), opts) // shares the arena with the next
	got, gotErr := Parse(src, opts)
	if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
		t.Fatalf("Parse(%q): error %v in the arena, %v on the heap", src, gotErr, wantErr)
	}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("Parse(%q) in a used arena:\n%s\non the heap:\n%s", src, viewScript(got), viewScript(want))
	}
	if again, _ := Parse(mixedScript(2<<10), Options{Home: "/home/u", MaxBytes: 64 << 10,
		Env: map[string]string{"HOME": "/home/u", "PWD": "/work"}}); !reflect.DeepEqual(before, again) {
		t.Fatalf("the arena's first parse changed under the second (%q)", src)
	}
	a.Reset()
	a.checkZero(t)
}

// checkZero fails unless every block the arena keeps is zero.
func (a *Arena) checkZero(t *testing.T) {
	t.Helper()
	zero := func(what string, n int, isZero func(i, j int) bool, lens func(i int) int) {
		for i := range n {
			for j := range lens(i) {
				if !isZero(i, j) {
					t.Fatalf("after Reset, %s block %d holds a value at %d", what, i, j)
				}
			}
		}
	}
	zero("command", len(a.commands.spare), func(i, j int) bool { return reflect.ValueOf(a.commands.spare[i][j]).IsZero() },
		func(i int) int { return len(a.commands.spare[i]) })
	zero("ctx", len(a.ctxs.spare), func(i, j int) bool { return reflect.ValueOf(a.ctxs.spare[i][j]).IsZero() },
		func(i int) int { return len(a.ctxs.spare[i]) })
	zero("state", len(a.states.spare), func(i, j int) bool { return reflect.ValueOf(a.states.spare[i][j]).IsZero() },
		func(i int) int { return len(a.states.spare[i]) })
	zero("word", len(a.words.spare), func(i, j int) bool { return reflect.ValueOf(a.words.spare[i][j]).IsZero() },
		func(i int) int { return len(a.words.spare[i]) })
	if len(a.commands.kept)+len(a.ctxs.kept)+len(a.states.kept)+len(a.words.kept) != 0 || a.commands.free != nil || a.words.free != nil {
		t.Fatal("after Reset, the arena still counts blocks as handed out")
	}
}

// TestArenaMatchesHeap parses the package's table sources, the benchmark
// commands and dense scripts in an arena used (and Reset) before, with
// another parse in it at the same time, and on the heap: equal Scripts,
// and an arena all zero after each Reset.
func TestArenaMatchesHeap(t *testing.T) {
	var a Arena
	srcs := append([]string{}, shortcutSources...)
	srcs = append(srcs, benchCommands...)
	srcs = append(srcs, mixedScript(200), denseScript(10<<10), mixedScript(60<<10))
	for _, src := range srcs {
		parseInArena(t, &a, src)
	}
	if len(a.commands.spare) == 0 || len(a.words.spare) == 0 {
		t.Fatal("the arena kept no blocks: nothing was reused")
	}
}

// TestArenaKeepsBounded: a parse of the largest text leaves the arena no
// more values than it keeps.
func TestArenaKeepsBounded(t *testing.T) {
	var a Arena
	Parse(mixedScript(60<<10), Options{MaxBytes: 64 << 10, MaxCommands: 4096, Arena: &a})
	a.Reset()
	count := func(n int, lens func(i int) int) (sum int) {
		for i := range n {
			sum += lens(i)
		}
		return sum
	}
	if n := count(len(a.commands.spare), func(i int) int { return len(a.commands.spare[i]) }); n > keptCommands {
		t.Errorf("kept %d commands, most %d", n, keptCommands)
	}
	if n := count(len(a.words.spare), func(i int) int { return len(a.words.spare[i]) }); n > keptWords {
		t.Errorf("kept %d words, most %d", n, keptWords)
	}
}

// FuzzArena parses a fuzzed text in a used arena and on the heap.
func FuzzArena(f *testing.F) {
	for _, src := range shortcutSources {
		f.Add(src)
	}
	for _, src := range benchCommands {
		f.Add(src)
	}
	var a Arena
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		parseInArena(t, &a, src)
	})
}
