package policy

import (
	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
)

// searchPatternKeys are the argument keys of search tools that hold what
// they look for (Claude Code's Grep and Gemini CLI's search_file_content
// call it pattern).
var searchPatternKeys = []string{"pattern", "regex", "query"}

// secretSearch asks about a search tool whose pattern looks for secret
// material (a private key's header) in a tree outside the project: the
// search tool prints what it finds, and a grep of the home directory for
// "PRIVATE KEY" is a harvest whatever the tree's names say (ripgrep skips
// ~/.ssh, not a key kept elsewhere). The shell's grep and rg are judged
// the same way by the analysis.
func (e *evaluation) secretSearch() {
	if e.c.Kind != call.Search {
		return
	}
	for _, k := range searchPatternKeys {
		if s, ok := e.c.Input[k].(string); ok {
			e.an.SecretSearchTool(s, e.c.Paths)
			return
		}
	}
}

// browserCodeKeys are the arguments of browser automation tools
// (puppeteer_evaluate, browser_evaluate, execute_script) that hold the
// JavaScript run in the page.
var browserCodeKeys = []string{"script", "function", "expression", "code", "js"}

// browserSecrets denies page code, given to a browser tool, that reads
// the page's cookies or storage and sends text off the page: the user's
// sessions leave for wherever it sends them (a prompt injection's usual
// ask). Code that only reads or only fetches is judged as the tool is.
func (e *evaluation) browserSecrets() {
	if e.c.Kind != call.MCP && e.c.Kind != call.Other {
		return
	}
	for _, k := range browserCodeKeys {
		if code, ok := e.c.Input[k].(string); ok && analysis.PageCodeSendsSecrets(code) {
			e.add(analysis.Critical("effects.page-secrets-sent", risk.CatExfiltration, risk.Span{}, e.c.Tool,
				"The page code given to "+e.c.Tool+" reads the page's cookies or storage and sends text off the page: the user's sessions would leave with it.",
				"read what you need from the page and return it to the conversation, without sending it anywhere"))
			return
		}
	}
}
