package buildfile

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// compose resolves docker compose (and docker-compose, podman compose,
// podman-compose) up, run, start, restart and create: each service it
// starts becomes the docker run it amounts to — its image, privileged,
// pid and network namespaces, capabilities, devices, bind mounts (relative
// to the project directory) and its entrypoint and command — and that
// command line is judged as a step, so what the container's command does
// to a host directory mounted into it is judged on the host (a service
// mounting / at /host that runs rm -rf /host/home/u deletes the home).
// The files are -f/--file's, or the first of compose.yaml, compose.yml,
// docker-compose.yaml, docker-compose.yml in the project directory with
// its .override file; later files override earlier ones service by
// service, key by key.
func (r *resolver) compose(inv Invocation) {
	args := inv.Args
	if inv.Name == "docker" || inv.Name == "podman" {
		if len(args) == 0 || args[0] != "compose" {
			return
		}
		args = args[1:]
	}
	if r.onlyDry {
		return
	}
	var files []string
	dir := inv.Dir
	i := 0
	for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
		if v, n := flagValue(args, i, "-f", "--file"); n > 0 {
			files, i = append(files, v), i+n-1
			continue
		}
		if v, n := flagValue(args, i, "", "--project-directory"); n > 0 {
			dir, i = join(inv.Dir, v), i+n-1
			continue
		}
		for _, f := range []string{"-p", "--project-name", "--profile", "--env-file", "--ansi", "--parallel", "--progress"} {
			if _, n := flagValue(args, i, f, f); n > 0 {
				i += n - 1
				break
			}
		}
	}
	if i >= len(args) {
		return
	}
	sub, rest := args[i], args[i+1:]
	switch sub {
	case "up", "run", "start", "restart", "create":
	default:
		return
	}
	services, ok := r.composeServices(dir, inv.Dir, files)
	if !ok {
		return
	}
	r.plan.Runner = "docker compose"
	t := composeTargets(sub, rest)
	names := t.names
	if len(names) == 0 {
		for n := range services {
			names = append(names, n)
		}
		sort.Strings(names)
	} else if !t.noDeps {
		names = withDependencies(names, services)
	}
	for _, n := range names {
		s, found := services[n]
		if !found {
			continue
		}
		if slices.Contains(t.names, n) {
			t.apply(&s)
		}
		r.step(Step{File: s.file, Line: s.line, Text: s.dockerRun(dir, r.home), Lang: Shell, Dir: dir})
	}
}

