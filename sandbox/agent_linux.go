//go:build linux

package sandbox

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// Bounds of the search for secrets in the Agent profile.
const (
	// SecretDepth is how many directory levels below each searched root
	// (the home directories, the workspace's parent) are searched.
	SecretDepth = 3
	// SecretBudget is how many directory entries are looked at in all.
	SecretBudget = 6000
)

// skippedNames are directories the search does not enter wherever they
// are: version-control data, installed dependencies, interpreters and
// build outputs, which hold code from elsewhere, not the user's secrets.
var skippedNames = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "node_modules": true, "__pycache__": true,
	".venv": true, "venv": true, ".tox": true, ".mypy_cache": true, ".pytest_cache": true,
	".ruff_cache": true, ".next": true, ".terraform": true, ".pyenv": true, ".nvm": true,
	".rustup": true, ".sdkman": true, ".volta": true, ".vscode-server": true, ".cursor-server": true,
}

// agentPlan builds the Agent profile's ruleset: everything readable but
// the holes (secrets found by the search, Hidden, the system's secret
// files, and /dev but for its usual devices), and the workspace, the
// temporary directories and the toolchains' stores writable.
func (j *job) agentPlan() landlockPlan {
	home := realOr(lookupEnv(j.env, "HOME"))
	writable := append([]string{j.workspace}, j.agentWritable(home)...)
	p := planner{secret: j.spec.Secret, skip: map[string]bool{}}
	for _, w := range writable {
		p.skip[w] = true
	}
	for _, h := range j.spec.Hidden {
		if real := realOr(h); real != "" {
			p.addHole(real)
		}
	}
	for _, s := range secretSystemPaths() {
		if readable(s) { // for anyone but root, the system keeps them unreadable already
			p.addHole(s)
		}
	}
	p.searchCached(searchRoots(home, j.workspace), j.spec.SearchCache, j.spec.SearchKey)
	p.addHole("/dev") // only the usual devices below
	p.emit("/", true)
	for _, w := range writable {
		p.emitWritable(w, true)
	}
	return landlockPlan{
		MinABI:          abiFilesystem,
		ReadTrees:       p.read,
		ReadFiles:       p.readFiles,
		ListDirs:        p.list,
		WriteTrees:      p.write,
		WriteFiles:      p.writeFiles,
		Devices:         existing(agentDevices),
		Sockets:         j.agentSockets(),
		RestrictNetwork: !j.spec.AllowNetwork,
		SignalOutside:   true,
	}
}

// agentDevices are the device files the Agent profile may open, besides
// /dev/shm (a temporary directory) and the pseudo-terminals.
var agentDevices = append(slices.Clone(deviceFiles), "/dev/ptmx", "/dev/pts", "/dev/shm")

// agentWritable lists the real paths of the existing temporary
// directories and toolchain stores, besides the workspace.
func (j *job) agentWritable(home string) []string {
	var out []string
	add := func(p string) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || real == "/" || real == home || strings.HasPrefix(home, real+"/") {
			return // missing, or so wide it would open the home directory
		}
		if info, err := os.Stat(real); err == nil && info.IsDir() && !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	for _, p := range []string{"/tmp", "/var/tmp", "/dev/shm", lookupEnv(j.env, "TMPDIR")} {
		add(p)
	}
	for _, st := range toolchainStores(j.env, home) {
		if st.program != "" && st.path != "" {
			createStore(st, lookupEnv(j.env, "PATH"), j.dir)
		}
		add(st.path)
	}
	for _, p := range j.spec.ReadWrite {
		add(p)
	}
	return out
}

// store is where a toolchain keeps its caches or downloads.
type store struct {
	path string
	// program creates path on first use; the profile makes it (mode 0700)
	// when it is missing and the program is installed, as the program
	// would have. "" means an existing path only.
	program string
}

