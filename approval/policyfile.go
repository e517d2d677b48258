package approval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/toolguard/toolguard/state"
)

// grantsFile is the part of a policy file Always reads; every other key is
// ignored here (the policy package validates the whole file).
type grantsFile struct {
	Grants []grantTable `toml:"grants"`
}

type grantTable struct {
	Tool          string    `toml:"tool"`
	Command       string    `toml:"command"`
	CommandPrefix string    `toml:"command_prefix"`
	Paths         []string  `toml:"paths"`
	URLs          []string  `toml:"urls"`
	Digest        string    `toml:"digest"`
	Added         time.Time `toml:"added"`
}

// Always returns the [[grants]] of the user policy file. A missing file
// has none; a file that is not valid TOML is an error (the policy loader
// reports it in detail). A YAML or JSON policy file gives none here: the
// policy loader applies its grants itself. The grants of a file unchanged
// since they were last parsed are not parsed again (see alwaysCache: a
// stat tells).
func (s *GrantStore) Always(ctx context.Context) ([]Grant, error) {
	file := s.policyFile()
	if file == "" || !isTOML(file) {
		return nil, nil
	}
	stamp, stamped, missing := statStamp(file)
	if missing {
		return nil, nil
	}
	if stamped {
		if g, ok := s.always.get(file, stamp); ok {
			return g, nil
		}
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	g, err := parseGrants(file, data)
	if err == nil && stamped {
		s.always.put(file, stamp, g, s.clock())
	}
	return g, err
}

func parseGrants(path string, data []byte) ([]Grant, error) {
	var f grantsFile
	if err := toml.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("read grants from %s: %w", path, err)
	}
	out := make([]Grant, 0, len(f.Grants))
	for _, t := range f.Grants {
		out = append(out, Grant{Tool: t.Tool, Command: strings.TrimSpace(t.Command), CommandPrefix: strings.TrimSuffix(t.CommandPrefix, ":*"),
			Paths: t.Paths, URLs: t.URLs, Digest: t.Digest, Scope: Always, Created: t.Added})
	}
	return out, nil
}

// AddAlways appends g to the user policy file as a [[grants]] table with
// tool, command_prefix and added. The file's existing bytes, comments
// included, are kept exactly; the previous version is saved as
// policy.toml.bak; the new version replaces the file atomically, and only
// after it has been checked to parse. An equal grant already in the file
// is not added again. The file is created (0600) when missing.
func (s *GrantStore) AddAlways(ctx context.Context, g Grant) error {
	file := s.policyFile()
	if file == "" {
		return errors.New("always grants are disabled: no user policy file is configured")
	}
	if _, err := validGrant(g, g.Pattern()); err != nil {
		return err
	}
	if !isTOML(file) {
		return fmt.Errorf("cannot record the grant %s: %s is not a TOML file; add it under grants: yourself (tool: %q, command_prefix: %q)",
			g.Pattern(), file, g.Tool, g.CommandPrefix)
	}
	lock, err := state.LockFile(ctx, file)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	return appendGrant(file, g)
}

func appendGrant(file string, g Grant) error {
	old, perm, err := readWithPerm(file)
	if err != nil {
		return err
	}
	existing, err := parseGrants(file, old)
	if err != nil {
		return fmt.Errorf("not adding the grant %s: %w", g.Pattern(), err)
	}
	for _, e := range existing {
		if e.Pattern() == g.Pattern() && e.Digest == g.Digest {
			return nil
		}
	}
	updated := append(bytes.Clone(old), grantTOML(old, g)...)
	if _, err := parseGrants(file, updated); err != nil {
		return fmt.Errorf("not adding the grant %s: the file would not parse (does it set grants another way?): %w", g.Pattern(), err)
	}
	if len(old) > 0 {
		if err := state.WriteFile(file+".bak", old, perm); err != nil {
			return fmt.Errorf("back up %s: %w", file, err)
		}
	}
	return state.WriteFile(file, updated, perm)
}

func readWithPerm(path string) ([]byte, os.FileMode, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o600, nil
	}
	if err != nil {
		return nil, 0, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, 0, err
	}
	return data, fi.Mode().Perm(), nil
}

func isTOML(path string) bool { return strings.EqualFold(filepath.Ext(path), ".toml") }

// grantTOML renders the table appended after old.
func grantTOML(old []byte, g Grant) []byte {
	var b bytes.Buffer
	if len(old) > 0 && old[len(old)-1] != '\n' {
		b.WriteByte('\n')
	}
	if len(old) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("# Added by toolguard when you answered \"always\".\n[[grants]]\n")
	fmt.Fprintf(&b, "tool = %s\n", tomlString(g.Tool))
	switch {
	case g.Command != "":
		fmt.Fprintf(&b, "command = %s\n", tomlString(g.Command))
	case g.CommandPrefix != "":
		fmt.Fprintf(&b, "command_prefix = %s\n", tomlString(g.CommandPrefix))
	case len(g.Paths)+len(g.URLs) > 0:
		if len(g.Paths) > 0 {
			fmt.Fprintf(&b, "paths = %s\n", tomlStrings(g.Paths))
		}
		if len(g.URLs) > 0 {
			fmt.Fprintf(&b, "urls = %s\n", tomlStrings(g.URLs))
		}
	case g.Digest != "":
		fmt.Fprintf(&b, "digest = %s\n", tomlString(g.Digest))
	}
	created := g.Created
	if created.IsZero() {
		created = time.Now()
	}
	fmt.Fprintf(&b, "added = %s\n", created.UTC().Format(time.RFC3339))
	return b.Bytes()
}

// tomlStrings renders a TOML array of basic strings.
func tomlStrings(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = tomlString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
