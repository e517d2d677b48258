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
// mounted there.
type bindMount struct {
	inside, host string
}

// container judges the container command of sc through its mounts.
func (a *Analysis) container(sc Command) {
	if len(sc.Result.Container) == 0 || a.depth >= maxCodeNesting {
		return
	}
	mounts := a.bindMounts(sc)
	if len(mounts) == 0 {
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

// bindMounts reads -v HOST:CONT[:opts] and --mount type=bind,src=…,dst=…
// values; named volumes and unknown words are not this machine's paths.
func (a *Analysis) bindMounts(sc Command) []bindMount {
	var out []bindMount
	for _, w := range sc.Result.Mounts {
		if !w.Known {
			continue
		}
		var host, inside string
		if strings.Contains(w.Value, "=") && !strings.HasPrefix(w.Value, "/") {
			host, inside = mountFields(w.Value)
		} else {
			parts := strings.Split(w.Value, ":")
			if len(parts) < 2 {
				continue
			}
			host, inside = parts[0], parts[1]
		}
		if !strings.HasPrefix(inside, "/") || !(strings.HasPrefix(host, "/") || strings.HasPrefix(host, "~") || strings.HasPrefix(host, ".")) {
			continue
		}
		if strings.HasPrefix(host, ".") {
			host = path.Join(sc.Dir, host)
		}
		out = append(out, bindMount{inside: path.Clean(inside), host: host})
	}
	return out
}

// mountFields reads source and target of a --mount value.
func mountFields(v string) (host, inside string) {
	bind := true
	for _, kv := range strings.Split(v, ",") {
		k, val, _ := strings.Cut(kv, "=")
		switch k {
		case "type":
			bind = val == "bind"
		case "source", "src":
			host = val
		case "target", "destination", "dst":
			inside = val
		}
	}
	if !bind {
		return "", ""
	}
	return host, inside
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
