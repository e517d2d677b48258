package install

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Codex runs a hook from hooks.json only once a person has trusted it: it
// keeps, per hook entry, the hash of the entry's definition in config.toml
// ([hooks.state."FILE:EVENT:GROUP:HANDLER"] trusted_hash = "sha256:…"), and
// any change to the entry makes it untrusted again. The codex program
// itself reports each hook's current hash and trust status through its
// app-server (method hooks/list), so toolguard asks it rather than
// re-deriving Codex's hash.

// CodexHook is one hook entry as Codex lists it.
type CodexHook struct {
	// Key is Codex's key of the entry: FILE:EVENT:GROUP:HANDLER.
	Key string `json:"key"`
	// Command is the hook command.
	Command string `json:"command"`
	// CurrentHash is the hash Codex trusts the entry under.
	CurrentHash string `json:"currentHash"`
	// TrustStatus is trusted, untrusted, modified or managed.
	TrustStatus string `json:"trustStatus"`
	// Enabled is false when the person disabled the entry.
	Enabled bool `json:"enabled"`
}

// Runs reports whether Codex runs the entry.
func (h CodexHook) Runs() bool {
	return h.Enabled && (h.TrustStatus == "trusted" || h.TrustStatus == "managed")
}

// ErrNoCodex is returned when no codex program can be found.
var ErrNoCodex = errors.New("the codex program is not on PATH")

// CodexHooks asks the codex program which of toolguard's hooks it would
// run in dir, with CODEX_HOME as given (empty: Codex's default). It runs
// `codex app-server` for the duration of one hooks/list request.
func CodexHooks(ctx context.Context, codexHome, dir string) ([]CodexHook, error) {
	exe, err := exec.LookPath("codex")
	if err != nil {
		return nil, ErrNoCodex
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "app-server")
	cmd.Dir = dir
	cmd.Env = os.Environ()
	if codexHome != "" {
		cmd.Env = append(cmd.Env, "CODEX_HOME="+codexHome)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting codex app-server: %w", err)
	}
	defer func() { _ = stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	// stdin stays open until the reply is read: the app-server ends at EOF.
	if _, err := io.WriteString(stdin, appServerRequests(dir)); err != nil {
		return nil, fmt.Errorf("writing to codex app-server: %w", err)
	}
	hooks, err := readHooksList(stdout)
	if err != nil {
		return nil, fmt.Errorf("codex app-server hooks/list: %w", err)
	}
	var ours []CodexHook
	for _, h := range hooks {
		if isOurs(h.Command) {
			ours = append(ours, h)
		}
	}
	return ours, nil
}

// appServerRequests is the JSON-RPC conversation: initialize, then list the
// hooks for dir.
func appServerRequests(dir string) string {
	lines := []any{
		map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize",
			"params": map[string]any{"clientInfo": map[string]any{"name": "toolguard", "version": "1"}}},
		map[string]any{"jsonrpc": "2.0", "method": "initialized"},
		map[string]any{"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": map[string]any{"cwd": dir}},
	}
	var b strings.Builder
	for _, l := range lines {
		j, _ := json.Marshal(l)
		b.Write(j)
		b.WriteByte('\n')
	}
	return b.String()
}

