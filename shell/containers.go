package shell

import "strings"

// dockerRunSpec lists the options of docker/podman run; an option that is
// not here makes the image word uncertain, and the command inside is then
// left to the rules that judge docker run itself.
var dockerRunSpec = &optSpec{
	Short: "dDiPqRta:c:e:h:l:m:p:u:v:w:",
	Long: []string{"detach", "interactive", "tty", "rm", "privileged", "init", "read-only", "publish-all", "quiet",
		"attach=", "cpu-shares=", "env=", "env-file=", "hostname=", "label=", "memory=", "publish=", "user=",
		"volume=", "workdir=", "name=", "network=", "net=", "entrypoint=", "mount=", "cpus=", "restart=",
		"platform=", "pull=", "add-host=", "device=", "dns=", "gpus=", "ipc=", "log-driver=", "log-opt=",
		"pid=", "runtime=", "security-opt=", "shm-size=", "stop-signal=", "tmpfs=", "ulimit=", "cap-add=",
		"cap-drop=", "cgroupns=", "cidfile=", "health-cmd=", "userns=", "uts=", "volumes-from=", "group-add=",
		"expose=", "link=", "memory-swap=", "oom-kill-disable", "sig-proxy=", "stop-timeout=", "label-file=",
		"network-alias=", "ip=", "mac-address=", "annotation="},
}

// containerRun analyses the command of "docker run [opts] IMAGE [CMD…]".
func (w *walker) containerRun(c *Command, args []Word, st *state, cx *ctx) {
	res := dockerRunSpec.scan(args)
	if res.bad != "" || len(res.rest) < 2 {
		return
	}
	w.runInside(c, res.rest[1:], c.Name+":"+res.rest[0].Value, cx)
}

// tmux analyses the shell command of new-session, new-window,
// split-window and respawn-pane, and the keys typed by send-keys.
func (w *walker) tmux(c *Command, st *state, cx *ctx) {
	w.emit(c, cx)
	args := c.Args()
	if len(args) == 0 {
		return
	}
	w.tmuxFormats(c, args[1:], st, cx)
	switch args[0].Value {
	case "new", "new-session", "neww", "new-window", "splitw", "split-window", "respawn-pane", "respawnp":
		code := tmuxOperands(args[1:], "cEFnstxyel")
		w.nestedCode(c, code, "bash -c", st.childEnv(c), cx)
	case "send-keys", "send":
		keys := tmuxOperands(args[1:], "tNc")
		w.nestedCode(c, typedKeys(keys), "bash -c", st.childEnv(c), cx)
	}
}

// tmuxFormats parses the shell commands of the #(…) parts of a tmux
// command's formats and filters (-F, -f), which tmux runs with the shell
// when it expands the format, as nested code.
func (w *walker) tmuxFormats(c *Command, args []Word, st *state, cx *ctx) {
	for i := 0; i+1 < len(args); i++ {
		if v := args[i].Value; v != "-F" && v != "-f" {
			continue
		}
		f := args[i+1]
		i++
		if !f.Known {
			if strings.Contains(f.Value, "#(") || strings.Contains(f.Value, "$") {
				w.problemAt("tmux format not static: "+f.Value, f.Span)
			}
			continue
		}
		for _, code := range tmuxCommands(f.Value) {
			w.nested(c, Word{Value: code, Known: true, Span: f.Span}, nest{origin: "bash -c", via: "tmux", state: st.childEnv(c)}, cx)
		}
	}
}

// tmuxCommands returns the text of each #(…) of a tmux format; an
// unclosed one is the rest of the format.
func tmuxCommands(format string) []string {
	var out []string
	for {
		i := strings.Index(format, "#(")
		if i < 0 {
			return out
		}
		rest := format[i+2:]
		depth, end := 1, len(rest)
		for j := 0; j < len(rest); j++ {
			if rest[j] == '(' {
				depth++
			} else if rest[j] == ')' {
				if depth--; depth == 0 {
					end = j
					break
				}
			}
		}
		out = append(out, rest[:end])
		format = rest[min(end+1, len(rest)):]
	}
}

// tmuxOperands skips the options of a tmux command (valued lists the ones
// that take a value) and returns the rest.
func tmuxOperands(args []Word, valued string) []Word {
	for i := 0; i < len(args); i++ {
		a := args[i].Value
		switch {
		case a == "--":
			return args[i+1:]
		case len(a) == 2 && a[0] == '-' && strings.IndexByte(valued, a[1]) >= 0:
			i++
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			return args[i:]
		}
	}
	return nil
}

// typedKeys turns send-keys arguments into the text typed: Enter and C-m
// end a line.
func typedKeys(keys []Word) []Word {
	var out []Word
	for _, k := range keys {
		switch k.Value {
		case "Enter", "C-m", "KPEnter":
			if len(out) > 0 {
				out[len(out)-1].Value += "\n"
			}
		default:
			out = append(out, k)
		}
	}
	return out
}
