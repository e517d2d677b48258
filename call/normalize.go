package call

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// MaxInputBytes bounds the size of any single string argument that
// Normalize will accept (a file's whole content, for a write); larger
// inputs are refused with a reason that names the argument and the limit.
const MaxInputBytes = 8 << 20

// ErrInvalid is wrapped by every error Normalize returns for malformed input.
var ErrInvalid = errors.New("invalid tool call")

// Request is what an agent asked for before normalisation.
type Request struct {
	Tool      string
	Input     map[string]any
	Cwd       string
	Workspace string
	Who       Who
}

// Normalize builds a Call from a request using the table. Unknown tools get
// kind Other (or MCP for MCP-style names) at the execute tier, and their
// arguments are searched for the usual path, URL and command keys so that
// nothing they touch escapes the path and URL checks.
func (t *Table) Normalize(r Request) (Call, error) {
	c := Call{Tool: r.Tool, Input: r.Input, Cwd: r.Cwd, Workspace: r.Workspace, Who: r.Who}
	if strings.TrimSpace(r.Tool) == "" {
		return c, fmt.Errorf("%w: empty tool name", ErrInvalid)
	}
	if strings.IndexByte(r.Tool, 0) >= 0 || len(r.Tool) > 1024 {
		return c, fmt.Errorf("%w: the tool name has a NUL byte or is over 1024 bytes", ErrInvalid)
	}
	m, ok := t.Lookup(r.Tool)
	var command []string // the keys whose string is a shell command, which may hold a NUL
	if ok && m.Kind == Shell {
		command = m.CommandArgs
	}
	if err := checkStrings(r.Input, command); err != nil {
		return c, err
	}
	if server, tool, isMCP := ParseMCPName(r.Tool); isMCP {
		c.MCPServer, c.MCPTool = server, tool
		if !ok && t.mcpFamilies {
			m, ok = MCPMapping(server, tool)
		}
		if !ok {
			m = sniffMapping(MCP)
		}
	} else if !ok {
		m = sniffMapping(Other)
	}
	return apply(c, m, t.programs)
}

func apply(c Call, m Mapping, programs func(string) bool) (Call, error) {
	c.Kind = m.Kind
	if c.Kind == "" {
		c.Kind = Other
	}
	c.Tier, c.TierSet = m.Tier, m.TierSet
	if cwd := firstString(c.Input, m.CwdArgs); cwd != "" {
		c.Cwd = joinCwd(c.Cwd, cwd)
	}
	c.Command = firstString(c.Input, m.CommandArgs)
	if m.Program != nil {
		if line, ok := programCommand(c.Input, m.Program); ok {
			c.Kind, c.Command = Shell, line
		} else { // an argument the line does not know: judged as an unknown tool
			kind := Other
			if c.MCPServer != "" {
				kind = MCP
			}
			m = sniffMapping(kind)
			c.Kind, c.Tier, c.TierSet = kind, m.Tier, m.TierSet
		}
	}
	if m.Code {
		if !m.Sniff {
			programs = nil // a known tool's other arguments are what its mapping says
		}
		pieces, err := codeIn(c.Input, programs)
		if err != nil {
			return c, err
		}
		if len(pieces) > 0 {
			c.Command = codeCommand(pieces)
		}
	}
	if exports := envExports(c.Input, m.EnvArgs); exports != "" && c.Command != "" {
		c.Command = exports + c.Command
	}
	c.Paths = append(c.Paths, stringValues(c.Input, m.PathArgs)...)
	c.Paths = append(c.Paths, patchPaths(c.Input, m.PatchArgs)...)
	c.URLs = append(c.URLs, stringValues(c.Input, m.URLArgs)...)
	c.URLs = append(c.URLs, urlsInText(c.Input, m.URLsInText)...)
	c.StatPaths = append(c.StatPaths, stringValues(c.Input, m.StatArgs)...)
	c.SQL = append(c.SQL, stringValues(c.Input, m.SQLArgs)...)
	if m.RemoteFiles {
		c.Remote = remoteFiles(c.Input)
	}
	if m.Sniff {
		sniffValues(&c, c.Input, 0)
	}
	c.URLs, c.Paths = fileURLs(c.URLs, c.Paths)
	if anyTrue(c.Input, m.DryRunArgs) && !m.TierSet {
		c.Kind = Read // a preview of the change: the files are only read
	}
	c.Discards = anyValue(c.Input, m.DiscardArgs) // git_reset {mode: hard}: uncommitted work is lost
	c.Sends = m.Sends
	if c.Kind == Shell && c.Command == "" {
		return c, fmt.Errorf("%w: %s call without a command (looked for %s)", ErrInvalid, c.Tool, join(m.CommandArgs))
	}
	return c, nil
}