// withDependencies adds the services the named ones depend on
// (depends_on, followed through), which compose starts first unless told
// --no-deps.
func withDependencies(names []string, services map[string]composeService) []string {
	out := slices.Clone(names)
	for i := 0; i < len(out); i++ {
		for _, d := range services[out[i]].dependsOn {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// composeDependencies reads depends_on: a list of names, or a mapping
// whose keys are the names.
func composeDependencies(n yaml.Node) ([]string, error) {
	if n.Kind == yaml.MappingNode {
		var names []string
		for k := 0; k+1 < len(n.Content); k += 2 {
			names = append(names, n.Content[k].Value)
		}
		return names, nil
	}
	var names []string
	err := n.Decode(&names)
	return names, err
}

// composeCall is what a compose sub-command's words say: the services
// named, --no-deps, and for run the command given and its own volumes,
// entrypoint and capabilities, which add to the service's.
type composeCall struct {
	names, cmd, volumes, capAdd []string
	entrypoint                  string
	noDeps                      bool
}

// apply sets what the command line gives a service it names.
func (t composeCall) apply(s *composeService) {
	if t.cmd != nil {
		s.command = t.cmd // compose run SERVICE CMD…: the command given replaces the service's
	}
	if t.entrypoint != "" {
		s.entrypoint, s.command = []string{t.entrypoint}, t.cmd
	}
	s.volumes = append(slices.Clip(s.volumes), t.volumes...)
	s.capAdd = append(slices.Clip(s.capAdd), t.capAdd...)
}

// composeTargets reads a sub-command's words (run: one service, and the
// command after it).
func composeTargets(sub string, rest []string) composeCall {
	valued := map[string]bool{"-t": true, "--timeout": true, "--scale": true, "--exit-code-from": true,
		"--attach": true, "--no-attach": true, "--pull": true, "--wait-timeout": true, "-e": true, "--env": true,
		"-l": true, "--label": true, "-p": true, "--publish": true, "-w": true,
		"--workdir": true, "-u": true, "--user": true, "--name": true, "--cap-drop": true, "--env-from-file": true}
	var t composeCall
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if v, n := flagValue(rest, i, "-v", "--volume"); n > 0 {
			t.volumes, i = append(t.volumes, v), i+n-1
			continue
		}
		if v, n := flagValue(rest, i, "", "--entrypoint"); n > 0 {
			t.entrypoint, i = v, i+n-1
			continue
		}
		if v, n := flagValue(rest, i, "", "--cap-add"); n > 0 {
			t.capAdd, i = append(t.capAdd, v), i+n-1
			continue
		}
		if strings.HasPrefix(a, "-") {
			t.noDeps = t.noDeps || a == "--no-deps"
			if valued[a] {
				i++
			}
			continue
		}
		t.names = append(t.names, a)
		if sub == "run" {
			t.cmd = slices.Clone(rest[i+1:])
			return t
		}
	}
	return t
}

// composeService is what docker run needs of one service.
type composeService struct {
	file                string
	line                int
	image               string
	privileged          bool
	pid, network        string
	capAdd, devices     []string
	volumes             []string
	entrypoint, command []string
	dependsOn           []string
}

// composeServices reads the compose files: the named ones, or the
// project directory's default and its override.
func (r *resolver) composeServices(dir, cwd string, files []string) (map[string]composeService, bool) {
	if len(files) == 0 {
		for _, name := range []string{"compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"} {
			if r.exists(join(dir, name)) {
				files = append(files, join(dir, name))
				ext := path.Ext(name)
				if o := join(dir, strings.TrimSuffix(name, ext)+".override"+ext); r.exists(o) {
					files = append(files, o)
				}
				break
			}
		}
		if len(files) == 0 {
			return nil, false
		}
	}
	out := map[string]composeService{}
	for _, f := range files {
		p := join(cwd, f)
		text, ok := r.read(p)
		if !ok {
			return nil, false
		}
		var doc struct {
			Services yaml.Node `yaml:"services"`
		}
		if err := yaml.Unmarshal([]byte(text), &doc); err != nil || doc.Services.Kind != 0 && doc.Services.Kind != yaml.MappingNode {
			r.problem(p, "the compose file is not valid YAML")
			return nil, false
		}
		svcs := doc.Services.Content
		for k := 0; k+1 < len(svcs); k += 2 {
			name, body := svcs[k].Value, svcs[k+1]
			s := out[name]
			s.file, s.line = p, svcs[k].Line // the service's key, in the last file that names it
			if err := s.merge(body); err != nil {
				r.problem(p, fmt.Sprintf("service %s: %v", name, err))
				return nil, false
			}
			out[name] = s
		}
	}
	return out, true
}

// exists reports whether p may exist: false only when the reader says it
// does not, so a file that cannot be told apart is read (and a failure
// to read it is a problem, not a file taken for missing).
func (r *resolver) exists(p string) bool {
	var err error
	if x, ok := r.fs.(Execer); ok {
		_, err = x.Executable(p)
	} else {
		_, err = r.fs.Read(p)
	}
	return !errors.Is(err, ErrNotExist)
}

// merge sets the keys one file gives a service, in the file's order.
func (s *composeService) merge(body *yaml.Node) error {
	if body.Kind != yaml.MappingNode {
		if body.Kind == yaml.ScalarNode && body.Tag == "!!null" {
			return nil // a service with no keys: its image's default
		}
		return fmt.Errorf("not a mapping")
	}
	for k := 0; k+1 < len(body.Content); k += 2 {
		key, n := body.Content[k].Value, *body.Content[k+1]
		var err error
		switch key {
		case "image":
			err = n.Decode(&s.image)
		case "privileged":
			err = n.Decode(&s.privileged)
		case "pid":
			err = n.Decode(&s.pid)
		case "network_mode":
			err = n.Decode(&s.network)
		case "cap_add":
			err = n.Decode(&s.capAdd)
		case "devices":
			s.devices, err = composeStrings(n, "source", "target")
		case "volumes":
			s.volumes, err = composeStrings(n, "source", "target")
		case "entrypoint":
			s.entrypoint, err = composeCommand(n)
		case "command":
			s.command, err = composeCommand(n)
		case "depends_on":
			s.dependsOn, err = composeDependencies(n)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", key, err)
		}
	}
	return nil
}

// composeCommand reads a command: a list of words, or a string split as a
// shell splits words (compose does not run it through a shell).
func composeCommand(n yaml.Node) ([]string, error) {
	var list []string
	if n.Kind == yaml.SequenceNode {
		err := n.Decode(&list)
		return list, err
	}
	var s string
	if err := n.Decode(&s); err != nil {
		return nil, err
	}
	return []string{"\x00" + s}, nil // a string: its words as written
}

// composeStrings reads a list of short ("SRC:DST[:MODE]") or long
// ({source, target}) entries as short ones.
func composeStrings(n yaml.Node, src, dst string) ([]string, error) {
	var out []string
	for _, item := range n.Content {
		if item.Kind == yaml.ScalarNode {
			out = append(out, item.Value)
			continue
		}
		var m map[string]any
		if err := item.Decode(&m); err != nil {
			return nil, err
		}
		a, _ := m[src].(string)
		b, _ := m[dst].(string)
		if a == "" {
			out = append(out, b)
			continue
		}
		out = append(out, a+":"+b)
	}
	return out, nil
}

// dockerRun is the docker run command line the service amounts to, with
// bind mounts' relative sources resolved in the project directory.
func (s composeService) dockerRun(dir, home string) string {
	words := []string{"docker", "run", "--rm"}
	if s.privileged {
		words = append(words, "--privileged")
	}
	if s.pid != "" {
		words = append(words, "--pid", s.pid)
	}
	if s.network != "" {
		words = append(words, "--network", s.network)
	}
	for _, c := range s.capAdd {
		words = append(words, "--cap-add", c)
	}
	for _, d := range s.devices {
		words = append(words, "--device", d)
	}
	for _, v := range s.volumes {
		words = append(words, "-v", composeMount(v, dir, home))
	}
	cmd := s.command
	if len(s.entrypoint) > 0 {
		words = append(words, "--entrypoint", s.entrypoint[0])
		cmd = append(slices.Clone(s.entrypoint[1:]), cmd...)
	}
	words = append(words, cmpOr(s.image, "compose-built-image"))
	text := make([]string, len(words))
	for i, w := range words {
		text[i] = shellQuote(w)
	}
	for _, w := range cmd {
		if raw, ok := strings.CutPrefix(w, "\x00"); ok {
			text = append(text, raw)
			continue
		}
		text = append(text, shellQuote(w))
	}
	return strings.Join(text, " ")
}

// composeMount resolves a short mount's source: ./x and ../x in the
// project directory, ~ in the home; a named volume stays as it is.
func composeMount(v, dir, home string) string {
	src, rest, ok := strings.Cut(v, ":")
	if !ok {
		return v
	}
	switch {
	case src == "~" || strings.HasPrefix(src, "~/"):
		if home != "" {
			src = home + src[1:]
		}
	case src == "." || src == ".." || strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../"):
		src = join(dir, src)
	}
	return src + ":" + rest
}
