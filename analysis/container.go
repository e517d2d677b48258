package analysis

import (
	"path"
	"strings"

	"github.com/toolguard/toolguard/rules"
	"github.com/toolguard/toolguard/shell"
)

// A container's command runs on the container's files, which are not this
// machine's — except below its bind mounts. container judges the paths
// the command touches below a mount as the host paths they are, so that
// docker run -v /:/host alpine rm -rf /host/home/dev is the delete of
// /home/dev it is. Findings about the container's own files (rm -rf / in a
// throwaway container) are not this machine's business.

// bindMount maps a directory inside a container to the host directory
// mounted there; word is the mount's value as written.
type bindMount struct {
	inside, host string
	readOnly     bool
	word         shell.Word
}

// container judges what a container may do to this machine: every bind
// mount's host directory as a path the container writes (reads, when the
// mount is read-only) — its image or command is code no rule has seen —
// and its command through its mounts.
func (a *Analysis) container(sc Command) {
	if len(sc.Result.Mounts) == 0 {
		return
	}
	mounts := a.bindMounts(sc)
	if len(mounts) == 0 {
		return
	}
	a.mountSources(sc, mounts)
	if len(sc.Result.Container) == 0 || a.depth >= maxCodeNesting {
		return
	}
	s := a.parse(shell.QuoteWords(sc.Result.Container), shell.Options{})
	if s == nil {
		return
	}
	a.depth++
	defer func() { a.depth-- }()
	for _, nc := range s.Commands {
		r, ok := a.classify(nc)
		if !ok {
			return
		}
		var refs []rules.PathRef
		for _, ref := range r.Paths {
			if host, ok := onHost(ref.Word.Value, mounts); ok && ref.Word.Known {
				ref.Word.Value, ref.Word.Span = host, sc.Cmd.Span
				refs = append(refs, ref)
			}
		}
		if len(refs) > 0 {
			a.paths(nc, refs, a.Dir(nc))
		}
	}
}

// mountSources judges the host side of every bind mount: a container
// given -v "$PWD":/src writes the project, one given -v ~:/h the home
// directory, whatever its command says.
func (a *Analysis) mountSources(sc Command, mounts []bindMount) {
	refs := make([]rules.PathRef, 0, len(mounts))
	for _, m := range mounts {
		w := m.word
		w.Value = m.host
		access := "write"
		if m.readOnly {
			access = "read"
		}
		refs = append(refs, rules.PathRef{Word: w, Access: access})
	}
	a.paths(sc.Cmd, refs, sc.Dir)
}

// bindMounts reads -v HOST:CONT[:opts] and --mount type=bind,src=…,dst=…
// values; named volumes and unknown words are not this machine's paths.
func (a *Analysis) bindMounts(sc Command) []bindMount {
	var out []bindMount
	for _, w := range sc.Result.Mounts {
		if !w.Known {
			continue
		}
		m, ok := parseMount(w.Value)
		if !ok {
			continue
		}
		if strings.HasPrefix(m.host, ".") {
			m.host = path.Join(sc.Dir, m.host)
		}
		m.inside, m.word = path.Clean(m.inside), w
		out = append(out, m)
	}
	return out
}

// parseMount reads one mount value: HOST:CONT[:opts] (-v, --volume) or
// comma-separated key=value fields (--mount). ok is false for what binds
// no host path: a named or anonymous volume, a tmpfs.
func parseMount(v string) (m bindMount, ok bool) {
	if strings.Contains(v, "=") && !strings.HasPrefix(v, "/") {
		m = mountFields(v)
	} else {
		parts := strings.Split(v, ":")
		if len(parts) < 2 {
			return bindMount{}, false
		}
		m.host, m.inside = parts[0], parts[1]
		if len(parts) > 2 {
			for _, o := range strings.Split(parts[2], ",") {
				m.readOnly = m.readOnly || o == "ro" || o == "readonly"
			}
		}
	}
	if !strings.HasPrefix(m.inside, "/") || !(strings.HasPrefix(m.host, "/") || strings.HasPrefix(m.host, "~") || strings.HasPrefix(m.host, ".")) {
		return bindMount{}, false
	}
	return m, true
}

// mountFields reads source, target and read-only of a --mount value.
func mountFields(v string) (m bindMount) {
	bind := true
	for _, kv := range strings.Split(v, ",") {
		k, val, hasValue := strings.Cut(kv, "=")
		switch k {
		case "type":
			bind = val == "bind"
		case "source", "src":
			m.host = val
		case "target", "destination", "dst":
			m.inside = val
		case "readonly", "ro":
			m.readOnly = !hasValue || val == "true" || val == "1"
		}
	}
	if !bind {
		return bindMount{}
	}
	return m
}

// onHost maps a container path below a mount to the host path; the most
// specific mount wins.
func onHost(p string, mounts []bindMount) (string, bool) {
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	p = path.Clean(p)
	best := -1
	for i, m := range mounts {
		if (p == m.inside || m.inside == "/" || strings.HasPrefix(p, m.inside+"/")) && (best < 0 || len(m.inside) > len(mounts[best].inside)) {
			best = i
		}
	}
	if best < 0 {
		return "", false
	}
	m := mounts[best]
	return path.Join(m.host, strings.TrimPrefix(p, m.inside)), true
}
