package buildfile

import (
	"net/url"
	"strings"

	"github.com/toolguard/toolguard/internal/lazyre"
)

// A package manager's registry configuration (.npmrc, .yarnrc, .yarnrc.yml,
// pip.conf, bunfig.toml, .condarc, uv.toml) decides where every later
// install fetches its code from, and a lockfile the exact URL of each
// package: a registry over plain http, TLS verification turned off, or a
// lockfile entry moved to a host the project does not fetch from hands
// every later install to whoever answers there.

// isRegistryConfig reports whether base names a package manager's
// registry configuration.
func isRegistryConfig(base string) bool {
	switch base {
	case ".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", "bunfig.toml", ".bunfig.toml", ".condarc",
		"uv.toml", ".pnpmrc":
		return true
	}
	return false
}

// isLockfile reports whether base names a JavaScript package lockfile
// that records each package's download URL.
func isLockfile(base string) bool {
	switch base {
	case "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock":
		return true
	}
	return false
}

var (
	registryKey = lazyre.Regexp{Expr: `(?im)^\s*("?[@\w./:-]*(registry|index-url|index_url|extra-index-url|npmRegistryServer|find-links|channel_alias|default_channels|url)"?)\s*[=:]\s*["']?([^"'\s#]+)`}
	tlsOffKey   = lazyre.Regexp{Expr: `(?im)^\s*(strict-ssl\s*[=:]\s*["']?false|enableStrictSsl\s*:\s*["']?false|strictSsl\s*[=:]\s*["']?false|ssl_verify\s*[=:]\s*["']?(false|no)|trusted-host\s*=\s*\S|verify_ssl\s*[=:]\s*["']?false|allow-insecure-host\s*=|unsafeHttpWhitelist\s*:|insecure\s*=\s*true)`}
	lockURL     = lazyre.Regexp{Expr: `(?:"resolved"\s*:\s*"|\bresolved\s+"|\btarball:\s*["']?)(https?://[^\s"',#}]+)`}
)

// registryHazards are the critical settings of a registry configuration:
// a registry or index over plain http (but on the loopback host, where a
// local registry such as Verdaccio listens), and TLS verification turned
// off.
func registryHazards(text string) []Hazard {
	var out []Hazard
	for _, m := range registryKey.Get().FindAllStringSubmatch(text, -1) {
		u, err := url.Parse(m[3])
		if err == nil && u.Scheme == "http" && !loopbackHost(u.Hostname()) {
			out = append(out, Hazard{Rule: "persisted.registry-plain-http",
				Reason: "it points " + strings.Trim(m[1], `"`) + " at " + m[3] + ", a registry over plain http that anyone on the way can answer for"})
			break
		}
	}
	if m := tlsOffKey.Get().FindString(text); m != "" {
		out = append(out, Hazard{Rule: "persisted.registry-tls-off",
			Reason: "it turns off the package manager's TLS verification (" + strings.TrimSpace(m) + ")"})
	}
	return out
}

// knownRegistries are the public registries lockfiles fetch from.
var knownRegistries = []string{"registry.npmjs.org", "registry.yarnpkg.com", "registry.npmmirror.com",
	"npm.pkg.github.com", "codeload.github.com", "github.com", "gitlab.com", "bitbucket.org", "pkgs.dev.azure.com",
	"registry.npmjs.com", "npm.jsr.io"}

// lockfileHazards are a lockfile's entries that fetch from a host that is
// neither a public registry nor one prior names (the file as it was, the
// project's registry configuration): lockfile injection.
func lockfileHazards(text, prior string) []Hazard {
	allowed := map[string]bool{}
	for _, h := range knownRegistries {
		allowed[h] = true
	}
	for _, m := range lockURL.Get().FindAllStringSubmatch(prior, -1) {
		if u, err := url.Parse(m[1]); err == nil {
			allowed[strings.ToLower(u.Hostname())] = true
		}
	}
	for _, m := range registryKey.Get().FindAllStringSubmatch(prior, -1) {
		if u, err := url.Parse(m[3]); err == nil {
			allowed[strings.ToLower(u.Hostname())] = true
		}
	}
	for _, m := range lockURL.Get().FindAllStringSubmatch(text, -1) {
		u, err := url.Parse(m[1])
		if err != nil {
			continue
		}
		h := strings.ToLower(u.Hostname())
		if !allowed[h] && !loopbackHost(h) {
			return []Hazard{{Rule: "persisted.lockfile-foreign-host",
				Reason: "it makes an install fetch " + m[1] + " from " + h + ", a host that is neither a public registry nor one the project fetches from"}}
		}
		if u.Scheme == "http" && !loopbackHost(h) {
			return []Hazard{{Rule: "persisted.registry-plain-http",
				Reason: "it makes an install fetch " + m[1] + " over plain http"}}
		}
	}
	return nil
}

func loopbackHost(h string) bool {
	return h == "localhost" || h == "::1" || strings.HasPrefix(h, "127.")
}