// envExports is one export line per environment variable the keys'
// objects hold, sorted by name (a value that is not a string is written as
// its JSON text, as a program would receive it); "" for none.
func envExports(in map[string]any, keys []string) string {
	var b strings.Builder
	for _, k := range keys {
		env, ok := in[k].(map[string]any)
		if !ok {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(env)) {
			v, ok := env[name].(string)
			if !ok {
				j, _ := json.Marshal(env[name])
				v = string(j)
			}
			if validName(name) {
				b.WriteString("export " + name + "=" + quoteWord(v) + "\n")
			} else { // no shell can set it, a program can still be given it
				b.WriteString("export " + quoteWord(name+"="+v) + "\n")
			}
		}
	}
	return b.String()
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// anyValue reports whether one of the keys holds one of its values (a
// string, compared without case).
func anyValue(input map[string]any, values map[string][]string) bool {
	for k, vs := range values {
		s, ok := input[k].(string)
		if !ok {
			continue
		}
		for _, v := range vs {
			if strings.EqualFold(s, v) {
				return true
			}
		}
	}
	return false
}

// anyTrue reports whether one of the keys holds the boolean true.
func anyTrue(input map[string]any, keys []string) bool {
	for _, k := range keys {
		if b, ok := input[k].(bool); ok && b {
			return true
		}
	}
	return false
}

func join(keys []string) string {
	if len(keys) == 0 {
		return "no argument"
	}
	return "`" + strings.Join(keys, "`, `") + "`"
}

// sniff keys used for tools the table does not know.
var (
	sniffCommand = []string{"command", "cmd", "script"}
	sniffPaths   = []string{"path", "paths", "file_path", "filePath", "file", "filename", "files", "notebook_path", "absolute_path", "directory", "dir", "dir_path", "source", "destination", "target", "src", "dst", "old_path", "new_path"}
	sniffURLs    = []string{"url", "urls", "uri", "href", "endpoint"}
)

func sniffMapping(k Kind) Mapping {
	return Mapping{Kind: k, CommandArgs: sniffCommand, PathArgs: sniffPaths, URLArgs: sniffURLs, Sniff: true, Code: true,
		RemoteFiles: true}
}

// The keys of Mapping.RemoteFiles.
var (
	remotePathKeys = []string{"path", "file_path", "filePath", "filepath"}
	remoteRepoKeys = []string{"project_id", "repository", "repo_name"}
)

// remoteFiles are the files a tool that writes into a remote repository
// writes: a path key beside a content string at the top level, and in
// each object of a files list.
func remoteFiles(in map[string]any) []RemoteFile {
	repo := firstString(in, remoteRepoKeys)
	if owner, name := firstString(in, []string{"owner"}), firstString(in, []string{"repo"}); name != "" {
		repo = strings.Trim(owner+"/"+name, "/")
	}
	var out []RemoteFile
	add := func(m map[string]any) {
		text, ok := m["content"].(string)
		if p := firstString(m, remotePathKeys); ok && p != "" {
			out = append(out, RemoteFile{Repo: repo, Path: p, Text: text})
		}
	}
	add(in)
	if files, ok := in["files"].([]any); ok {
		for _, f := range files {
			if m, ok := f.(map[string]any); ok {
				add(m)
			}
		}
	}
	return out
}

// sniffValues judges every string argument of a tool the table does not
// know by what it holds: http(s) and file URLs anywhere in its text, and
// the whole value when it is an absolute or home path.
func sniffValues(c *Call, v any, depth int) {
	if depth > 16 {
		return
	}
	switch v := v.(type) {
	case string:
		for _, u := range urlInText().FindAllString(v, 8) {
			if !slices.Contains(c.URLs, u) {
				c.URLs = append(c.URLs, u)
			}
		}
		if host, ok := bindSource(v); ok {
			if !slices.Contains(c.Paths, host) {
				c.Paths = append(c.Paths, host) // /home/dev/project:/src: the container reaches the host's directory
			}
			return
		}
		if looksLikePath(v) && !slices.Contains(c.Paths, v) {
			c.Paths = append(c.Paths, v)
		}
	case []any:
		for _, e := range v {
			sniffValues(c, e, depth+1)
		}
	case map[string]any:
		_, container := v["image"]
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if container && slices.Contains(containerPathKeys, k) {
				continue // a directory inside the container, not on this machine
			}
			sniffValues(c, v[k], depth+1)
		}
	}
}

