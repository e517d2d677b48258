package paths

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolguard/toolguard/internal/peercorpus"
	"github.com/toolguard/toolguard/risk"
)

// peerRow is one case of a peer corpus (see the corpus README).
type peerRow struct {
	Input   any            `json:"input"`
	Context map[string]any `json:"context"`
	Expect  string         `json:"expect"`
	Source  string         `json:"source"`
}

// peerCase is a row translated into a call of this package.
type peerCase struct {
	cfg    Config
	env    Env
	path   string
	access Access
	want   string // "allow", "ask", "deny", or a canonical path
	canon  bool   // compare Canonicalize's literal form with want
}

// divergences lists every case where this package deliberately disagrees
// with a peer, keyed by peer, input, method or tool, and peer test name,
// with the reason.
var divergences = map[string]string{
	"ai-chat|.aws/credentials|tools/safety.py:check_write_path|test_aws_credentials_triggers":                                            unionDeny,
	"ai-chat|.config/gcloud/creds.json|tools/safety.py:check_write_path|test_config_gcloud_triggers":                                     unionDeny,
	"ai-chat|secrets.json|tools/safety.py:check_write_path|test_custom_sensitive_path":                                                   unionDeny,
	"ai-chat|.env|tools/safety.py:check_write_path|test_dotenv_triggers":                                                                 unionDeny,
	"ai-chat|.env|tools/safety.py:check_write_path|test_verdict_fields":                                                                  unionDeny,
	"ai-chat|../../.ssh/id_rsa|tools/safety.py:check_write_path|test_path_traversal_into_sensitive":                                      unionDeny,
	"ai-chat|/home/user/.ssh/id_rsa|tools/safety.py:check_write_path|test_ssh_dir_triggers":                                              unionDeny,
	"ai-chat||tools/safety.py:check_write_path|test_empty_path":                                                                          emptyPath,
	"ai-chat|.my_secret/key|tools/safety.py:check_write_path|test_tilde_prefix_custom_sensitive":                                         "a \"~/\" pattern is anchored at the home directory; ai-chat also matches its components anywhere, so its \"~/.my_secret\" catches <project>/.my_secret",
	"zeroclaw||is_path_allowed|empty_path_allowed":                                                                                       emptyPath,
	"zeroclaw|.env|is_path_allowed|dotfile_in_workspace_allowed":                                                                         unionDeny,
	"zeroclaw|foo/../etc/passwd|is_path_allowed|path_traversal_double_dot_in_filename":                                                   "\"..\" is collapsed and the result judged; foo/../etc/passwd is <workspace>/etc/passwd, inside the workspace (ZeroClaw refuses any \"..\")",
	"zeroclaw|/root/.bashrc|is_path_allowed|forbidden_paths_blocked":                                                                     "ZeroClaw forbids /root outright; here writing any shell rc file asks (SensitiveWrite), and the kernel refuses a non-root agent anyway",
	"zeroclaw|/root/.bashrc|is_path_allowed|full_autonomy_still_respects_forbidden_paths":                                                "ZeroClaw forbids /root outright; here writing any shell rc file asks (SensitiveWrite), and the kernel refuses a non-root agent anyway",
	"zeroclaw|/etc|is_path_allowed|checklist_all_system_dirs_blocked":                                                                    systemTrees,
	"zeroclaw|/root|is_path_allowed|checklist_all_system_dirs_blocked":                                                                   systemTrees,
	"zeroclaw|/var|is_path_allowed|checklist_all_system_dirs_blocked":                                                                    systemTrees,
	"zeroclaw|/tmp|is_path_allowed|checklist_all_system_dirs_blocked":                                                                    systemTrees,
	"zeroclaw|zeroclaw-data/workspace/scripts/daily.py|resolve_tool_path|resolve_tool_path_normalizes_workspace_prefixed_relative_paths": "a relative path is joined to the cwd as the kernel would; ZeroClaw strips a relative path that repeats the workspace's own path",
}

