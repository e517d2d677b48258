package install

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolguard/toolguard/hook"
)

// docker-agent (formerly cagent) changed where it reads hooks from and how
// it treats a hook's answer from one release to the next, and a version that
// does not know a hook form ignores it (user config) or refuses the whole
// file (agent YAML). So toolguard asks the installed binary for its version
// and installs only the form that version loads. What each bound rests on
// (docker/docker-agent source, not run here) is in docs/agents.md:
//
//   - v1.18.0 added hooks, in the agent YAML only (agents.<name>.hooks,
//     commit cfe84360, "Implement hooks"); v1.17.0 has none.
//   - Up to v1.32.3 (the newest tag whose source was read) the user config
//     ~/.config/cagent/config.yaml has no settings.hooks (the field is
//     ignored: pkg/userconfig/userconfig.go parses it leniently), the agent
//     YAML is parsed strictly (pkg/config/latest/parse.go, yaml.Strict(), so
//     preempt_yolo is refused), pre_tool_use runs after the approval
//     (pkg/runtime/tool_dispatch.go runTool) and its "ask" changes nothing:
//     the call runs (pkg/hooks/executor.go aggregateResults).
//   - v1.144.0 is the oldest release known here to have settings.hooks,
//     preempt_yolo and tool_guard. Between v1.32.3 and v1.144.0 the source
//     available here does not say which release added them.

// The docker-agent versions that bound what toolguard installs.
var (
	// DockerAgentFirstHooks is the first release with any hooks (agent YAML).
	DockerAgentFirstHooks = dockerVersion{1, 18, 0}
	// DockerAgentLastWithoutSettingsHooks is the newest release read whose
	// user config has no settings.hooks and whose pre_tool_use ignores ask.
	DockerAgentLastWithoutSettingsHooks = dockerVersion{1, 32, 3}
	// DockerAgentMinimum is the oldest release toolguard installs into: it
	// loads settings.hooks with preempt_yolo, and an ask there prompts.
	DockerAgentMinimum = dockerVersion{1, 144, 0}
)

// dockerVersion is a release number major.minor.patch.
type dockerVersion [3]int

func (v dockerVersion) String() string { return fmt.Sprintf("v%d.%d.%d", v[0], v[1], v[2]) }

func (v dockerVersion) less(w dockerVersion) bool {
	for i := range v {
		if v[i] != w[i] {
			return v[i] < w[i]
		}
	}
	return false
}

// DockerAgent is what the installed docker-agent program says about itself.
type DockerAgent struct {
	// Program is the executable that was run; empty when none was found.
	Program string
	// Output is the first line of its version output.
	Output string
	// Version is the release it reports; the zero value when unknown (not
	// found, a development build, or output toolguard cannot read).
	Version dockerVersion
	// Err is set when running it failed.
	Err error
}

// DockerAgentPrograms are the names looked up on PATH, in order: the
// current name, then the former one. Tests replace it.
var DockerAgentPrograms = []string{"docker-agent", "cagent"}

// dockerAgentPluginDirs are the Docker CLI plugin directories under home
// where Docker Desktop installs docker-agent (run as `docker agent`),
// slash-separated: the filepath.Join that uses them makes the separators
// the system's.
var dockerAgentPluginDirs = []string{".docker/cli-plugins"}

