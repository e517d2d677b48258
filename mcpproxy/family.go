package mcpproxy

import "github.com/toolguard/toolguard/call"

// Family names a group of MCP servers whose tool names and argument keys
// toolguard knows (call.Family). The zero value is FamilyAuto.
type Family = call.Family

// The families (see call.Family).
const (
	FamilyAuto             = call.FamilyAuto
	FamilyFilesystem       = call.FamilyFilesystem
	FamilyFetch            = call.FamilyFetch
	FamilyGit              = call.FamilyGit
	FamilyGitHub           = call.FamilyGitHub
	FamilyMemory           = call.FamilyMemory
	FamilyTime             = call.FamilyTime
	FamilySQL              = call.FamilySQL
	FamilyBrowser          = call.FamilyBrowser
	FamilyDesktopCommander = call.FamilyDesktopCommander
	FamilyGeneric          = call.FamilyGeneric
	FamilyNone             = call.FamilyNone
)

// Families lists the valid family names (FamilyAuto as "auto").
func Families() []string { return call.Families() }

// ParseFamily parses a family name; "auto" and "" mean FamilyAuto.
func ParseFamily(s string) (Family, error) { return call.ParseFamily(s) }

// DetectFamily picks the family of a server command line (call.DetectFamily).
func DetectFamily(argv []string) Family { return call.DetectFamily(argv) }
