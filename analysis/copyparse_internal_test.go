package analysis

import (
	"reflect"
	"testing"

	"github.com/toolguard/toolguard/shell"
)

// TestCopyParseOps checks copySpec.parse with the operand list its callers
// lend: a used list (full of another command's words), one too short and
// none give what a fresh list gives, for commands with fewer and more
// operands than opsOnStack.
func TestCopyParseOps(t *testing.T) {
	for _, command := range []string{
		"mv src out/", "mv a b c build/stash", "mv -t target src lib", "mv --target-directory=out src",
		"mv -T src out", "cp -r src build/", "cp a b c d e f g h i j k dest/", "cp -t dest a b c d e f g h",
		"ln -s ../src out", "ln src", "install -m 755 tool bin/", "install -d bin", "rsync -a src/ dist/",
		"rsync -av --exclude x a b c d e f g dist/", `cp "$f" ./build/`, "mv src", "cp -- -a -b -c -d -e -f -g dest",
	} {
		s, err := shell.Parse(command, shell.Options{})
		if err != nil || len(s.Commands) != 1 {
			t.Fatalf("%s: %v", command, err)
		}
		cmd := s.Commands[0]
		spec := copySpecs[cmd.Name]
		want, wantSources, wantOK := spec.parse(cmd.Name, cmd.Args(), nil)
		used := make([]shell.Word, opsOnStack)
		for i := range used {
			used[i] = shell.Word{Value: "left-over", Known: true}
		}
		for _, ops := range [][]shell.Word{used, used[:0], make([]shell.Word, 0, 1)} {
			got, sources, ok := spec.parse(cmd.Name, cmd.Args(), ops)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(sources, wantSources) || ok != wantOK {
				t.Errorf("%s with a lent list (len %d, cap %d): %+v %v %v, want %+v %v %v",
					command, len(ops), cap(ops), got, sources, ok, want, wantSources, wantOK)
			}
		}
		if wantOK && len(wantSources) == 0 && cmd.Name != "install" {
			t.Errorf("%s: no sources", command)
		}
	}
}
