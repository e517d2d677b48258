package buildfile

import (
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
	names, cmd := composeTargets(sub, rest)
	if len(names) == 0 {
		for n := range services {
			names = append(names, n)
		}
		sort.Strings(names)
	}
	for _, n := range names {
		s, found := services[n]
		if !found {
			continue
		}
		if cmd != nil {
			s.command = cmd // compose run SERVICE CMD…: the command given replaces the service's
		}
		r.step(Step{File: s.file, Line: s.line, Text: s.dockerRun(dir, r.home), Lang: Shell, Dir: dir})
	}
}

// composeTargets are the services a sub-command names (run: one, and the
// command after it) among its words.
func composeTargets(sub string, rest []string) (names, cmd []string) {
	valued := map[string]bool{"-t": true, "--timeout": true, "--scale": true, "--exit-code-from": true,
		"--attach": true, "--no-attach": true, "--pull": true, "--wait-timeout": true, "-e": true, "--env": true,
		"-l": true, "--label": true, "-p": true, "--publish": true, "-v": true, "--volume": true, "-w": true,
		"--workdir": true, "-u": true, "--user": true, "--name": true, "--entrypoint": true, "--cap-add": true,
		"--cap-drop": true, "--env-from-file": true}
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if strings.HasPrefix(a, "-") {
			if valued[a] {
				i++
			}
			continue
		}
		names = append(names, a)
		if sub == "run" {
			return names, slices.Clone(rest[i+1:])
		}
	}
	return names, nil
}

// composeService is what docker run needs of one service.
type composeService struct {
	file                  string
	line                  int
	image                 string
	privileged            bool
	pid, network          string
	capAdd, devices       []string
	volumes               []string
	entrypoint, command   []string
	entrypointSet, cmdSet bool
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

// exists reports whether p can be read (a missing file is no problem).
func (r *resolver) exists(p string) bool {
	if x, ok := r.fs.(Execer); ok {
		_, err := x.Executable(p)
		return err == nil
	}
	_, err := r.fs.Read(p)
	return err == nil
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
			s.entrypointSet = true
		case "command":
			s.command, err = composeCommand(n)
			s.cmdSet = true
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
