package rules

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolguard/toolguard/shell"
)

// ref is a PathRef reduced to what the tests compare.
type ref struct{ Value, Access string }

func refs(ps []PathRef) []ref {
	var out []ref
	for _, p := range ps {
		out = append(out, ref{p.Word.Value, p.Access})
	}
	return out
}

func TestPaths(t *testing.T) {
	s := builtin(t)
	cases := []struct {
		cmd  string
		want []ref
	}{
		{"rm -rf build dist", []ref{{"build", "delete"}, {"dist", "delete"}}},
		{"rmdir old", []ref{{"old", "delete"}}},
		{"shred -u key.pem", []ref{{"key.pem", "delete"}}},
		{"mv a.txt b.txt", []ref{{"a.txt", "delete"}, {"b.txt", "write"}}},
		{"cp ~/.aws/credentials x", []ref{{"~/.aws/credentials", "read"}, {"x", "write"}}},
		{"cp -t dest a b", []ref{{"dest", "write"}, {"a", "read"}, {"b", "read"}}},
		{"ln -sf /dev/null ~/.bashrc", []ref{{"~/.bashrc", "write"}}},
		{"chmod 600 key.pem", []ref{{"key.pem", "write"}}},
		{"chown -R me:me src", []ref{{"src", "write"}}},
		{"truncate -s 0 app.log", []ref{{"app.log", "write"}}},
		{"touch a b", []ref{{"a", "write"}, {"b", "write"}}},
		{"mkdir -p out/x", []ref{{"out/x", "write"}}},
		{"dd if=disk.img of=/dev/sdb bs=4M", []ref{{"disk.img", "read"}, {"/dev/sdb", "write"}}},
		{"tee -a log.txt", []ref{{"log.txt", "write"}}},
		{"sed -i s/a/b/ main.go", []ref{{"main.go", "write"}}},
		{"sed -n 1p main.go", []ref{{"main.go", "read"}}},
		{"sed -e s/a/b/ -i main.go", []ref{{"main.go", "write"}}},
		{"sed 'w /tmp/out' main.go", []ref{{"/tmp/out", "write"}, {"main.go", "read"}}},
		{"cat ~/.ssh/id_rsa", []ref{{"~/.ssh/id_rsa", "read"}}},
		{"grep -r TODO src", []ref{{"src", "read"}}},
		{"grep -e TODO -r src", []ref{{"src", "read"}}},
		{"head -n 5 a.txt", []ref{{"a.txt", "read"}}},
		{"base64 secret.bin", []ref{{"secret.bin", "read"}}},
		{"xxd blob", []ref{{"blob", "read"}}},
		{"source .env", []ref{{".env", "read"}}},
		{"tar -czf out.tgz src", []ref{{"out.tgz", "write"}, {"src", "read"}}},
		{"scp ~/.ssh/id_rsa host:", []ref{{"~/.ssh/id_rsa", "read"}}},
		{"curl -o out.html https://example.com", []ref{{"out.html", "write"}}},
		{"echo hi > notes.md", []ref{{"notes.md", "write"}}},
		{"wc -l < input.txt", []ref{{"input.txt", "read"}}},
		{"echo hi > /dev/null", nil},
		{"git clean -fd", nil},
		{"git clean -fd build", []ref{{"build", "delete"}}},
		{"rm -- -weird", []ref{{"-weird", "delete"}}},
	}
	for _, c := range cases {
		var got []ref
		for _, cmd := range splitCommand(c.cmd) {
			got = append(got, refs(s.Classify(cmd).Paths)...)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.cmd, diff)
		}
	}
}

func TestURLs(t *testing.T) {
	s := builtin(t)
	cases := []struct {
		cmd  string
		want []string
	}{
		{"curl -s https://example.com/a", []string{"https://example.com/a"}},
		{"curl --url http://169.254.169.254/latest", []string{"http://169.254.169.254/latest"}},
		{"wget -O x.tgz http://example.com/x.tgz", []string{"http://example.com/x.tgz"}},
		{"git clone git@github.com:org/repo.git", []string{"github.com"}},
		{"git clone https://github.com/org/repo.git dir", []string{"https://github.com/org/repo.git"}},
		{"git remote add origin https://gitlab.com/x/y.git", []string{"https://gitlab.com/x/y.git"}},
		{"git fetch origin +main:main", nil}, // a refspec, not host:path
		{"git push git@github.com:org/repo.git HEAD:main", []string{"github.com"}},
		{"git archive --format=tar HEAD:docs", nil},
		{"ssh -p 2222 deploy@build.example.com uptime", []string{"build.example.com"}},
		{"scp notes.txt user@files.example.com:/tmp/", []string{"files.example.com"}},
		{"rsync -a src/ backup.example.com:/srv/", []string{"backup.example.com"}},
		{"nc -z 10.0.0.1 22", []string{"10.0.0.1"}},
		{"curl localhost:8001/routes", []string{"http://localhost:8001/routes"}},
		{"http GET :9200/_cat/indices", []string{"http://localhost:9200/_cat/indices"}},
		{"xh https://api.example.com/items name=x", []string{"https://api.example.com/items"}},
		{"ls -la", nil},
		{"git status", nil},
	}
	for _, c := range cases {
		var got []string
		for _, cmd := range splitCommand(c.cmd) {
			for _, w := range s.Classify(cmd).URLs {
				got = append(got, w.Value)
			}
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.cmd, diff)
		}
	}
}

func TestFindingSpans(t *testing.T) {
	s := builtin(t)
	text := "rm -rf ~"
	cmd := splitCommand(text)[0]
	cmd.Span.End = len(text)
	for _, f := range s.Classify(cmd).Findings {
		if f.Rule == "core.fs.rm-recursive-home" {
			if got := text[f.Span.Start:f.Span.End]; got != "~" {
				t.Errorf("span of %s = %q, want the operand", f.Rule, got)
			}
			return
		}
	}
	t.Error("core.fs.rm-recursive-home did not match")
}

var _ = shell.Word{}
