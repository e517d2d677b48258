package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/toolguard/toolguard/guard"
	"github.com/toolguard/toolguard/policy"
)

// compiled keeps compiled policies across the calls of the relay daemon,
// the one long-lived engine that loads a policy per call. It is nil in
// every other process, where a policy is loaded once.
var compiled *policyCache

// policyCache maps what a policy load reads — the flags, and the identity
// of every file the load would open or look for — to the compiled policy.
// The daemon's environment and directory are fixed, so a load with the
// same key compiles the same policy; an edited, created, replaced or
// removed policy file changes the key.
//
// It also keeps one guard per cached policy: a guard holds nothing in
// memory that a call could change (grants, budgets and sub-agent totals
// live in state files, under file locks), and keeping it keeps its audit
// log open instead of opening the log and its lock on every call.
type policyCache struct {
	mu     sync.Mutex
	m      map[string]*policy.Policy
	guards map[*policy.Policy]*guard.Guard
}

// maxCachedPolicies bounds the cache; when full it starts over.
const maxCachedPolicies = 16

func newPolicyCache() *policyCache {
	return &policyCache{m: map[string]*policy.Policy{}, guards: map[*policy.Policy]*guard.Guard{}}
}

// guard returns the guard kept with p, building it on first use; nil when
// p is not in the cache or the guard cannot be built (the caller then
// builds one of its own, as a fresh engine would).
func (c *policyCache) guard(p *policy.Policy) *guard.Guard {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g, ok := c.guards[p]; ok {
		return g
	}
	if !c.holds(p) {
		return nil
	}
	g, err := guard.Standard(p, guard.WithLogger(eventLogger()))
	if err != nil {
		return nil
	}
	c.guards[p] = g
	return g
}

func (c *policyCache) holds(p *policy.Policy) bool {
	for _, q := range c.m {
		if q == p {
			return true
		}
	}
	return false
}

// reset empties the cache. The guards' audit logs are closed; a call still
// using one reopens it (audit.Writer allows that), so nothing is lost.
func (c *policyCache) reset() {
	for _, g := range c.guards {
		_ = g.Close()
	}
	clear(c.m)
	clear(c.guards)
}

// load returns the cached policy for key or builds and keeps it. Failed
// loads are not kept: they are reported afresh.
func (c *policyCache) load(key string, build func() (*policy.Policy, error)) (*policy.Policy, error) {
	c.mu.Lock()
	p, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := build()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.m) >= maxCachedPolicies {
		c.reset()
	}
	c.m[key] = p
	c.mu.Unlock()
	return p, nil
}

// cacheKey names a load by f's flags, the project directory and the
// identity of every policy file the load would read or look for. The
// flags are written in Go syntax, strings quoted: with %+v the list flag
// ["/a /b"] printed as ["/a", "/b"] does, and the two shared a policy.
func (f *policyFlags) cacheKey(projectDir string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%#v\x00%s", *f, projectDir)
	if f.config != "" {
		b.WriteString("\x00" + f.config + "=" + fileIdentity(f.config))
	}
	if !f.noUser {
		writeIdentities(&b, policy.UserFileCandidates())
	}
	if projectDir != "" {
		writeIdentities(&b, projectCandidates(projectDir))
	}
	return b.String()
}

// writeIdentities writes the identity of each file, skipping the files of
// a directory that does not exist (the directory's own "-" stands for
// them: creating it changes the key).
func writeIdentities(b *strings.Builder, files []string) {
	missing := map[string]bool{}
	for _, file := range files {
		dir := filepath.Dir(file)
		if _, seen := missing[dir]; !seen {
			_, err := os.Stat(dir)
			missing[dir] = err != nil
			if err != nil {
				b.WriteString("\x00" + dir + "=-")
			}
		}
		if !missing[dir] {
			b.WriteString("\x00" + file + "=" + fileIdentity(file))
		}
	}
}

func projectCandidates(dir string) []string {
	var files []string
	for _, name := range policy.ProjectFiles() {
		files = append(files, filepath.Join(dir, name))
	}
	return files
}

// fileIdentity is "-" for a missing file, else its device, inode, size,
// modification and change times and, for a regular file, a hash of its
// content. The times alone are not enough: where the kernel keeps coarse
// timestamps (Linux before 6.13, most network and FAT file systems), an
// edit that keeps the size, made within the same clock tick as the last
// load, leaves every field of stat as it was.
func fileIdentity(path string) string {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return "-"
	}
	id := fmt.Sprintf("%d:%d:%d:%d.%d:%d.%d", st.Dev, st.Ino, st.Size, st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return id // reading a FIFO or a device may block; the load reads it under its own time limit
	}
	return id + ":" + contentHash(path)
}

// contentHash is the SHA-256 of the file's content in hex, or "?" when
// it cannot be read (the load then fails and nothing is cached).
func contentHash(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "?"
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
