package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/toolguard/toolguard/hook"
)

// isOurs reports whether a hook command runs toolguard's hook command,
// whatever path the binary was installed under.
func isOurs(command string) bool {
	if isURL(command) {
		return strings.Contains(command, "/v1/hooks/")
	}
	f := strings.Fields(command)
	for i := 0; i+1 < len(f); i++ {
		name := strings.Trim(f[i], `"'`)
		base := strings.TrimSuffix(name[strings.LastIndexAny(name, `/\`)+1:], ".exe")
		if base == "toolguard" && f[i+1] == "hook" {
			return true
		}
	}
	return false
}

// hookCommand is the command line an agent runs: the program quoted for a
// POSIX shell when it needs it, then "hook AGENT".
func hookCommand(program, agent string) string {
	if strings.ContainsAny(program, " \t'\"\\$`") {
		program = "'" + strings.ReplaceAll(program, "'", `'\''`) + "'"
	}
	return program + " hook " + agent
}

// forwardCommand is the command line of a hook that forwards every call to
// a running toolguard serve at server: "hook AGENT --server URL", with
// "--token-file FILE" when the token is in a file.
func forwardCommand(program, agent, server, tokenFile string) string {
	c := hookCommand(program, agent) + " --server " + shellWord(server)
	if tokenFile != "" {
		c += " --token-file " + shellWord(tokenFile)
	}
	return c
}

// shellWord quotes s for a POSIX shell unless it is made only of
// characters no shell treats specially.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CheckServerURL checks the base URL of a running toolguard serve that a
// hook forwards to (or Claude Code's HTTP hook posts to): an http or https
// URL with a host and no credentials, query or fragment; a path is kept
// (a server behind a reverse proxy).
func CheckServerURL(raw string) error {
	const want = "want the http:// or https:// address of a running toolguard serve, e.g. http://127.0.0.1:7878"
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return fmt.Errorf("the server URL is empty; %s", want)
	case !isURL(strings.ToLower(raw)):
		return fmt.Errorf("the server URL %q is not http or https; %s", raw, want)
	case err != nil:
		return fmt.Errorf("the server URL %q cannot be parsed (%v); %s", raw, err, want)
	case u.Host == "" || u.Hostname() == "":
		return fmt.Errorf("the server URL %q names no host; %s", raw, want)
	case u.User != nil:
		return fmt.Errorf("the server URL %q carries credentials; give the token with --token-file or $%s instead", raw, hook.ServerTokenEnv)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#"):
		return fmt.Errorf("the server URL %q has a query or fragment; %s", raw, want)
	}
	return nil
}

// handlerCommand returns the command of a hook handler object, or the URL
// of an http handler.
func handlerCommand(raw json.RawMessage) string {
	o, err := parseObject(raw)
	if err != nil {
		return ""
	}
	if c := o.stringField("command"); c != "" {
		return c
	}
	if c := o.stringField("bash"); c != "" { // Copilot CLI
		return c
	}
	return o.stringField("url")
}

// isURL reports whether a registered hook is an HTTP endpoint (a running
// toolguard serve) rather than a command.
func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// HookURL is the endpoint of `toolguard serve` that answers an agent's
// HTTP hook.
func HookURL(server, agent string) string {
	return strings.TrimSuffix(server, "/") + "/v1/hooks/" + agent
}

// ensureFlat puts want into a list of handlers (Cursor): it replaces
// toolguard's existing handler or appends one.
func ensureFlat(handlers []json.RawMessage, want json.RawMessage) []json.RawMessage {
	for i, h := range handlers {
		if isOurs(handlerCommand(h)) {
			handlers[i] = want
			return handlers
		}
	}
	return append(handlers, want)
}

// removeFlat drops toolguard's handlers from a list.
func removeFlat(handlers []json.RawMessage) []json.RawMessage {
	var kept []json.RawMessage
	for _, h := range handlers {
		if !isOurs(handlerCommand(h)) {
			kept = append(kept, h)
		}
	}
	return kept
}

// ensureGrouped puts want into matcher groups (Claude Code, Codex, Gemini
// CLI): toolguard's handler is replaced where it is, else a new group with
// matcher is appended.
func ensureGrouped(groups []json.RawMessage, matcher string, want json.RawMessage) []json.RawMessage {
	for i, g := range groups {
		o, handlers, err := group(g, i)
		if err != nil {
			continue // not ours to judge; kept as it is
		}
		for j, h := range handlers {
			if isOurs(handlerCommand(h)) {
				handlers[j] = want
				o.setArray("hooks", handlers)
				groups[i] = o.raw()
				return groups
			}
		}
	}
	g := newObject()
	g.set("matcher", jsonString(matcher))
	g.setArray("hooks", []json.RawMessage{want})
	return append(groups, g.raw())
}

// removeGrouped drops toolguard's handlers, and groups left empty by that.
func removeGrouped(groups []json.RawMessage) []json.RawMessage {
	var kept []json.RawMessage
	for i, g := range groups {
		o, handlers, err := group(g, i)
		if err != nil {
			kept = append(kept, g) // not ours to judge; kept as it is
			continue
		}
		rest := removeFlat(handlers)
		switch {
		case len(rest) == len(handlers):
			kept = append(kept, g)
		case len(rest) > 0:
			o.setArray("hooks", rest)
			kept = append(kept, o.raw())
		}
	}
	return kept
}

func group(raw json.RawMessage, i int) (*object, []json.RawMessage, error) {
	o, err := parseObject(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("matcher group %d is not an object", i)
	}
	handlers, err := o.childArray("hooks")
	if err != nil {
		return nil, nil, fmt.Errorf("matcher group %d: %v", i, err)
	}
	return o, handlers, nil
}

// groupedHas reports whether toolguard's handler is in the groups.
func groupedHas(groups []json.RawMessage) (string, bool) {
	for i, g := range groups {
		if _, handlers, err := group(g, i); err == nil {
			if c, ok := flatHas(handlers); ok {
				return c, true
			}
		}
	}
	return "", false
}

func flatHas(handlers []json.RawMessage) (string, bool) {
	for _, h := range handlers {
		if c := handlerCommand(h); isOurs(c) {
			return c, true
		}
	}
	return "", false
}

// rawJSON builds a compact JSON value from a Go value made of strings,
// numbers, booleans and ordered pairs.
func rawJSON(pairs ...any) json.RawMessage {
	o := newObject()
	for i := 0; i+1 < len(pairs); i += 2 {
		o.set(pairs[i].(string), jsonValue(pairs[i+1]))
	}
	return o.raw()
}

// jsonValue encodes a string (without HTML escaping), number or boolean.
func jsonValue(v any) json.RawMessage {
	if s, ok := v.(string); ok {
		return jsonString(s)
	}
	b, _ := json.Marshal(v) // ints and bools always encode
	return bytes.TrimSpace(b)
}
