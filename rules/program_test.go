package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/risk"
)

func TestProgramCompileReportsEveryProblem(t *testing.T) {
	bad := Pack{Name: "fx", Executables: []string{"tool"}, file: "effects/fx.toml", Programs: []Program{
		{Exe: []string{"tool"}, Operands: "reed", First: "script:cobol", Flags: []string{"-a", "x", "-v"},
			Values: []string{"-v"}, Effects: map[string]string{"-o": "wrote", "-x": "operands:nothing"},
			Env: map[string]string{"PAGER": "shel"}, Always: []string{"explode"}, Only: []string{"src/*.go", "[x"},
			LeaveOut: "--exclude", Attached: []string{"--long", "-z"}},
		{Exe: []string{"other"}, Examples: []string{"other"}},
	}}
	_, err := Compile([]Pack{bad}, Options{})
	if err == nil {
		t.Fatal("Compile accepted a broken effect pack")
	}
	msg := err.Error()
	for _, want := range []string{
		`field operands: unknown role "reed"`,
		`field first: unknown script language "cobol"`,
		`field flags: "x" is not an option`,
		`option -v is listed in flags and in values or effects`,
		`field effects.-o: unknown effect "wrote"`,
		`field effects.-x: unknown role "nothing"`,
		`field env.PAGER: unknown role "shel"`,
		`field always: unknown effect "explode"`,
		`field only: "src/*.go" is not a base-name glob`,
		`field only: "[x" is not a base-name glob`,
		`field leave_out: "--exclude" must be an option (--exclude=NAME) or a git pathspec (:!NAME) with NAME once`,
		`field attached: "--long" is not a single-letter option (write -x)`,
		`field attached: -z is listed in neither flags nor effects; list it in one of them too`,
		`field examples: required`,
		`executable "other" is not listed in the pack's executables [tool]`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not mention %q:\n%s", want, msg)
		}
	}
}

// An entry whose examples it does not describe can never match as written,
// and Check says so; so does an entry that describes a counter-example.
func TestProgramExamplesAreChecked(t *testing.T) {
	p := Pack{Name: "fx", Executables: []string{"tool"}, file: "effects/fx.toml", Programs: []Program{
		{Exe: []string{"tool"}, Sub: []string{"lsit"}, Examples: []string{"tool list x"}},
		{Exe: []string{"tool"}, Sub: []string{"show"}, Examples: []string{"tool show x"}, Counter: []string{"tool show y"}},
	}}
	_, err := Compile([]Pack{p}, Options{})
	if err == nil {
		t.Fatal("Compile accepted entries that do not match their examples")
	}
	for _, want := range []string{
		`example "tool list x" is not described by this entry (no entry applies)`,
		`counter-example "tool show y" is described by this entry`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%s", want, err)
		}
	}
}