// Reasons shared by several divergences.
const (
	unionDeny   = "the defaults are the union of the peers' lists: Aar denies this path, so it is denied rather than asked about or allowed"
	emptyPath   = "an empty path is invalid (deny): the caller must say which path a call touches"
	systemTrees = "ZeroClaw forbids the system trees as prefixes; here they are governed by WorkspaceOnly/WriteOutside (this case runs with workspace_only=false, where writes outside are allowed) and reads are allowed"
)

func TestPeerConformance(t *testing.T) {
	peercorpus.Dir(t)
	used, ran := map[string]bool{}, map[string]bool{}
	for _, peer := range []struct {
		name      string
		translate func(peerRow) (peerCase, bool)
	}{{"aar", aarCase}, {"ai-chat", aiChatCase}, {"zeroclaw", zeroClawCase}} {
		t.Run(peer.name, func(t *testing.T) {
			rows := loadPeer(t, peer.name)
			agree, diverge, skipped := 0, 0, 0
			for _, r := range rows {
				c, ok := peer.translate(r)
				if !ok {
					skipped++
					continue
				}
				got := runPeerCase(t, c)
				key := fmt.Sprintf("%s|%s|%s|%s", peer.name, c.path, caseLabel(r), testName(r.Source))
				reason, listed := divergences[key]
				used[key] = true
				switch {
				case got == c.want && listed && reason != "":
					t.Errorf("%s: listed as a divergence but agrees now; remove it", key)
				case got == c.want:
					agree++
				case listed && reason != "":
					diverge++
				default:
					t.Errorf("%s: peer expects %s, got %s (source %s)", key, c.want, got, r.Source)
				}
			}
			t.Logf("%s: %d agree, %d deliberate divergences, %d rows not about this package", peer.name, agree, diverge, skipped)
			ran[peer.name] = true
		})
	}
	for key := range divergences {
		if peer, _, _ := strings.Cut(key, "|"); ran[peer] && !used[key] {
			t.Errorf("%s: listed as a divergence but matches no corpus case; remove it", key)
		}
	}
}

func loadPeer(t *testing.T, name string) []peerRow {
	f, err := os.Open(peercorpus.Path(t, filepath.Join(name, "paths.jsonl")))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []peerRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r peerRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rows = append(rows, r)
	}
	peercorpus.NonEmpty(t, len(rows), name+"/paths.jsonl")
	return rows
}

// testName is the peer test a row comes from: the source's last segment.
func testName(source string) string { return source[strings.LastIndexAny(source, ":")+1:] }

func caseLabel(r peerRow) string {
	if m, ok := r.Context["method"].(string); ok {
		return m
	}
	if tool, ok := r.Context["tool"].(string); ok {
		return tool
	}
	if l, ok := r.Context["layer"].(string); ok {
		return l
	}
	return "canonical"
}

func runPeerCase(t *testing.T, c peerCase) string {
	if c.canon {
		p, err := Canonicalize(c.path, c.env, c.cfg.Home)
		if err != nil {
			return "error: " + err.Error()
		}
		return p.Literal
	}
	ch, err := Compile(c.cfg)
	if err != nil {
		t.Fatalf("Compile for %q: %v", c.path, err)
	}
	return worst(ch.Check(c.path, c.access, c.env)).String()
}

func policyOf(r peerRow) map[string]any {
	p, _ := r.Context["policy"].(map[string]any)
	return p
}

