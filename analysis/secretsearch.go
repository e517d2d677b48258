package analysis

import (
	"strings"

	"github.com/toolguard/toolguard/paths"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// secretMarkers are texts whose only use in a search pattern is to find
// secret material: the header of a private key, the name AWS gives a
// secret key in its credentials file.
var secretMarkers = []string{"private key", "private_key", "privatekey", "begin openssh", "aws_secret_access_key",
	"begin pgp private"}

// SecretSearchPattern reports whether a search pattern (a grep or
// ripgrep regular expression, a search tool's pattern) looks for secret
// material by its text: "BEGIN (OPENSSH|RSA) PRIVATE KEY",
// "aws_secret_access_key".
func SecretSearchPattern(p string) bool {
	low := strings.ToLower(p)
	for _, m := range secretMarkers {
		if strings.Contains(low, m) {
			return true
		}
	}
	return false
}

// SecretSearchFinding is the finding for a content search whose pattern
// looks for secret material in a tree outside the project (dir): whatever
// the tree's names, what such a search prints is the secrets it finds, so
// a person decides.
func SecretSearchFinding(pattern, dir string, span risk.Span) risk.Finding {
	return risk.Finding{Rule: "paths.secret-search", Category: risk.CatSecretRead, Tier: risk.Read,
		Blast: risk.BlastHigh, Verdict: risk.Ask, Span: span, Subject: dir,
		Reason: "The search looks for secret material by its text (" + pattern + ") in " + dir +
			", outside the project: what it prints is the secrets it finds.",
		Suggestion: "search the project's own files, or ask the user for what you need"}
}

// searchPrograms are the programs that print the lines of files matching
// a pattern.
var searchPrograms = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true,
	"ugrep": true, "ripgrep": true}

// secretSearch is SecretSearchFinding for a shell search (grep -r, rg)
// whose pattern looks for secret material in a tree outside the project.
func (a *Analysis) secretSearch(cmd *shell.Command, refs []rules.PathRef, dir string) {
	if !searchPrograms[cmd.Name] {
		return
	}
	pattern := ""
	for _, w := range cmd.Args() {
		if w.Known && SecretSearchPattern(w.Value) {
			pattern = w.Value
			break
		}
	}
	if pattern == "" {
		return
	}
	for _, ref := range refs {
		if !ref.Word.Known || ref.Word.Value == pattern {
			continue
		}
		if a.outsideWorkspace(ref.Word.Value, dir) {
			a.add(SecretSearchFinding(pattern, ref.Word.Value, cmd.Span))
			return
		}
	}
}

// SecretSearchTool is secretSearch for a search tool (Claude Code's Grep,
// Gemini CLI's search_file_content): pattern is what it looks for, dirs
// where it looks (the call's directory when none is named).
func (a *Analysis) SecretSearchTool(pattern string, dirs []string) {
	if !SecretSearchPattern(pattern) {
		return
	}
	if len(dirs) == 0 {
		dirs = []string{""}
	}
	for _, d := range dirs {
		if a.outsideWorkspace(cmpOr(d, "."), "") {
			a.add(SecretSearchFinding(pattern, cmpOr(d, a.ctx.Cwd), risk.Span{}))
			return
		}
	}
}

// outsideWorkspace reports whether p (relative to dir) is neither the
// workspace nor below it, or cannot be placed.
func (a *Analysis) outsideWorkspace(p, dir string) bool {
	cp, err := paths.Canonicalize(p, a.PathEnv(dir), a.ctx.Home)
	return err != nil || a.ctx.Workspace == "" || !inTree(cp.Resolved, a.ctx.Workspace)
}

// pageSecrets and pageSenders are what page code reads that holds the
// user's sessions, and how it sends text off the page.
var (
	pageSecrets = []string{"document.cookie", "localstorage", "sessionstorage", "indexeddb"}
	pageSenders = []string{"fetch(", "xmlhttprequest", "sendbeacon", "websocket", ".src=", ".src =", "window.open(",
		"location.href=", "location.href =", "location=", "location ="}
)

// PageCodeSendsSecrets reports whether JavaScript run in a page (a
// browser tool's evaluate) reads the page's cookies or storage and sends
// text off the page: the user's sessions would leave with it.
func PageCodeSendsSecrets(code string) bool {
	low := strings.ToLower(code)
	return containsAny(low, pageSecrets) && containsAny(low, pageSenders)
}
