package shell

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestListedEntries: the set of paths a listing's lines stand for, and
// whether it is the walk of a directory (Walked) or not listed at all.
func TestListedEntries(t *testing.T) {
	tests := []struct {
		cmd    string
		want   string // "" when not a listing
		known  bool
		walked bool
	}{
		{"find src -name '*.go'", "src/*.go", true, true},
		{"find ~ -iname 'ID_*'", "/home/u/[Ii][Dd]_*", true, true},
		{"find ~ -path '*gh*' -name hosts.yml", "/home/u/hosts.yml", false, true},
		{"find ~ ! -name '*.py'", "/home/u/*", false, true},
		{"find ~ -name a -o -name b", "/home/u/*", false, true},
		{"find $D -name x", "$D/x", false, false},
		{`find ~ -name "$X"`, "/home/u/*", false, true},      // an unknown name: any name
		{"find ~ -name a -name b", "/home/u/*", false, true}, // a second -name
		{"find ~ -name a/b", "/home/u/*", false, true},       // a name with a / matches nothing find visits; judged as any
		{"find ~ -size +1k", "/home/u/*", false, true},
		{"find . -name x | sort | head -3", "./x", true, true},
		{"find ~ -maxdepth 1 -name .bashrc", "/home/u/.bashrc", true, false}, // ROOT's entry, as the glob names it
		{"find ~ -maxdepth 1 -iname .bashrc", "/home/u/.[bB][aA][sS][hH][rR][cC]", true, false},
		{"find ~ -maxdepth 1 -name '*.yml'", "/home/u/*.yml", true, true},       // find matches hidden names, the glob does not
		{"find ~ -maxdepth 2 -name hosts.yml", "/home/u/hosts.yml", true, true}, // deeper: the walk
		{"find ~ -maxdepth 1 -maxdepth 3 -name x", "/home/u/x", true, true},
		{"find ~ -maxdepth $N -name x", "/home/u/x", true, true},
		{"find ~ -maxdepth 1 -path '*a*' -name x", "/home/u/x", false, true},
		{"find ~ -name x | sed s/a/b/", "/home/u/*", false, true}, // rewritten: some part of the walk
		{"find ~ -name x | grep -n . | cut -d: -f2", "/home/u/*", false, true},
		{"find / -name shadow | awk '{print}'", "/*", false, true},
		{"ls ~/.ssh/id_* | sed p", "/home/u/.ssh/*", false, true},
		{"ls | tr a b", "./*", false, true},
		{"ls ~/*/x | sed p", "", false, false}, // the directory is a glob
		{"fd -H hosts.yml ~", "/home/u/*", true, true},
		{"fd -e go", "./*.go", true, true},
		{"fd -g '*.md' docs", "docs/*.md", true, true},
		{"fd -e go -e ts", "", false, false},    // two names: not one glob
		{"fd x a b", "", false, false},          // two search paths
		{"fd -x rm {} ';' x", "", false, false}, // runs commands
		{"locate hosts.yml", "/*", true, true},
		{"ls", "*", true, false},
		{"ls -A ~", "./*", true, true}, // dot entries too: as a walk, more than listed, never less
		{"ls -la", "./*", true, true},
		{"ls --almost-all", "./*", true, true},
		{"ls -l --color=auto", "*", true, false},
		{"ls ~/.ssh/id_*", "/home/u/.ssh/id_*", true, false},
		{"ls a b", "", false, false},
		{"cat list", "", false, false},
		{"git ls-files", "./*", true, true}, // the tracked files, at every depth: judged as all of them
		{"git ls-files -z", "./*", true, true},
		{"git ls-files --others --exclude-standard", "./*", true, true},
		{"git ls-files src/", "src/*", true, true},
		{"git ls-files -- docs", "docs/*", true, true},
		{"git ls-files '*.go'", "./*", false, true}, // a pattern: some of the walk
		{"git ls-files a b", "./*", false, true},
		{"git ls-files | sed s/a/b/", "./*", false, true},
		{"git log --name-only", "", false, false},
		{"git -C sub ls-files", "", false, false},
	}
	for _, tc := range tests {
		s, err := Parse(tc.cmd, Options{Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		last := s.Commands[len(s.Commands)-1]
		got, ok := listedEntries(last)
		if !ok {
			if tc.want != "" {
				t.Errorf("listedEntries(%q): not a listing, want %q", tc.cmd, tc.want)
			}
			continue
		}
		if got.Value != tc.want || got.Known != tc.known || got.Walked != tc.walked {
			t.Errorf("listedEntries(%q) = %q known %v walked %v, want %q known %v walked %v",
				tc.cmd, got.Value, got.Known, got.Walked, tc.want, tc.known, tc.walked)
		}
	}
}

// TestListingInWords: a listing reaches a command's operand through $(…),
// a variable assigned from it, or a for loop over it, and the operand is
// the listing's walk; anything else leaves the operand as it was.
func TestListingInWords(t *testing.T) {
	tests := []struct {
		script string
		want   string // cat's operand
		walked bool
	}{
		{"cat $(find ~ -name x)", "/home/u/x", true},
		{`cat "$(find ~ -name x | sort)"`, "/home/u/x", true},
		{"f=$(find ~ -name x); cat $f", "/home/u/x", true},
		{`f=$(find ~ -name x); cat "${f}"`, "/home/u/x", true},
		{`for f in $(find ~ -name x); do cat "$f"; done`, "/home/u/x", true},
		{"f=$(find ~ -name x); cat ${f%/*}", "${f%/*}", false}, // an operation on it: not the set
		{"f=$(find ~ -name x); f+=y; cat $f", "$f", false},
		{"cat $(find ~ -name x | sed s/a/b/)", "/home/u/*", true}, // rewritten: the walk, not known
		{"cat $(find ~ -path '*a*' -name x)", "/home/u/x", true},  // an inexact walk
		{"f=$(find ~ -path '*a*' -name x); if true; then :; fi; cat $f", "/home/u/x", true},
		{"cat $(ls ~/.ssh/id_* | tr a b)", "/home/u/.ssh/*", true},
		{`find ~ -name x | while read f; do cat "$f"; done`, "/home/u/x", true},
		{`find ~ -name x | while IFS= read -r f; do cat "$f"; done`, "/home/u/x", true},
		{`find ~ -name x -print0 | while IFS= read -r -d '' f; do cat "$f"; done`, "/home/u/x", true},
		{`find ~ -name x | while read; do cat "$REPLY"; done`, "/home/u/x", true},
		{`find ~ -name 'a?' | while read f; do cat "$f"; done`, "/home/u/*", true}, // backslashes may go: the walk
		{`find ~ -name x | while read a b; do cat "$a"; done`, "/home/u/*", true},  // a field of a line
		{`find ~ -name x | while read -n 4 f; do cat "$f"; done`, "/home/u/*", true},
		{`while read f; do cat "$f"; done < <(find ~ -name x)`, "/home/u/x", true},
		{`while read f; do cat "$f"; done <<< "$(find ~ -name x)"`, "/home/u/x", true},
		{`while read -r f; do cat "$f"; done <<< $(find ~ -name x)`, "/home/u/x", true},
		{`while read f; do cat "$f"; done <<< "a$(find ~ -name x)"`, "$f", false},            // more than the listing
		{`while read f; do cat "$f"; done <<< "$(find ~ -name x)" < /dev/null`, "$f", false}, // the last redirect wins
		{`find ~ -name x | { read f; cat "$f"; }`, "/home/u/x", true},
		{`find ~ -name x | while read -u 3 f; do cat "$f"; done`, "$f", false}, // another descriptor
		{`read -u 3 f 3< <(find ~ -name x); cat "$f"`, "/home/u/x", true},
		{`read -u3 f 3< <(find ~ -name x); cat "$f"`, "/home/u/x", true},
		{`while read -u 3 f; do cat "$f"; done 3< <(find ~ -name x)`, "/home/u/x", true},
		{`while read -r -u 3 f; do cat "$f"; done 3<<< "$(find ~ -name x)"`, "/home/u/x", true},
		{`{ while read -u 3 f; do cat "$f"; done 3< list; } 3< <(find ~ -name x)`, "$f", false}, // the innermost redirect of 3
		{`while read -u 3 f; do cat "$f"; done 3< <(find ~ -name x) 3< list`, "$f", false},
		{`while read -u 4 f; do cat "$f"; done 3< <(find ~ -name x)`, "$f", false},
		{`read -u 3 f < <(find ~ -name x); cat "$f"`, "$f", false}, // stdin is not descriptor 3
		{`read -u 0 f < <(find ~ -name x); cat "$f"`, "/home/u/x", true},
		{`mapfile -t a < <(find ~ -name x); cat "${a[@]}"`, "/home/u/x", true},
		{`readarray -t a < <(find ~ -name x); cat "${a[@]}"`, "/home/u/x", true},
		{`mapfile -t < <(find ~ -name x); cat "${MAPFILE[@]}"`, "/home/u/x", true},
		{`mapfile -t a < <(find ~ -name x); cat ${a[*]}`, "/home/u/x", true},
		{`mapfile -t a < <(find ~ -name x); cat "${a[0]}"`, "/home/u/x", true},
		{`mapfile -t a < <(find ~ -name x); cat "$a"`, "/home/u/x", true},
		{`mapfile -t -u 3 a 3< <(find ~ -name x); cat "${a[@]}"`, "/home/u/x", true},
		{`find ~ -name x | { mapfile -t a; cat "${a[@]}"; }`, "/home/u/x", true},
		{`mapfile -t a < <(find ~ -name x); for f in "${a[@]}"; do cat "$f"; done`, "/home/u/x", true},
		{`mapfile a < <(find ~ -name x); cat "${a[@]}"`, "/home/u/*", true}, // each with its newline: the walk
		{`mapfile -t -d , a < <(find ~ -name x); cat "${a[@]}"`, "/home/u/*", true},
		{`mapfile -t a < <(find ~ -name x); cat "${a[*]}"`, "${a[*]}", false}, // joined: no path of the set
		{`mapfile -t a < <(find ~ -name x); cat "${a[i]}"`, "${a[i]}", false},
		{`mapfile -t -C f a < <(find ~ -name x); cat "${a[@]}"`, "${a[@]}", false}, // a callback
		{`mapfile -t a < <(echo x); cat "${a[@]}"`, "${a[@]}", false},
		{`mapfile -t a < list; cat "${a[@]}"`, "${a[@]}", false},
		{`echo a | while read f; do cat "$f"; done`, "$f", false},
		{`find ~ -name x -exec sh -c 'cat "$1"' _ {} \;`, "/home/u/x", true},
		{`find ~ -name x -exec sh -c 'cat "$0"' {} \;`, "/home/u/x", true},
		{`find ~ -name x -exec bash -c 'cat "$@"' _ {} +`, "/home/u/x", true},
		{`find ~ -name x -exec sh -c 'cat "$2"' _ {} +`, "/home/u/x", true}, // {} + may fill $2 too
		{`find ~ -name x -exec sh -c 'for f; do cat "$f"; done' _ {} +`, "/home/u/x", true},
		{`find ~ -name x -exec sh -c 'cat {}' \;`, "/home/u/x", true},
		{`find ~ -name x | xargs -I{} sh -c 'cat {}'`, "/home/u/x", true},
		{`find ~ -name x | xargs -I{} cat {}`, "/home/u/x", true},
		{`find ~ -name x | xargs sh -c 'cat "$@"' _`, "/home/u/x", true},
		{`find ~ -name x -exec sh -c 'cat "$1"' _ a {} \;`, "a", false},
		{`sh -c 'cat "$1"' _ /home/u/x`, "/home/u/x", false},
		// a listing written into a file, then read back from it
		{`find ~ -name x > l; xargs cat < l`, "/home/u/x", true},
		{`find ~ -name x > l && xargs -a l cat`, "/home/u/x", true},
		{`find ~ -name x >| ~/l; xargs cat < ~/l`, "/home/u/x", true},
		{`find ~ -name x 2>/dev/null > l; xargs cat < l`, "/home/u/x", true},
		{`find ~ -name x | sort > l; xargs cat < l`, "/home/u/x", true},
		{`find ~ -name x > l; while read f; do cat "$f"; done < l`, "/home/u/x", true},
		{`find ~ -name x > l; mapfile -t a < l; cat "${a[@]}"`, "/home/u/x", true},
		{`find ~ -name x > l; echo y >> l; xargs cat < l`, "/home/u/x", true}, // >> keeps the listing
		{`xargs cat < <(find ~ -name x)`, "/home/u/x", true},
		{`find ~ -name x > l; echo y > l; xargs cat < l`, "$(input)", false}, // emptied, then other text
		{`find ~ -name x > l; find . > "$F"; xargs cat < l`, "$(input)", false},
		{`find ~ -name x > l 2>&1; xargs cat < l`, "$(input)", false}, // error lines mixed in
		{`find ~ -name x > l; xargs cat < m`, "$(input)", false},
		{`find ~ -name x | tee l > /dev/null; xargs cat < l`, "$(input)", false}, // written by an operand: not followed
	}
	for _, tc := range tests {
		s, err := Parse(tc.script, Options{Home: "/home/u"})
		if err != nil {
			t.Fatal(err)
		}
		// a loop's body is walked with f bound and once more with f
		// unknown: one of its cats must have the operand
		var seen []string
		found := false
		for _, c := range s.Commands {
			if c.Name == "cat" && len(c.Argv) > 1 {
				got := c.Argv[1]
				found = found || got.Value == tc.want && got.Walked == tc.walked
				seen = append(seen, fmt.Sprintf("%q walked %v", got.Value, got.Walked))
			}
		}
		if !found {
			t.Errorf("%q: cat's operands %v, want %q walked %v", tc.script, seen, tc.want, tc.walked)
		}
	}
}

// TestLineFilter: a command is a line filter only when it prints some of
// the lines it reads from a pipe, each whole.
func TestLineFilter(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"find . | sort", true},
		{"find . | sort -u", true},
		{"find . | sort -o out", false}, // writes a file
		{"find . | uniq", true},
		{"find . | uniq -c", false}, // prefixes counts
		{"find . | head -5", true},
		{"find . | head -n 5", true},
		{"find . | head -n5", true},
		{"find . | tail --lines=2", true},
		{"find . | head -c 10", false}, // cuts a line
		{"find . | tac", true},
		{"find . | tee -a list.txt", true}, // writes the file, prints its input whole
		{"find . | grep gh", true},
		{"find . | grep -v test", true},
		{"find . | grep -e a", true},
		{"find . | grep -iE 'a|b'", true},
		{"find . | grep -n gh", false},   // numbers lines
		{"find . | grep -o gh", false},   // prints parts
		{"find . | grep gh file", false}, // reads a file
		{"find . | grep -f pats", false},
		{"find . | sed s/a/b/", false},
		{"find . | head -5 > out", false},
		{"sort", false}, // no pipe
	}
	for _, tc := range tests {
		s, err := Parse(tc.cmd, Options{})
		if err != nil {
			t.Fatal(err)
		}
		last := s.Commands[len(s.Commands)-1]
		if got := lineFilter(last); got != tc.want {
			t.Errorf("lineFilter(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

// TestReadArgs: the names read assigns and how it reads them.
func TestReadArgs(t *testing.T) {
	tests := []struct {
		args         string
		names        []string
		raw, partial bool
		fd           string
		ok           bool
	}{
		{"f", []string{"f"}, false, false, "", true},
		{"-r f", []string{"f"}, true, false, "", true},
		{"-rd '' f", []string{"f"}, true, false, "", true},
		{"-r -d '' f", []string{"f"}, true, false, "", true},
		{"-d, f", []string{"f"}, false, false, "", true},
		{"-p 'name: ' a b", []string{"a", "b"}, false, false, "", true},
		{"-n 3 f", []string{"f"}, false, true, "", true},
		{"-rN3 f", []string{"f"}, true, true, "", true},
		{"-t 1 f", []string{"f"}, false, false, "", true},
		{"", nil, false, false, "", true},
		{"-u 3 f", []string{"f"}, false, false, "3", true},
		{"-ru3 f", []string{"f"}, true, false, "3", true},
		{"-u $fd f", nil, false, false, "", false},
		{"-u x f", nil, false, false, "", false},
		{"-u", nil, false, false, "", false},
		{"-a arr", nil, false, false, "", false},
		{"-x f", nil, false, false, "", false},
		{"f -r", nil, false, false, "", false}, // not a name after the first
		{"$v", nil, false, false, "", false},
		{"-- f", []string{"f"}, false, false, "", true},
	}
	for _, tc := range tests {
		s, err := Parse("read "+tc.args, Options{})
		if err != nil {
			t.Fatal(err)
		}
		names, raw, partial, fd, ok := readArgs(s.Commands[0].Args())
		if !ok {
			names = nil
		}
		if diff := cmp.Diff(tc.names, names); diff != "" || raw != tc.raw && ok || partial != tc.partial && ok || fd != tc.fd || ok != tc.ok {
			t.Errorf("readArgs(%q) = %v raw %v partial %v fd %q ok %v, want %v %v %v %q %v",
				tc.args, names, raw, partial, fd, ok, tc.names, tc.raw, tc.partial, tc.fd, tc.ok)
		}
	}
}

// FuzzReadArgs: readArgs never panics, and what it binds is a name.
func FuzzReadArgs(f *testing.F) {
	for _, a := range []string{"f", "-rd '' f", "-n 3 a b", "-u 3", "-d", "-", "--", "-rN"} {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, args string) {
		src := "find ~ -name x | while read " + args + "; do cat \"$f\"; done"
		s, err := Parse(src, Options{Home: "/home/u", MaxBytes: 4096, MaxCommands: 64})
		checkInvariants(t, src, s)
		if err != nil {
			return
		}
		for _, c := range s.Commands {
			if c.Name != "read" {
				continue
			}
			names, _, _, _, ok := readArgs(c.Args())
			for _, n := range names {
				if !ok || !isName(n) {
					t.Fatalf("readArgs(%q) = %q ok %v", args, names, ok)
				}
			}
		}
	})
}