// readHooksList reads JSON lines until the reply to request 2.
func readHooksList(r io.Reader) ([]CodexHook, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	for sc.Scan() {
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID == nil || *msg.ID != 2 {
			continue
		}
		if msg.Error != nil {
			return nil, errors.New(msg.Error.Message)
		}
		var res struct {
			Data []struct {
				Hooks []CodexHook `json:"hooks"`
			} `json:"data"`
		}
		if err := json.Unmarshal(msg.Result, &res); err != nil {
			return nil, err
		}
		var out []CodexHook
		for _, d := range res.Data {
			out = append(out, d.Hooks...)
		}
		return out, nil
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, errors.New("no reply")
}

// CodexConfigFile is Codex's config.toml under codexHome (empty:
// $CODEX_HOME, else ~/.codex).
func CodexConfigFile(home, codexHome string) string {
	if codexHome == "" {
		codexHome = os.Getenv("CODEX_HOME")
	}
	if codexHome == "" {
		codexHome = filepath.Join(home, ".codex")
	}
	return filepath.Join(codexHome, "config.toml")
}

// TrustCodexHooks records each hook's current hash as trusted in Codex's
// config.toml, as Codex's own /hooks review does when a person trusts them.
// It replaces an older trusted_hash of the same entry and keeps the rest of
// the file byte for byte.
func TrustCodexHooks(configFile string, hooks []CodexHook) error {
	old, err := os.ReadFile(configFile)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	text := string(old)
	for _, h := range hooks {
		text = setTrustedHash(text, h.Key, h.CurrentHash)
	}
	if text == string(old) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(configFile), 0o700); err != nil {
		return err
	}
	return writeAtomic(configFile, []byte(text), 0o600)
}

// setTrustedHash sets trusted_hash in the [hooks.state."KEY"] table of a
// TOML text, adding the table at the end when it is absent.
func setTrustedHash(text, key, hash string) string {
	header := "[hooks.state." + strconv.Quote(key) + "]"
	line := "trusted_hash = " + strconv.Quote(hash)
	i := strings.Index(text, header)
	if i < 0 {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		return text + "\n" + header + "\n" + line + "\n"
	}
	body := i + len(header)
	end := len(text)
	if j := nextTableRE().FindStringIndex(text[body:]); j != nil {
		end = body + j[0]
	}
	table := text[body:end]
	if loc := trustedHashRE().FindStringIndex(table); loc != nil {
		table = table[:loc[0]] + line + table[loc[1]:]
	} else {
		table = "\n" + line + table
	}
	return text[:body] + table + text[end:]
}

// UntrustCodexHooks removes from Codex's config.toml the trust records of
// hooks, so that uninstall leaves no trust behind for entries that are
// gone: a [hooks.state."KEY"] table whose trusted_hash is the hook's current
// hash loses that line, and the whole table goes when nothing else is in
// it. The rest of the file is kept byte for byte; a file left with nothing
// but whitespace is removed (Codex reads a missing config.toml as an empty
// one), and so is the directory toolguard's records alone kept in being.
func UntrustCodexHooks(configFile, root string, hooks []CodexHook) error {
	old, err := os.ReadFile(configFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	text := string(old)
	for _, h := range hooks {
		text = removeTrustedHash(text, h.Key, h.CurrentHash)
	}
	switch {
	case text == string(old):
		return nil
	case strings.TrimSpace(text) == "":
		if err := os.Remove(configFile); err != nil {
			return err
		}
		return removeEmptyDirs(filepath.Dir(configFile), root)
	}
	return writeAtomic(configFile, []byte(text), fileMode(configFile))
}

// removeTrustedHash removes trusted_hash = HASH from the [hooks.state."KEY"]
// table of a TOML text, and the table itself (with the blank line
// setTrustedHash put before it) when that was all it held.
func removeTrustedHash(text, key, hash string) string {
	header := "[hooks.state." + strconv.Quote(key) + "]"
	i := strings.Index(text, header)
	if i < 0 {
		return text
	}
	body := i + len(header)
	end := len(text)
	if j := nextTableRE().FindStringIndex(text[body:]); j != nil {
		end = body + j[0]
	}
	table := text[body:end]
	loc := trustedHashRE().FindStringIndex(table)
	if loc == nil || strings.TrimSpace(table[loc[0]:loc[1]]) != "trusted_hash = "+strconv.Quote(hash) {
		return text
	}
	table = table[:loc[0]] + strings.TrimPrefix(table[loc[1]:], "\n")
	if strings.TrimSpace(table) != "" {
		return text[:body] + table + text[end:]
	}
	before := text[:i]
	if strings.HasSuffix(before, "\n\n") || before == "\n" {
		before = before[:len(before)-1]
	}
	return before + text[end:]
}

var (
	nextTableRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^[ \t]*\[`) })
	trustedHashRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^[ \t]*trusted_hash[ \t]*=.*$`) })
)
