package shell

import (
	"strings"
	"testing"
)

// FuzzParse: no input panics; an error always comes with a Problem; spans
// stay inside the source.
func FuzzParse(f *testing.F) {
	for _, src := range benchCommands {
		f.Add(src)
	}
	f.Add(`bash -c 'eval "$(echo rm -rf /)"' | sh <<< x`)
	f.Add("f(){ f|f& };f; alias a='a b'; a")
	f.Add("read -r a b <<< '  x  y z '; printf -v c '%s/' \"$a\"; rm -rf \"$c\" \"$b\"")
	f.Add("for d in a \"b c\" $X; do for e in 1 2; do cp f \"$d/$e\"; done; done")
	f.Add("echo ok\x00r\x00m -rf ~\x00)")
	f.Add("mapfile -t d <<< \"$HOME\"; echo x | xargs -I{} cp f {}/; python3 -c \"$(cat a.py)\"; source <(k completion bash)")
	f.Add("ps -o pid= -C node,vite -p 12,1 --ppid 0 | xargs -I % kill -9 %; ps -e -o ppid= | xargs kill")
	f.Add("find ~ -name x | while IFS= read -r f; do sh -c 'for g; do cat \"$g\" {}; done' _ \"$f\"; done < <(find . | sed p)")
	f.Add("find ~ -name x -exec bash -c 'cat \"$@\" $1' _ {} +; find / | xargs -I{} sh -c 'cat {}'")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(src, Options{Home: "/home/u", MaxBytes: 4096, MaxCommands: 64})
		checkInvariants(t, src, s)
		if err != nil && len(s.Problems) == 0 {
			t.Fatalf("Parse(%q) = error %v without a problem", src, err)
		}
		for _, p := range s.Problems {
			if strings.HasPrefix(p.Reason, "internal error") {
				t.Fatalf("Parse(%q): %s", src, p.Reason)
			}
		}
	})
}
