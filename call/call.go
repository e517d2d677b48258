package call

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolguard/toolguard/risk"
)

// Kind is the kind of a tool. The zero value is the empty string, which is
// not valid; [Table.Normalize] always sets a kind.
type Kind string

// The tool kinds.
const (
	Shell  Kind = "shell"  // runs a shell command
	Read   Kind = "read"   // reads files or directories
	Write  Kind = "write"  // creates, edits or deletes files
	Fetch  Kind = "fetch"  // fetches a URL
	Search Kind = "search" // searches (the web or files) without side effects
	MCP    Kind = "mcp"    // a tool of an MCP server
	Agent  Kind = "agent"  // starts a sub-agent
	Other  Kind = "other"  // anything else
)

// Kinds lists every valid kind.
func Kinds() []Kind { return []Kind{Shell, Read, Write, Fetch, Search, MCP, Agent, Other} }

// ParseKind parses a kind name.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds() {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown kind %q (valid: %s)", s, kindList())
}

func kindList() string {
	var names []string
	for _, k := range Kinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

// DefaultTier is the tier a kind has when nothing more specific is known.
func (k Kind) DefaultTier() risk.Tier {
	switch k {
	case Read, Search:
		return risk.Read
	case Fetch:
		// A request to a URL the model chose sends data out (the URL
		// itself) and brings untrusted content in: not a read of the
		// machine, so it is the execute tier, asked in supervised mode as
		// the agents themselves ask before web fetches.
		return risk.Execute
	case Write:
		return risk.Write
	default:
		return risk.Execute
	}
}

// Who describes who is asking.
type Who struct {
	// Agent is the agent's name ("claude-code", "codex", or a custom name);
	// empty when unknown.
	Agent string `json:"agent,omitempty"`
	// Session is the agent's session id; empty when unknown.
	Session string `json:"session,omitempty"`
	// Sender identifies the principal for budgets (a user, a channel); empty
	// means the agent's own identity.
	Sender string `json:"sender,omitempty"`
	// Depth is the sub-agent depth; 0 is the top-level agent.
	Depth int `json:"depth,omitempty"`
	// Started is when the session's first call reached toolguard, as the
	// guard recorded it (budget.SessionStarts); the zero time means
	// unknown, and then nothing on disk counts as made by the session. It
	// never comes from a request: a caller could claim an earlier start.
	Started time.Time `json:"-"`
}

// Call is one tool call, normalised.
type Call struct {
	// Kind is the kind of tool.
	Kind Kind `json:"kind"`
	// Tool is the original tool name as the agent sent it.
	Tool string `json:"tool"`
	// Input holds the raw arguments as decoded from JSON.
	Input map[string]any `json:"input,omitempty"`
	// Command is the shell command text for Kind == Shell (and for other
	// tools whose mapping names a command argument); empty otherwise.
	Command string `json:"command,omitempty"`
	// Paths are the file paths the call touches, as given (not canonical).
	Paths []string `json:"paths,omitempty"`
	// URLs are the URLs the call fetches.
	URLs []string `json:"urls,omitempty"`
	// StatPaths are paths whose names and metadata only the call reads.
	StatPaths []string `json:"stat_paths,omitempty"`
	// SQL are statements the call runs against a database.
	SQL []string `json:"sql,omitempty"`
	// Remote are the files, with their content, the call writes into a
	// repository elsewhere (a forge's create_or_update_file, push_files):
	// code a CI service or a clone may run. Nil: none.
	Remote []RemoteFile `json:"remote,omitempty"`
	// Tier, when set (TierSet), overrides the kind's default tier.
	Tier    risk.Tier `json:"-"`
	TierSet bool      `json:"-"`
	// Discards is true when the arguments make the tool destroy work
	// that is not saved anywhere (git_reset with mode "hard"): the
	// destructive tier, whatever the tool's kind. False: they do not.
	Discards bool `json:"discards,omitempty"`
	// Sends is true when the tool sends its arguments off this machine as
	// they are (a web search's query). False: it does not, or its URLs say
	// where it goes.
	Sends bool `json:"sends,omitempty"`
	// Cwd is the working directory of the call; empty means the workspace.
	Cwd string `json:"cwd,omitempty"`
	// Workspace is the project root; empty means Cwd.
	Workspace string `json:"workspace,omitempty"`
	// MCPServer and MCPTool are set for MCP tools.
	MCPServer string `json:"mcp_server,omitempty"`
	MCPTool   string `json:"mcp_tool,omitempty"`
	// ReadOnlyHint is true when the tool declared itself read-only (MCP
	// annotations, docker-agent tool_read_only).
	ReadOnlyHint bool `json:"read_only_hint,omitempty"`
	// Containable is true when the caller can run the call inside
	// toolguard's sandbox instead (an agent whose hook can rewrite the
	// call's command): the policy's [sandbox] wrap then marks the decision
	// Contained. False means the call runs as it came.
	Containable bool `json:"containable,omitempty"`
	// Who is asking.
	Who Who `json:"who"`
}

// RemoteFile is a file a call writes into a remote repository.
type RemoteFile struct {
	// Repo names the repository as the call does (owner/name, a project
	// id); empty when it does not.
	Repo string `json:"repo,omitempty"`
	// Path is the file's path in the repository, from its root.
	Path string `json:"path"`
	// Text is the file's whole new content.
	Text string `json:"text"`
}

// BaseTier is the tier of the call before its arguments are judged: the
// mapping's tier when set, else the kind's default.
func (c *Call) BaseTier() risk.Tier {
	if c.TierSet {
		return c.Tier
	}
	return c.Kind.DefaultTier()
}

// Dir is the directory relative paths of the call are resolved against.
func (c *Call) Dir() string {
	if c.Cwd != "" {
		return c.Cwd
	}
	return c.Workspace
}

// Root is the workspace of the call.
func (c *Call) Root() string {
	if c.Workspace != "" {
		return c.Workspace
	}
	return c.Cwd
}

// ArgsDigest is "sha256:" and the hex SHA-256 of c's arguments encoded as
// JSON (object keys sorted), identifying one exact call of a tool; empty
// when the arguments cannot be encoded.
func ArgsDigest(c Call) string {
	b, err := json.Marshal(c.Input) // encoding/json sorts map keys
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
