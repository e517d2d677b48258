package sandbox

import (
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/risk"
)

// keptNames are the variables every run keeps (when the parent has them).
var keptNames = map[string]bool{
	"PATH": true, "HOME": true, "TERM": true, "LANG": true, "USER": true,
	"LOGNAME": true, "SHELL": true, "TZ": true,
}

// defaultPath is used when the parent environment has no PATH.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// secretPrefixes are cloud and credential families dropped as a whole.
var secretPrefixes = []string{
	"AWS_", "AZURE_", "ARM_CLIENT", "GOOGLE_APPLICATION_CREDENTIALS", "GCP_",
	"GCLOUD_", "CLOUDSDK_", "DIGITALOCEAN_", "HCLOUD_", "VAULT_", "OP_",
}

// secretNames are exact names that grant access without looking like it.
var secretNames = map[string]bool{
	"SSH_AUTH_SOCK": true, "GPG_AGENT_INFO": true, "DATABASE_URL": true,
	"KUBECONFIG": true, "DOCKER_HOST": true, "NETRC": true, "PGPASSFILE": true,
}

// LooksSecret reports whether an environment variable name looks like it
// holds a secret (risk.IsSecretName: GITHUB_TOKEN, DB_PASSWORD) or grants
// access to one (AWS_PROFILE, SSH_AUTH_SOCK).
func LooksSecret(name string) bool {
	up := strings.ToUpper(name)
	if secretNames[up] || risk.IsSecretName(up) {
		return true
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	return false
}

// RunVar is set in every command's environment to an id unique to the run.
// Run uses it to find the processes of a run that left its process group
// (setsid, double fork) and kill them when the run ends.
const RunVar = "TOOLGUARD_SANDBOX_RUN"

// passthrough is a compiled Spec.Passthrough list.
type passthrough struct {
	exact    map[string]bool
	prefixes []string
}

func compilePassthrough(list []string) (passthrough, error) {
	p := passthrough{exact: map[string]bool{}}
	for _, entry := range list {
		name, isPrefix := strings.CutSuffix(entry, "*")
		if !validEnvName(name) || (!isPrefix && name == "") {
			return p, fmt.Errorf("sandbox: invalid passthrough entry %q: want a variable name such as NODE_ENV or a prefix such as NPM_CONFIG_*", entry)
		}
		if isPrefix {
			p.prefixes = append(p.prefixes, name)
		} else {
			p.exact[name] = true
		}
	}
	return p, nil
}

func validEnvName(name string) bool {
	for i, c := range name {
		letter := c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// keeps reports whether the variable name passes the scrub.
func (p passthrough) keeps(name string) bool {
	if p.exact[name] {
		return true
	}
	if LooksSecret(name) {
		return false
	}
	if keptNames[name] || strings.HasPrefix(name, "LC_") {
		return true
	}
	for _, pre := range p.prefixes {
		if strings.HasPrefix(name, pre) {
			return true
		}
	}
	return false
}

// scrubEnv returns the variables of env that pass p, the last value of a
// repeated name winning, in first-seen order, with TMPDIR set to tmpDir and
// PATH defaulted when absent.
func scrubEnv(env []string, p passthrough, tmpDir string) []string {
	values := map[string]string{}
	var order []string
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !validEnvName(name) || name == "" || name == "TMPDIR" || name == RunVar || !p.keeps(name) {
			continue
		}
		if _, seen := values[name]; !seen {
			order = append(order, name)
		}
		values[name] = value
	}
	if _, ok := values["PATH"]; !ok {
		order = append(order, "PATH")
		values["PATH"] = defaultPath
	}
	out := make([]string, 0, len(order)+1)
	for _, name := range order {
		out = append(out, name+"="+values[name])
	}
	return append(out, "TMPDIR="+tmpDir)
}

// lookupEnv returns the value of name in env (last one wins).
func lookupEnv(env []string, name string) string {
	value := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			value = v
		}
	}
	return value
}

// agentKeeps are the variables the Agent profile keeps although their
// names look like access: the profile lets the command use what they
// point to.
var agentKeeps = map[string]bool{"SSH_AUTH_SOCK": true}

// scrubAgentEnv returns env without the variables that look like secrets
// (an exact Passthrough name keeps one), the last value of a repeated name
// winning, in first-seen order: an agent's command keeps its environment.
func scrubAgentEnv(env []string, p passthrough) []string {
	values := map[string]string{}
	var order []string
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || name == RunVar || LooksSecret(name) && !p.exact[name] && !agentKeeps[name] {
			continue
		}
		if _, seen := values[name]; !seen {
			order = append(order, name)
		}
		values[name] = value
	}
	out := make([]string, 0, len(order))
	for _, name := range order {
		out = append(out, name+"="+values[name])
	}
	return out
}