// containerPathKeys name, beside an image, a path inside the container.
var containerPathKeys = []string{"workdir", "working_dir", "workingDir", "WorkingDir", "work_dir"}

// bindSource returns the host side of a bind mount written HOST:CONTAINER
// (with an optional :ro/:rw/… suffix), both absolute or home paths.
func bindSource(v string) (string, bool) {
	host, rest, ok := strings.Cut(v, ":")
	if !ok || !(strings.HasPrefix(host, "/") || strings.HasPrefix(host, "~/")) || !strings.HasPrefix(rest, "/") {
		return "", false
	}
	return host, true
}

// looksLikePath reports a value that is a single absolute or home path.
func looksLikePath(v string) bool {
	if len(v) < 2 || len(v) > 4096 || strings.ContainsAny(v, "\n\x00") {
		return false
	}
	return (v[0] == '/' || strings.HasPrefix(v, "~/")) && !strings.Contains(v, " ") || strings.HasPrefix(v, "file://")
}

// fileURLs moves file:// URLs to the paths: a tool that opens one reads
// the file.
func fileURLs(urls, paths []string) ([]string, []string) {
	out := urls[:0:0]
	for _, u := range urls {
		if rest, ok := strings.CutPrefix(u, "file://"); ok {
			if p, err := url.PathUnescape(rest); err == nil {
				rest = p
			}
			if !strings.HasPrefix(rest, "/") { // file://host/path
				if i := strings.IndexByte(rest, '/'); i >= 0 {
					rest = rest[i:]
				}
			}
			paths = append(paths, rest)
			continue
		}
		out = append(out, u)
	}
	for i, p := range paths {
		if rest, ok := strings.CutPrefix(p, "file://"); ok {
			paths[i] = rest
		}
	}
	return out, paths
}