// toolchainStores are where the common toolchains keep their caches,
// downloaded packages and installed toolchains, from their variables or
// their defaults.
func toolchainStores(env []string, home string) []store {
	at := func(name, def string) string {
		if v := lookupEnv(env, name); v != "" {
			return v
		}
		if def == "" || home == "" {
			return ""
		}
		return filepath.Join(home, def)
	}
	gopath, _, _ := strings.Cut(at("GOPATH", "go"), ":")
	gomodcache := lookupEnv(env, "GOMODCACHE")
	if gomodcache == "" && gopath != "" {
		gomodcache = filepath.Join(gopath, "pkg", "mod")
	}
	cargo := at("CARGO_HOME", ".cargo")
	out := []store{
		{at("XDG_CACHE_HOME", ".cache"), "sh"}, // go-build, pip, uv, yarn, pnpm, node-gyp…
		{lookupEnv(env, "GOCACHE"), ""}, {gomodcache, "go"},
		{at("npm_config_cache", ".npm"), "npm"}, {at("PNPM_HOME", ".local/share/pnpm"), ""}, {at("", ".pnpm-store"), ""},
		{at("", ".yarn"), ""}, {at("", ".local/share/uv"), ""}, {at("", ".local/lib"), ""}, {at("PIP_CACHE_DIR", ""), ""},
		{at("UV_CACHE_DIR", ""), ""}, {at("RUSTUP_HOME", ".rustup"), ""}, {at("GRADLE_USER_HOME", ".gradle"), "gradle"},
		{at("", ".m2/repository"), "mvn"}, {at("", ".bun/install/cache"), ""}, {at("", ".nuget/packages"), ""},
	}
	if cargo != "" {
		out = append(out, store{filepath.Join(cargo, "registry"), "cargo"}, store{filepath.Join(cargo, "git"), ""})
	}
	return out
}

// createStore makes a missing store of an installed program, below the
// home directory only.
func createStore(st store, path, dir string) {
	if _, err := os.Lstat(st.path); err == nil || !filepath.IsAbs(st.path) {
		return
	}
	if _, err := lookPath(st.program, path, dir); err == nil {
		os.MkdirAll(st.path, 0o700)
	}
}

// agentSockets are the UNIX sockets the Agent profile lets the command
// use outside its writable directories (where every socket can be used,
// git's credential cache among them): the ssh-agent's, so that git can
// push over ssh without the key files, and the session bus, through which
// git's credential helpers reach the keyring.
func (j *job) agentSockets() []string {
	var out []string
	var candidates []string
	if p := lookupEnv(j.env, "SSH_AUTH_SOCK"); filepath.IsAbs(p) {
		candidates = append(candidates, p)
	}
	if rt := lookupEnv(j.env, "XDG_RUNTIME_DIR"); filepath.IsAbs(rt) {
		candidates = append(candidates, filepath.Join(rt, "bus"))
	}
	for _, c := range candidates {
		if real := realOr(c); real != "" {
			out = append(out, real)
		}
	}
	return out
}

