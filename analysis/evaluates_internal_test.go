package analysis

import "testing"

// TestEvaluates: json.load, require('https') and import('fs') are data
// parsed and plain modules loaded; eval, exec, vm, pickle.load, a module
// named by an expression or a file, and any other eval marker evaluate.
func TestEvaluates(t *testing.T) {
	for _, tc := range []struct {
		code string
		want bool
	}{
		{`import json, urllib.request; print(json.load(urllib.request.urlopen('https://pypi.org/pypi/x/json')))`, false},
		{`require('https').get('https://registry.npmjs.org/react', r => r.pipe(process.stdout))`, false},
		{`const h = require("node:https"); h.get("https://x.example/")`, false},
		{`require( 'axios' ).get('https://x.example/')`, false},
		{`import tomllib; tomllib.load(open('p.toml', 'rb'))`, false},
		{`import('fs').then(fs => fs.readFileSync('a'))`, false},
		{`print('no markers at all')`, false},
		// evaluates
		{`require('https').get(u, r => { let d = ''; r.on('data', c => d += c); r.on('end', () => eval(d)) })`, true},
		{`require('https').get(u, r => r.on('end', () => require('vm').runInThisContext(d)))`, true},
		{`const m = require('module'); new m()._compile(d, 'x')`, true},
		{`require(name)`, true},
		{`require('./downloaded.js')`, true},
		{"require(`${dir}/x.js`)", true},
		{`require('https'); require('/tmp/p.js')`, true},
		{`import pickle; pickle.load(f)`, true},
		{`import yaml; yaml.load(d)`, true},
		{`load(d)()`, true},
		{`exec(urlopen(u).read())`, true},
		{`import('https://x.example/m.mjs')`, true},
		{`require('https'`, true}, // not closed: not proven plain
	} {
		h := codeMarkers().scan(tc.code)
		if got := evaluates(tc.code, &h); got != tc.want {
			t.Errorf("evaluates(%q) = %v, want %v", tc.code, got, tc.want)
		}
	}
}

// TestImportsURL: a module imported or required by its URL is code
// fetched and run; a URL printed or fetched as data is not.
func TestImportsURL(t *testing.T) {
	for _, tc := range []struct {
		code string
		want bool
	}{
		{`import('https://x.example/m.mjs')`, true},
		{`import x from "http://x.example/m.mjs"; x()`, true},
		{"import( `https://x.example/m.mjs` )", true},
		{`require('https://x.example/m.js')`, true},
		{`console.log('see https://nodejs.org')`, false},
		{`print('from https://pypi.org')`, false},
		{`fetch('https://registry.npmjs.org/react')`, false},
		{`import json; print(json.load(urlopen('https://pypi.org/pypi/x/json')))`, false},
	} {
		if got := importsURL(tc.code); got != tc.want {
			t.Errorf("importsURL(%q) = %v, want %v", tc.code, got, tc.want)
		}
	}
}

// FuzzEvaluates: any text is read without a panic, and evaluates only ever
// narrows the eval markers: no text evaluates without one of them.
func FuzzEvaluates(f *testing.F) {
	for _, s := range []string{`require('https')`, `json.load(x)`, `import("fs")`, `require("`, `load(`, `import('https://x')`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		h := codeMarkers().scan(code)
		if evaluates(code, &h) && !h.has(mEval) {
			t.Fatalf("evaluates(%q) without an eval marker", code)
		}
		_ = importsURL(code)
	})
}