func strings_(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func isVerdict(s string) bool { return s == "allow" || s == "ask" || s == "deny" }

func windowsish(s string) bool { return strings.ContainsAny(s, `\:`) }

// aarCase translates Aar's SafetyPolicy path checks. Rows about read_only
// and approval for writes are mode decisions, not path findings.
func aarCase(r peerRow) (peerCase, bool) {
	in, ok := r.Input.(string)
	pol := policyOf(r)
	if !ok || r.Context["workspace"] != nil || windowsish(in) || pol["read_only"] != nil || pol["require_approval_for_writes"] != nil {
		return peerCase{}, false
	}
	if safety, _ := r.Context["safety"].(map[string]any); safety["read_only"] != nil {
		return peerCase{}, false
	}
	c := peerCase{cfg: DefaultConfig(), env: Env{Cwd: "/home/user/project"}, path: in, want: r.Expect}
	c.cfg.Home = "/home/user"
	if !isVerdict(r.Expect) {
		c.canon = strings.HasPrefix(r.Expect, "/")
		return c, c.canon
	}
	if r.Context["tool"] == "write_file" {
		c.access = Write
	}
	c.cfg.Allowed = strings_(pol["allowed_paths"])
	rules, _ := pol["path_rules"].([]any)
	for _, x := range rules {
		m, _ := x.(map[string]any)
		pattern, _ := m["pattern"].(string)
		c.cfg.Rules = append(c.cfg.Rules, Rule{Pattern: pattern, Read: allowIf(m["allow_read"]), Write: allowIf(m["allow_write"])})
	}
	return c, true
}

func allowIf(v any) risk.Verdict {
	if v == true {
		return risk.Allow
	}
	return risk.Deny
}

// aiChatCase translates ai-chat's validate_path (reads) and check_write_path
// (writes). ai-chat has no workspace confinement, so neither has the
// translated config; tool-level rows are about approval modes.
func aiChatCase(r peerRow) (peerCase, bool) {
	in, ok := r.Input.(string)
	layer, _ := r.Context["layer"].(string)
	if !ok || r.Context["tool"] != nil || strings.HasPrefix(in, "<") || !isVerdict(r.Expect) || layer == "" {
		return peerCase{}, false
	}
	wd, _ := r.Context["working_dir"].(string)
	c := peerCase{cfg: DefaultConfig(), env: Env{Cwd: wd}, path: in, want: r.Expect}
	c.cfg.Home, c.cfg.WorkspaceOnly = "/home/user", false
	if strings.Contains(layer, "check_write_path") {
		c.access = Write
	}
	c.cfg.SensitiveWrite = append(c.cfg.SensitiveWrite, strings_(r.Context["sensitive_paths"])...)
	return c, true
}

// zeroClawPlaceholders stand in for the temporary directories of the tests.
var zeroClawPlaceholders = strings.NewReplacer("<TMP>", "/zc/tmp", "<HOME>", "/zc/home", "<ROOT>", "/zc/root", "<WS>", "/zc/root/ws", "<uuid>", "u1")

// zeroClawCase translates ZeroClaw's SecurityPolicy path methods. Its
// forbidden_paths are not translated: the comparison is against this
// package's defaults.
func zeroClawCase(r peerRow) (peerCase, bool) {
	in, ok := r.Input.(string)
	method, _ := r.Context["method"].(string)
	pol := policyOf(r)
	if !ok || r.Context["fixture"] != nil || r.Context["platform"] == "windows" || windowsish(in) {
		return peerCase{}, false
	}
	ws := "/zc/workspace"
	if w, ok := pol["workspace_dir"].(string); ok {
		ws = zeroClawPlaceholders.Replace(w)
	}
	if windowsish(ws) {
		return peerCase{}, false
	}
	c := peerCase{cfg: DefaultConfig(), env: Env{Cwd: ws}, path: zeroClawPlaceholders.Replace(in), want: r.Expect}
	c.cfg.Home = "/zc/home"
	c.cfg.WorkspaceOnly = pol["workspace_only"] != false && pol["autonomy"] != "full"
	c.cfg.Roots = mapStrings(strings_(pol["allowed_roots"]))
	c.cfg.ReadOnlyRoots = mapStrings(strings_(pol["allowed_roots_read_only"]))
	c.cfg.WriteOnlyRoots = mapStrings(strings_(pol["allowed_roots_write_only"]))
	switch method {
	case "is_path_allowed", "is_resolved_path_allowed":
		c.access = Write
	case "is_resolved_path_readable":
		c.access = Read
	case "resolve_tool_path":
		c.canon, c.want = true, zeroClawPlaceholders.Replace(fmt.Sprint(r.Context["value"]))
		c.cfg.Home = "/zc/home"
		return c, true
	default:
		return peerCase{}, false
	}
	return c, isVerdict(r.Expect)
}

func mapStrings(in []string) []string {
	for i, s := range in {
		in[i] = zeroClawPlaceholders.Replace(s)
	}
	return in
}