func firstString(in map[string]any, keys []string) string {
	for _, k := range keys {
		if s, ok := in[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// stringValues collects string values and string list values under keys.
func stringValues(in map[string]any, keys []string) []string {
	var out []string
	for _, k := range keys {
		switch v := in[k].(type) {
		case string:
			if v != "" {
				out = append(out, v)
			}
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok && s != "" {
					out = append(out, s)
				}
			}
		case []string:
			out = append(out, v...)
		}
	}
	return out
}

// patchFileLine and urlInText are compiled on first use: most processes
// never see an apply_patch call or a URL in free text.
var patchFileLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$`)
})

// patchPaths extracts the files an apply_patch style patch writes.
func patchPaths(in map[string]any, keys []string) []string {
	var out []string
	for _, text := range stringValues(in, keys) {
		out = append(out, PatchPaths(text)...)
	}
	return out
}

// PatchPaths returns the files an apply_patch patch (Codex's format:
// "*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:")
// writes, creates, deletes or moves to, in order.
func PatchPaths(text string) []string {
	var out []string
	for _, m := range patchFileLine().FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// PatchFile is what an apply_patch patch writes into one file: the lines
// it adds (a new file's whole text, an update's added lines).
type PatchFile struct {
	Path, Added string
}

// PatchAdded returns, for each file an apply_patch patch adds or updates,
// in order, the lines it adds, without their leading "+".
func PatchAdded(text string) []PatchFile {
	var out []PatchFile
	var cur *PatchFile
	var b strings.Builder
	flush := func() {
		if cur != nil {
			cur.Added = b.String()
			out = append(out, *cur)
		}
		cur = nil
		b.Reset()
	}
	for line := range strings.SplitSeq(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "*** "); ok {
			flush()
			for _, verb := range []string{"Add File: ", "Update File: ", "Move to: "} {
				if p, ok := strings.CutPrefix(rest, verb); ok {
					cur = &PatchFile{Path: strings.TrimSpace(p)}
				}
			}
			continue
		}
		if added, ok := strings.CutPrefix(line, "+"); ok && cur != nil {
			b.WriteString(added)
			b.WriteByte('\n')
		}
	}
	flush()
	return out
}

var urlInText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`https?://[^\s"'<>]+`) })

func urlsInText(in map[string]any, keys []string) []string {
	var out []string
	for _, text := range stringValues(in, keys) {
		out = append(out, urlInText().FindAllString(text, -1)...)
	}
	return out
}

func joinCwd(base, dir string) string {
	if strings.HasPrefix(dir, "/") || base == "" {
		return dir
	}
	if dir == "." || dir == "./" {
		return base
	}
	return strings.TrimSuffix(base, "/") + "/" + dir
}

// checkStrings rejects NUL bytes and oversize strings anywhere in the
// input, naming the argument, except a NUL in the shell command a shell
// tool's top-level keys in command name: what a NUL makes a shell run is
// judged by the shell analysis (every reading of it), not refused as
// malformed. A NUL in any other argument (a path, a URL, a tool's code)
// is refused: no system call takes one.
func checkStrings(input map[string]any, command []string) error {
	for _, k := range command {
		if s, ok := input[k].(string); ok && len(s) > MaxInputBytes {
			return fmt.Errorf("%w: input.%s is %d bytes; toolguard judges arguments of at most %d MiB, so the call is refused (write the file in parts)",
				ErrInvalid, k, len(s), MaxInputBytes>>20)
		}
	}
	return checkFields("input", input, command, 0)
}

// checkFields is checkValue of a map, leaving out the shell command's
// keys, checked by the caller.
func checkFields(where string, input map[string]any, skip []string, depth int) error {
	for k, e := range input {
		if err := checkValue(where+" key", k, depth+1); err != nil {
			return err
		}
		if _, isString := e.(string); isString && slices.Contains(skip, k) {
			continue
		}
		if err := checkValue(where+"."+k, e, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func checkValue(where string, v any, depth int) error {
	if depth > 64 {
		return fmt.Errorf("%w: arguments nested deeper than 64 levels", ErrInvalid)
	}
	switch x := v.(type) {
	case string:
		if strings.IndexByte(x, 0) >= 0 {
			return fmt.Errorf("%w: %s contains a NUL byte", ErrInvalid, where)
		}
		if len(x) > MaxInputBytes {
			return fmt.Errorf("%w: %s is %d bytes; toolguard judges arguments of at most %d MiB, so the call is refused (write the file in parts)",
				ErrInvalid, where, len(x), MaxInputBytes>>20)
		}
	case map[string]any:
		for k, e := range x {
			if err := checkValue(where+" key", k, depth+1); err != nil {
				return err
			}
			if err := checkValue(where+"."+k, e, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range x {
			if err := checkValue(fmt.Sprintf("%s[%d]", where, i), e, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// ParseMCPName recognises MCP tool names: "mcp__server__tool" (Claude Code,
// Codex; plugin servers "mcp__plugin_p_server__tool"), "mcp_server_tool"
// (Gemini CLI), "mcp:server:tool" (docker-agent) and "MCP:tool" (Cursor).
func ParseMCPName(name string) (server, tool string, ok bool) {
	switch {
	case strings.HasPrefix(name, "mcp__"):
		rest := name[len("mcp__"):]
		if i := strings.Index(rest, "__"); i > 0 {
			return rest[:i], rest[i+2:], true
		}
		return rest, "", true
	case strings.HasPrefix(name, "mcp:"), strings.HasPrefix(name, "MCP:"):
		rest := name[4:]
		if i := strings.IndexByte(rest, ':'); i >= 0 {
			return rest[:i], rest[i+1:], true
		}
		return "", rest, true
	case strings.HasPrefix(name, "mcp_"):
		rest := name[len("mcp_"):]
		if i := strings.IndexByte(rest, '_'); i > 0 {
			return rest[:i], rest[i+1:], true
		}
		return rest, "", true
	}
	return "", "", false
}

// programCommand builds the shell command a tool that runs a program runs
// (Mapping.Program); ok is false when an argument is not one the line
// knows, or holds a value that is not a string, a whole number or, for a
// boolean argument, a boolean.
func programCommand(input map[string]any, p *ProgramLine) (string, bool) {
	for k := range input {
		if !slices.ContainsFunc(p.Args, func(a ProgramArg) bool { return a.Key == k }) {
			return "", false
		}
	}
	words := slices.Clone(p.Argv)
	for _, a := range p.Args {
		v, present := input[a.Key]
		if !present || v == nil {
			if a.Default == "" {
				continue
			}
			v = a.Default
		}
		var val string
		switch x := v.(type) {
		case bool:
			if !a.Bool {
				return "", false
			}
			if x {
				words = append(words, a.Option)
			}
			continue
		case string:
			val = x
		case float64:
			if x != float64(int64(x)) {
				return "", false
			}
			val = strconv.FormatInt(int64(x), 10)
		default:
			return "", false
		}
		if a.Bool {
			return "", false
		}
		if a.Option == "" {
			if val == "" {
				continue
			}
			words = append(words, val)
			continue
		}
		words = append(words, a.Option+"="+val)
	}
	return quoteWords(words), true
}