func TestProgramClassify(t *testing.T) {
	s := builtin(t)
	type out struct {
		Tier     string
		Proven   bool
		Paths    []string
		Code     []string
		Program  string
		Unproven string
	}
	for _, c := range []struct {
		cmd  string
		want out
	}{
		{"sort -u names.txt", out{Tier: "read", Proven: true, Paths: []string{"read names.txt"}, Program: "sort"}},
		{"sort -o out.txt in.txt", out{Tier: "write", Paths: []string{"write out.txt", "read in.txt"}, Program: "sort"}},
		{"sort --frobnicate x", out{Tier: "execute", Paths: []string{"read x"}, Program: "sort",
			Unproven: "The command is not proven read-only: sort does not know the option --frobnicate."}},
		{"sort --compress-program=sh big", out{Tier: "execute", Paths: []string{"read big"}, Program: "sort",
			Unproven: "The command is not proven read-only: sort runs the program sh."}},
		{"sort --help", out{Tier: "read", Proven: true, Program: "sort"}},
		{"sed -n 1,5p f", out{Tier: "read", Proven: true, Paths: []string{"read f"}, Program: "sed|gsed"}},
		{"sed '1e id' f", out{Tier: "execute", Paths: []string{"read f"}, Code: []string{"shell id"}, Program: "sed|gsed"}},
		{"sed -i s/a/b/ f", out{Tier: "write", Paths: []string{"write f"}, Program: "sed|gsed"}},
		// the backup an in-place edit leaves: the suffix attached to -i
		// (never the next word), or a '*' pattern that may point elsewhere
		{"sed -i.bak s/a/b/ f", out{Tier: "write", Paths: []string{"write f.bak", "write f"}, Program: "sed|gsed"}},
		{"sed -ni.bak p f", out{Tier: "write", Paths: []string{"write f.bak", "write f"}, Program: "sed|gsed"}},
		{"sed -in s/a/b/ f", out{Tier: "write", Paths: []string{"write fn", "write f"}, Program: "sed|gsed"}},
		{"sed --in-place=.orig s/a/b/ f g", out{Tier: "write", Paths: []string{"write f.orig", "write f", "write g.orig", "write g"}, Program: "sed|gsed"}},
		{"sed -n --in-place='/home/u/.claude/*' '' src/settings.json", out{Tier: "write",
			Paths: []string{"write /home/u/.claude/settings.json", "write src/settings.json"}, Program: "sed|gsed"}},
		{"sed -i'old_*' s/a/b/ src/f", out{Tier: "write", Paths: []string{"write src/old_f", "write src/f"}, Program: "sed|gsed"}},
		{"sed -i\"$S\" s/a/b/ f", out{Tier: "execute", Paths: []string{"write f"}, Program: "sed|gsed",
			Unproven: "The command is not proven read-only: the name of the backup file sed leaves is not known when the command is judged."}},
		{"awk '{print NR}' f", out{Tier: "read", Proven: true, Paths: []string{"read f"}, Program: "awk|gawk|mawk|nawk"}},
		{`awk 'BEGIN {print "x" > "/etc/motd"}'`, out{Tier: "write", Paths: []string{"write /etc/motd"}, Program: "awk|gawk|mawk|nawk"}},
		{"grep -rn TODO src", out{Tier: "read", Proven: true, Paths: []string{"read src (tree) leave-out --exclude=NAME"}, Program: "grep|egrep|fgrep"}},
		{"grep -r TODO", out{Tier: "read", Proven: true, Paths: []string{"read . (tree) leave-out --exclude=NAME"}, Program: "grep|egrep|fgrep"}},
		// what a recursive walk touches: its own file types, the globs of
		// its options, the files git tracks
		{"grep -rn --include='*.go' --exclude=.env TODO .", out{Tier: "read", Proven: true,
			Paths: []string{`read . (tree) only=["*.go"] skip=[".env"] tracked=false leave-out --exclude=NAME`}, Program: "grep|egrep|fgrep"}},
		{"grep -rn --exclude=$X TODO .", out{Tier: "read", Proven: true, Paths: []string{"read . (tree) leave-out --exclude=NAME"}, Program: "grep|egrep|fgrep"}},
		{"rg --hidden -g '!.env' -g '*.py' TODO", out{Tier: "read", Proven: true,
			Paths: []string{`read . (tree) only=["*.py"] skip=[".env"] tracked=false leave-out --glob=!NAME`}, Program: "rg"}},
		{"gofmt -w .", out{Tier: "write", Proven: false, Paths: []string{`write . (tree) only=["*.go"] skip=[] tracked=false`}, Program: "gofmt"}},
		{"git grep -n TODO", out{Tier: "read", Proven: true, Paths: []string{`read . (tree) only=[] skip=[] tracked=true leave-out :!NAME`}, Program: "git grep"}},
		{"git grep --untracked -n TODO", out{Tier: "read", Proven: true, Paths: []string{"read . (tree) leave-out :!NAME"}, Program: "git grep"}},
	} {
		cmds := splitCommand(c.cmd)
		r := s.Classify(cmds[0])
		got := out{Tier: r.Tier.String(), Proven: r.Proven, Program: r.Program}
		for _, p := range r.Paths {
			d := p.Access + " " + p.Word.Value
			if p.Tree {
				d += " (tree)"
			}
			if n := p.Names; !n.IsZero() {
				d += fmt.Sprintf(" only=%q skip=%q tracked=%v", n.Only, n.Skip, n.Tracked)
			}
			if p.LeaveOut != "" {
				d += " leave-out " + p.LeaveOut
			}
			got.Paths = append(got.Paths, d)
		}
		for _, code := range r.Code {
			got.Code = append(got.Code, code.Lang+" "+code.Text)
		}
		for _, f := range r.Findings {
			if f.Rule == "effects.unproven" {
				got.Unproven = f.Reason
			}
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.cmd, diff)
		}
	}
	_ = risk.Read
}

func TestBackupName(t *testing.T) {
	for _, c := range []struct{ file, suffix, want string }{
		{"f", ".bak", "f.bak"},
		{"src/f.go", "~", "src/f.go~"},
		{"src/f.go", "old_*", "src/old_f.go"},
		{"src/f.go", "*.orig", "src/f.go.orig"},
		{"src/f.go", "bak/*", "bak/f.go"},
		{"src/settings.json", "/home/u/.claude/*", "/home/u/.claude/settings.json"},
		{"a/f", "**", "a/ff"},
		{"f", "/x", "f/x"},
	} {
		if got := BackupName(c.file, c.suffix); got != c.want {
			t.Errorf("BackupName(%q, %q) = %q, want %q", c.file, c.suffix, got, c.want)
		}
	}
}
