package analysis

import (
	"path"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestImportedRefs: the project modules code imports, by language, as the
// files that may hold each, in the order the language looks for them.
func TestImportedRefs(t *testing.T) {
	alts := func(a ...string) importRef { return importRef{alts: a} }
	for _, tc := range []struct {
		lang, code string
		want       []importRef
	}{
		{"python", "import wipe", []importRef{alts("wipe.py", "wipe/__init__.py")}},
		{"python", "import os, a.b as c", []importRef{alts("os.py", "os/__init__.py"),
			alts("a/__init__.py"), alts("a/b.py", "a/b/__init__.py")}},
		{"python", "x = 1; import wipe", []importRef{alts("wipe.py", "wipe/__init__.py")}},
		{"python", "from app.models import User, db", []importRef{alts("app/__init__.py"), alts("app/models.py", "app/models/__init__.py"),
			alts("app/models/User.py", "app/models/User/__init__.py"), alts("app/models/db.py", "app/models/db/__init__.py")}},
		{"python", "from . import util", []importRef{alts("util.py", "util/__init__.py")}},
		{"python", "from ..core import run", []importRef{alts("../core.py", "../core/__init__.py"),
			alts("../core/run.py", "../core/run/__init__.py")}},
		{"python", "from x import *", []importRef{alts("x.py", "x/__init__.py")}},
		{"python", `__import__("wipe"); importlib.import_module('a.b'); runpy.run_module("m")`, []importRef{
			alts("wipe.py", "wipe/__init__.py"), alts("a/__init__.py"), alts("a/b.py", "a/b/__init__.py"), alts("m.py", "m/__init__.py")}},
		{"python", `runpy.run_path("tools/x.py"); exec(open('y.py').read())`, []importRef{alts("tools/x.py"), alts("y.py")}},
		{"python", "import 9lives, a..b", nil},
		{"python", "print('import nothing')", nil},
		{"node", `const w = require('./wipe'); import x from "../lib/x.js"; import("./d/")`, []importRef{
			alts("./wipe.js", "./wipe.cjs", "./wipe.mjs", "./wipe.ts", "./wipe/index.js", "./wipe/index.cjs", "./wipe/index.mjs", "./wipe/index.ts"),
			alts("../lib/x.js", "../lib/x.js.js", "../lib/x.js.cjs", "../lib/x.js.mjs", "../lib/x.js.ts", "../lib/x.js/index.js", "../lib/x.js/index.cjs", "../lib/x.js/index.mjs", "../lib/x.js/index.ts"),
			alts("./d.js", "./d.cjs", "./d.mjs", "./d.ts", "./d/index.js", "./d/index.cjs", "./d/index.mjs", "./d/index.ts")}},
		{"node", `require('express'); import fs from 'node:fs'`, nil},
		{"node", `import './side-effect.mjs'`, []importRef{alts("./side-effect.mjs", "./side-effect.mjs.js", "./side-effect.mjs.cjs",
			"./side-effect.mjs.mjs", "./side-effect.mjs.ts", "./side-effect.mjs/index.js", "./side-effect.mjs/index.cjs", "./side-effect.mjs/index.mjs", "./side-effect.mjs/index.ts")}},
		{"perl", `do "./x.pl"; require 'lib/y.pl'; require Foo::Bar;`, []importRef{alts("./x.pl"), alts("lib/y.pl")}},
		{"ruby", `require_relative 'lib/w'; load "task.rb"; require "./x"; require "json"`, []importRef{
			alts("./lib/w", "./lib/w.rb"), alts("task.rb"), alts("./x", "./x.rb")}},
		{"lua", `dofile("x.lua")`, nil},
	} {
		if diff := cmp.Diff(tc.want, importedRefs(tc.lang, tc.code), cmp.AllowUnexported(importRef{})); diff != "" {
			t.Errorf("importedRefs(%s, %q) (-want +got):\n%s", tc.lang, tc.code, diff)
		}
	}
}

// TestImportLang: the language whose imports are read, by interpreter or
// #! program.
func TestImportLang(t *testing.T) {
	for name, want := range map[string]string{"python3": "python", "/usr/bin/python3.12": "python", "pypy3": "python",
		"node": "node", "nodejs": "node", "bun": "node", "deno": "node", "tsx": "node", "perl": "perl", "ruby": "ruby",
		"php": "", "bash": "", "": ""} {
		if got := importLang(name); got != want {
			t.Errorf("importLang(%q) = %q, want %q", name, got, want)
		}
	}
}

// FuzzImportedRefs: reading imports never panics and names only files
// (no empty alternative).
func FuzzImportedRefs(f *testing.F) {
	for _, s := range []string{"import a.b, c as d", "from ..x import (y, z)", `require("./a/")`, `do "x"; require_relative 'y'`,
		"from . import *", `import("./")`, "x = __import__('a.b')\nrunpy.run_path('t.py')", "exec( open('s.py').read())",
		"  from x import y; import z", `import m from '../m.js'`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		if diff := cmp.Diff(pythonRefsUnfiltered(code), pythonRefs(code), cmp.AllowUnexported(importRef{})); diff != "" {
			t.Errorf("pythonRefs(%q) differs from the patterns without their literal pre-checks (-want +got):\n%s", code, diff)
		}
		if diff := cmp.Diff(nodeRefsUnfiltered(code), nodeRefs(code), cmp.AllowUnexported(importRef{})); diff != "" {
			t.Errorf("nodeRefs(%q) differs from the pattern without its literal pre-check (-want +got):\n%s", code, diff)
		}
		for _, lang := range []string{"python", "node", "perl", "ruby"} {
			for _, r := range importedRefs(lang, code) {
				for _, a := range r.alts {
					if a == "" {
						t.Fatalf("importedRefs(%s, %q): an empty file in %v", lang, code, r.alts)
					}
				}
			}
		}
	})
}

// pythonRefsUnfiltered and nodeRefsUnfiltered are pythonRefs and nodeRefs
// as they were before their literal pre-checks: every pattern run on all
// the text. FuzzImportedRefs holds the two to the same answers.
func pythonRefsUnfiltered(code string) []importRef {
	re := importPatterns()
	var out []importRef
	for _, line := range strings.FieldsFunc(code, func(r rune) bool { return r == '\n' || r == ';' }) {
		line = strings.TrimSpace(line)
		if m := re.pyImportLine.FindStringSubmatch(line); m != nil {
			for _, item := range strings.Split(m[1], ",") {
				name, _, _ := strings.Cut(strings.TrimSpace(item), " ")
				out = append(out, pyModuleRefs(name)...)
			}
		} else if m := re.pyFromLine.FindStringSubmatch(line); m != nil {
			out = append(out, pyFromRefs(m[1], m[2])...)
		}
	}
	for _, m := range re.pyByName.FindAllStringSubmatch(code, -1) {
		out = append(out, pyModuleRefs(m[1])...)
	}
	for _, m := range re.pyByPath.FindAllStringSubmatch(code, -1) {
		out = append(out, importRef{alts: []string{m[1]}})
	}
	return out
}

func nodeRefsUnfiltered(code string) []importRef {
	var out []importRef
	for _, m := range importPatterns().jsRelative.FindAllStringSubmatch(code, -1) {
		spec := strings.TrimSuffix(m[1], "/")
		var alts []string
		if path.Ext(spec) != "" {
			alts = append(alts, spec)
		}
		for _, ext := range []string{".js", ".cjs", ".mjs", ".ts", "/index.js", "/index.cjs", "/index.mjs", "/index.ts"} {
			alts = append(alts, spec+ext)
		}
		out = append(out, importRef{alts: alts})
	}
	return out
}
