package risk

// Category names the kind of harm a finding is about, such as "fs-delete" or
// "secret-read". Categories are open-ended strings; the constants below are
// the ones the built-in checks use.
type Category string

// Categories used by the built-in checks and rule packs.
const (
	CatNone            Category = ""
	CatFSDelete        Category = "fs-delete"
	CatFSWrite         Category = "fs-write"
	CatFSPermissions   Category = "fs-permissions"
	CatVCSHistory      Category = "vcs-history"
	CatVCSDiscard      Category = "vcs-discard"
	CatVCSConfig       Category = "vcs-config"
	CatRemoteCode      Category = "remote-code"
	CatReverseShell    Category = "reverse-shell"
	CatSecretRead      Category = "secret-read"
	CatExfiltration    Category = "exfiltration"
	CatDBDrop          Category = "db-drop"
	CatDBWrite         Category = "db-write"
	CatClusterDelete   Category = "cluster-delete"
	CatCloudDelete     Category = "cloud-delete"
	CatPrivilege       Category = "privilege"
	CatSystemPower     Category = "system-power"
	CatSystemConfig    Category = "system-config"
	CatDisk            Category = "disk"
	CatProcessKill     Category = "process-kill"
	CatPackagePublish  Category = "package-publish"
	CatPackageInstall  Category = "package-install"
	CatContainer       Category = "container"
	CatInfra           Category = "infrastructure"
	CatNetwork         Category = "network"
	CatSSRF            Category = "ssrf"
	CatPath            Category = "path"
	CatSelfProtection  Category = "self-protection"
	CatToolGate        Category = "tool-gate"
	CatUnverifiable    Category = "unverifiable"
	CatInput           Category = "invalid-input"
	CatBudget          Category = "budget"
	CatSubAgent        Category = "sub-agent"
	CatDenialOfService Category = "denial-of-service"
	CatHistory         Category = "history"
)

// Span is a half-open byte range [Start, End) in the text a finding is about
// (usually the shell command). The zero Span means "no position".
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// IsZero reports whether s carries no position.
func (s Span) IsZero() bool { return s.Start == 0 && s.End == 0 }

// Finding is one thing a check noticed about a call.
//
// Verdict is the least verdict the finding forces whatever the mode: Allow
// leaves the outcome to the mode table applied to Tier, Ask demands at least a
// human, Deny blocks. A finding with Blast == BlastCritical is treated as Deny
// by the policy in every mode.
type Finding struct {
	// Rule is the id of the rule or check, e.g. "core.fs.rm-recursive-root",
	// "paths.denied" or "user:no-prod".
	Rule string `json:"rule"`
	// Category is the kind of harm; empty for purely informational findings.
	Category Category `json:"category,omitempty"`
	// Tier is the effect of what matched.
	Tier Tier `json:"tier"`
	// Blast is the damage if it goes wrong.
	Blast Blast `json:"blast_radius"`
	// Verdict is the floor this finding puts on the decision (see above);
	// in JSON "floor", so that a finding's field does not read as the
	// decision.
	Verdict Verdict `json:"floor"`
	// Reason is one sentence a person understands.
	Reason string `json:"reason"`
	// Suggestion says what would be allowed instead; empty when there is none.
	Suggestion string `json:"suggestion,omitempty"`
	// Span locates the match in the command text; zero when not applicable.
	Span Span `json:"span"`
	// Subject is what was judged: the path, URL or simple command text.
	Subject string `json:"subject,omitempty"`
	// Unverifiable marks a finding about something that could not be known
	// statically. An unverifiable call is never allowed.
	Unverifiable bool `json:"unverifiable,omitempty"`
}
