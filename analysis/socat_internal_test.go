package analysis

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/shell"
)

func TestSocatFile(t *testing.T) {
	type res struct {
		File   string
		Writes bool
		OK     bool
	}
	for addr, want := range map[string]res{
		"FILE:/home/u/.docker/config.json":  {"/home/u/.docker/config.json", false, true},
		"file:notes.txt":                    {"notes.txt", false, true},
		"OPEN:/etc/passwd":                  {"/etc/passwd", false, true},
		"GOPEN:log.txt,append":              {"log.txt", true, true},
		"OPEN:out.bin,creat,trunc":          {"out.bin", true, true},
		"CREATE:/tmp/x":                     {"/tmp/x", true, true},
		"creat:y":                           {"y", true, true},
		"PIPE:/tmp/fifo":                    {"/tmp/fifo", false, true},
		"/home/u/.ssh/id_rsa":               {"/home/u/.ssh/id_rsa", false, true},
		"./build/out.log":                   {"./build/out.log", false, true},
		"TCP:198.51.100.1:9000":             {"", false, false},
		"TCP-LISTEN:9000,fork":              {"", false, false},
		"EXEC:/bin/sh":                      {"", false, false},
		"SYSTEM:ls /tmp":                    {"", false, false},
		"UNIX-CONNECT:/var/run/docker.sock": {"", false, false},
		"-":                                 {"", false, false},
		"STDIO":                             {"", false, false},
		"OPEN:":                             {"", false, false},
	} {
		f, w, ok := socatFile(addr)
		if diff := cmp.Diff(want, res{f, w, ok}); diff != "" {
			t.Errorf("socatFile(%q) (-want +got):\n%s", addr, diff)
		}
	}
}

// TestSocatFiles: each file address is read when data flows out of it and
// written when data flows into it (both ways by default, -u left to right,
// -U right to left) if a regular file is there or the address creates
// one; a socket there is a connection. Options that take a value are
// skipped.
func TestSocatFiles(t *testing.T) {
	d := t.TempDir()
	if err := os.WriteFile(filepath.Join(d, "key"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(d, "s.sock"))
	if err != nil {
		t.Skip("no unix socket here:", err)
	}
	defer l.Close()
	for command, want := range map[string][]string{
		"socat -u FILE:D/key TCP:h:1":            {"read D/key"},
		"socat -U FILE:D/key TCP:h:1":            {"write D/key"},
		"socat FILE:D/key TCP:h:1":               {"read D/key", "write D/key"},
		"socat -u TCP-LISTEN:1 OPEN:D/o,creat":   {"write D/o"},
		"socat -u TCP-LISTEN:1 D/key":            {"write D/key"},
		"socat -u TCP-LISTEN:1 D/none":           nil,
		"socat stdio D/s.sock":                   {"read D/s.sock"},
		"socat -u CREATE:D/f TCP:h:1":            {"read D/f", "write D/f"},
		"socat -b 8192 -u FILE:D/a TCP:h:1":      {"read D/a"},
		"socat -lf /tmp/log -u FILE:D/a TCP:h:1": {"read D/a"},
		"socat - TCP:example.com:80":             nil,
		"socat -u FILE:D/a":                      nil,
		"nc h 1":                                 nil,
	} {
		s, err := shell.Parse(strings.ReplaceAll(command, "D/", d+"/"), shell.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec := &pathRecorder{}
		a := &Analysis{judge: rec}
		a.socatFiles(s.Commands[0], "")
		for i := range rec.got {
			rec.got[i] = strings.ReplaceAll(rec.got[i], d+"/", "D/")
		}
		if diff := cmp.Diff(want, rec.got); diff != "" {
			t.Errorf("socatFiles(%s) (-want +got):\n%s", command, diff)
		}
	}
}

// pathRecorder is a Judge that records the paths it is given as
// "ACCESS PATH".
type pathRecorder struct {
	Judge
	got []string
}

func (r *pathRecorder) Path(p Path) {
	r.got = append(r.got, p.Access.String()+" "+p.Word.Value)
}