// searchRoots are the directories searched for secrets: every home
// directory on the machine (root may read them all) and the workspace's
// parent, where sibling projects keep their .env files.
func searchRoots(home, workspace string) []string {
	roots := []string{home, "/root"}
	if entries, err := os.ReadDir("/home"); err == nil {
		for _, e := range entries {
			roots = append(roots, filepath.Join("/home", e.Name()))
		}
	}
	roots = append(roots, filepath.Dir(workspace))
	var out []string
	for _, r := range roots {
		if real := realOr(r); real != "" && real != "/" && !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out
}

// realOr is p with its symbolic links resolved, or "" when that fails.
func realOr(p string) string {
	if p == "" {
		return ""
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	return real
}

// planner splits the read-only grant of the filesystem around holes.
type planner struct {
	secret     func(string) bool
	skip       map[string]bool // granted otherwise (writable): not searched
	holes      []string        // sorted real paths left unreadable
	read       []string        // directories granted read-only, whole
	readFiles  []string        // files granted read-only
	write      []string        // directories granted read-write, whole
	writeFiles []string        // files granted read-write
	list       []string        // directories granted only their names (they hold holes)
}

func (p *planner) addHole(path string) {
	i, found := slices.BinarySearch(p.holes, path)
	if !found {
		p.holes = slices.Insert(p.holes, i, path)
	}
}

// isHole reports whether path is a hole or below one.
func (p *planner) isHole(path string) bool {
	for q := path; ; q = parentOf(q) {
		if _, found := slices.BinarySearch(p.holes, q); found {
			return true
		}
		if q == "/" || q == "." {
			return false
		}
	}
}

// holeBelow reports whether a hole lies strictly below dir.
func (p *planner) holeBelow(dir string) bool {
	prefix := dir + "/"
	if dir == "/" {
		prefix = "/"
	}
	i, _ := slices.BinarySearch(p.holes, prefix)
	return i < len(p.holes) && strings.HasPrefix(p.holes[i], prefix)
}

// writable reports whether path is one of the writable directories or
// below one: the search leaves those alone (a secret there is the
// command's to read, like the workspace's own .env).
func (p *planner) writable(path string) bool {
	for w := range p.skip {
		if path == w || strings.HasPrefix(path, w+"/") {
			return true
		}
	}
	return false
}

// linkTarget returns the real path of what a link names when the link or
// its target is a secret, else "". The target's own links are resolved
// only then.
func (p *planner) linkTarget(link string) string {
	target, err := os.Readlink(link)
	if err != nil {
		return ""
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(link), target)
	}
	if !p.secret(link) && !p.secret(filepath.Clean(target)) {
		return ""
	}
	if real := realOr(link); real != "" && !p.writable(real) {
		return real
	}
	return ""
}

// emit grants path read-only: whole when no hole is in it, else its
// names and each of its entries the same way. Links get no rule: what they
// point to is granted or not by its own path.
func (p *planner) emit(path string, dir bool) {
	switch {
	case p.isHole(path):
	case !dir:
		p.readFiles = append(p.readFiles, path)
	case !p.holeBelow(path):
		p.read = append(p.read, path)
	default:
		p.list = append(p.list, path)
		p.each(path, p.emit)
	}
}

// emitWritable grants path read-write: whole when no hole is in it, else
// its entries the same way (the directory itself then gets only its names:
// nothing can be made or removed directly in it).
func (p *planner) emitWritable(path string, dir bool) {
	switch {
	case p.isHole(path):
	case !dir:
		p.writeFiles = append(p.writeFiles, path)
	case !p.holeBelow(path):
		p.write = append(p.write, path)
	default:
		p.list = append(p.list, path)
		p.each(path, p.emitWritable)
	}
}

// each calls f on the entries of dir that are not links.
func (p *planner) each(dir string, f func(path string, dir bool)) {
	entries, err := readDirUnsorted(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Type()&os.ModeSymlink == 0 {
			f(childOf(dir, e.Name()), e.IsDir())
		}
	}
}

func sortedKeys(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }

// readable reports whether this process may read path, or could make it
// readable (it owns it: chmod is not something Landlock restricts). A path
// it can neither read nor chmod needs no hole, which saves splitting its
// directory into a rule per entry: for anyone but root, the system's
// secret files are such paths.
func readable(path string) bool {
	if unix.Faccessat(unix.AT_FDCWD, path, unix.R_OK, unix.AT_EACCESS) == nil {
		return true
	}
	var st unix.Stat_t
	return unix.Lstat(path, &st) != nil || int(st.Uid) == os.Geteuid()
}

// parentOf is filepath.Dir of a clean absolute path, without cleaning it
// again (the planner asks it for every entry it looks at).
func parentOf(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i <= 0 {
		return "/"
	}
	return path[:i]
}

// childOf is filepath.Join of a clean absolute directory and a name.
func childOf(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// readDirUnsorted is os.ReadDir without the sort by name, which the
// planner does not need.
func readDirUnsorted(dir string) ([]os.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