// versionRE reads "docker-agent version v1.32.3", "docker agent version
// v1.32.3" and "cagent version v1.9.0" (tags are also spelled "1.18.2" and
// "v.1.5.5").
var versionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bversion\s+v?\.?(\d+)\.(\d+)\.(\d+)\b`)
})

// DetectDockerAgent runs `PROGRAM version` for the first of
// DockerAgentPrograms found on PATH (else the Docker CLI plugin under
// home) and reads the version it reports.
func DetectDockerAgent(ctx context.Context, home string) DockerAgent {
	var d DockerAgent
	for _, name := range DockerAgentPrograms {
		if p, err := exec.LookPath(name); err == nil {
			d.Program = p
			break
		}
	}
	if d.Program == "" && home != "" {
		for _, dir := range dockerAgentPluginDirs {
			p := filepath.Join(home, dir, "docker-agent")
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				d.Program = p
				break
			}
		}
	}
	if d.Program == "" {
		return d
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, d.Program, "version")
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	d.Output = firstLine(out.Bytes())
	if err != nil {
		d.Err = fmt.Errorf("%s version: %v", d.Program, err)
	}
	d.Version, _ = parseDockerVersion(out.String())
	return d
}

func firstLine(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			return l
		}
	}
	return ""
}

// parseDockerVersion finds the release number in version output.
func parseDockerVersion(out string) (dockerVersion, bool) {
	m := versionRE().FindStringSubmatch(out)
	if m == nil {
		return dockerVersion{}, false
	}
	var v dockerVersion
	for i := range v {
		n, err := strconv.Atoi(m[i+1])
		if err != nil {
			return dockerVersion{}, false
		}
		v[i] = n
	}
	return v, true
}

// Known reports whether the version could be read.
func (d DockerAgent) Known() bool { return d.Version != dockerVersion{} }

// Name is how reports call it: the program and its version.
func (d DockerAgent) Name() string {
	switch {
	case d.Program == "":
		return "docker-agent (not found)"
	case d.Known():
		return filepath.Base(d.Program) + " " + d.Version.String()
	case d.Output != "":
		return fmt.Sprintf("%s (version %q)", filepath.Base(d.Program), d.Output)
	}
	return filepath.Base(d.Program) + " (version unknown)"
}

// LoadsUserHooks reports whether this docker-agent loads toolguard's entry
// in settings.hooks of its user config with preempt_yolo, so the hook runs
// before --yolo, safety modes and permission rules, and an ask prompts.
// When it does not, why says so and what to do instead.
func (d DockerAgent) LoadsUserHooks(program string) (ok bool, why string) {
	min := DockerAgentMinimum.String()
	switch {
	case d.Program == "":
		return false, fmt.Sprintf("no docker-agent (or cagent) program is on PATH, so which hook form it loads cannot be told; toolguard installs into docker-agent %s or later", min)
	case !d.Known():
		what := "reports no version toolguard can read"
		if d.Err != nil {
			what = "could not report its version (" + d.Err.Error() + ")"
		} else if d.Output != "" {
			what = fmt.Sprintf("reports %q", d.Output)
		}
		return false, fmt.Sprintf("%s %s, so which hook form it loads cannot be told; toolguard installs into docker-agent %s or later", d.Program, what, min)
	case d.Version.less(DockerAgentFirstHooks):
		return false, fmt.Sprintf("%s runs no hooks at all (hooks arrived in %s); upgrade to docker-agent %s or later", d.Name(), DockerAgentFirstHooks, min)
	case !DockerAgentLastWithoutSettingsHooks.less(d.Version):
		return false, fmt.Sprintf("%s ignores settings.hooks in ~/.config/cagent/config.yaml (its user config has no hooks), refuses preempt_yolo in an agent YAML, and runs a call whose hook answers ask; upgrade to docker-agent %s or later. Until then, the form it loads is a pre_tool_use entry without preempt_yolo in each agent YAML, with ask made a deny:\n%s", d.Name(), min, legacyAgentYAML(program))
	case d.Version.less(DockerAgentMinimum):
		return false, fmt.Sprintf("%s is newer than the releases whose source shows no settings.hooks (up to %s) and older than %s, the oldest known to load settings.hooks with preempt_yolo; whether it loads toolguard's entry is not known, so toolguard does not install into it: upgrade to docker-agent %s or later", d.Name(), DockerAgentLastWithoutSettingsHooks, min, min)
	}
	return true, fmt.Sprintf("%s loads settings.hooks with preempt_yolo (%s or later)", d.Name(), min)
}

// legacyAgentYAML is the entry for an agent YAML of a docker-agent that
// has agent-YAML hooks only.
func legacyAgentYAML(program string) string {
	return fmt.Sprintf(`  agents:
    <name>:
      hooks:
        pre_tool_use:
          - matcher: "*"
            hooks:
              - type: command
                command: %s
                timeout: %d`, strconv.Quote(hookCommand(program, hook.DockerAgent)+" "+hook.AgentRunsAsksFlag), agentTimeout)
}

// ErrDockerAgentUnsupported wraps the reason install refuses docker-agent.
type ErrDockerAgentUnsupported struct{ Why string }

func (e *ErrDockerAgentUnsupported) Error() string {
	return "toolguard does not install into this docker-agent: " + e.Why
}
