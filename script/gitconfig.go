package script

import "strings"

// GitConfig analyses one git configuration setting, "key=value", as given
// to git -c, git config KEY VALUE or GIT_CONFIG_PARAMETERS: settings whose
// value git runs as a command (core.pager, core.sshCommand, alias.x=!cmd,
// diff.*.textconv, filter.*.clean, credential.helper, …) yield that command
// in Shell; settings that make git load code or reach other hosts
// (core.hooksPath, include.path, protocol.*.allow, url.*.insteadOf) are
// unproven; only display and identity settings are known to be harmless.
func GitConfig(setting string) Effects {
	if e, long := tooLong(setting); long {
		return e
	}
	key, value, _ := strings.Cut(setting, "=")
	key = strings.ToLower(strings.TrimSpace(key))
	switch kind := gitKeyKind(key); kind {
	case gitHarmless:
		return Effects{}
	case gitCommand:
		e := gitCommandValue(key, value)
		e.Pager = key == "core.pager" && len(e.Shell) > 0
		e.SecretInput = (key == "credential.helper" || gitGlob("credential.*.helper", key)) && len(e.Shell) > 0
		return e
	case gitPager:
		if isGitBool(value) {
			return Effects{}
		}
		e := gitCommandValue(key, value)
		e.Pager = strings.HasPrefix(key, "pager.") && len(e.Shell) > 0
		return e
	case gitAlias:
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(value), "!"); ok {
			return Effects{Shell: []string{cmd}}
		}
		return Effects{Shell: []string{"git " + value}}
	case gitNetwork:
		return Effects{Network: true, Unknown: "git setting " + key + " changes where git connects"}
	default:
		return Effects{Exec: true, Unknown: "git setting " + key + " is not known to be harmless"}
	}
}

// GitKeyRunsCommand reports whether git runs the value of the setting key
// as a command (core.pager, core.editor, pager.log, alias.x, …): a value
// not known before the call is then code not known before the call.
func GitKeyRunsCommand(key string) bool {
	switch gitKeyKind(strings.ToLower(strings.TrimSpace(key))) {
	case gitCommand, gitPager, gitAlias:
		return true
	}
	return false
}

// gitCommandValue is a setting whose value git runs through the shell.
func gitCommandValue(key, value string) Effects {
	value = strings.TrimSpace(value)
	if value == "" {
		return Effects{}
	}
	if key == "credential.helper" && !strings.HasPrefix(value, "!") && !strings.Contains(value, "/") {
		value = "git-credential-" + value // a helper name: git runs git-credential-NAME
	}
	return Effects{Shell: []string{strings.TrimPrefix(value, "!")}}
}

func isGitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "false", "yes", "no", "on", "off", "1", "0":
		return true
	}
	return false
}

type gitKind uint8

const (
	gitUnknown gitKind = iota
	gitHarmless
	gitCommand
	gitPager
	gitAlias
	gitNetwork
)

// gitKeys map key globs (lower case; "*" is one dotted part) to their kind.
// The first matching glob wins.
var gitKeys = []struct {
	glob string
	kind gitKind
}{
	{"alias.*", gitAlias},
	{"pager.*", gitPager},
	{"core.pager", gitCommand}, {"core.editor", gitCommand}, {"core.sshcommand", gitCommand},
	{"core.askpass", gitCommand}, {"core.gitproxy", gitCommand}, {"core.fsmonitor", gitPager},
	{"sequence.editor", gitCommand}, {"diff.external", gitCommand}, {"diff.*.command", gitCommand},
	{"diff.*.textconv", gitCommand}, {"difftool.*.cmd", gitCommand}, {"mergetool.*.cmd", gitCommand},
	{"merge.*.driver", gitCommand}, {"filter.*.clean", gitCommand}, {"filter.*.smudge", gitCommand},
	{"filter.*.process", gitCommand}, {"credential.helper", gitCommand}, {"credential.*.helper", gitCommand},
	{"gpg.program", gitCommand}, {"gpg.*.program", gitCommand}, {"uploadpack.packobjectshook", gitCommand},
	{"remote.*.receivepack", gitCommand}, {"remote.*.uploadpack", gitCommand}, {"web.browser", gitCommand},
	{"browser.*.cmd", gitCommand}, {"man.*.cmd", gitCommand}, {"sendemail.sendmailcmd", gitCommand},
	{"url.*.insteadof", gitNetwork}, {"url.*.pushinsteadof", gitNetwork}, {"http.proxy", gitNetwork},
	{"http.*.proxy", gitNetwork}, {"remote.*.url", gitNetwork}, {"remote.*.pushurl", gitNetwork},
	{"color.*", gitHarmless}, {"color.*.*", gitHarmless}, {"column.*", gitHarmless}, {"advice.*", gitHarmless},
	{"log.*", gitHarmless}, {"format.pretty", gitHarmless}, {"pretty.*", gitHarmless}, {"status.*", gitHarmless},
	{"grep.*", gitHarmless}, {"blame.*", gitHarmless}, {"i18n.*", gitHarmless}, {"versionsort.*", gitHarmless},
	{"user.name", gitHarmless}, {"user.email", gitHarmless}, {"author.*", gitHarmless}, {"committer.*", gitHarmless},
	{"core.quotepath", gitHarmless}, {"core.abbrev", gitHarmless}, {"core.autocrlf", gitHarmless},
	{"core.safecrlf", gitHarmless}, {"core.eol", gitHarmless}, {"core.ignorecase", gitHarmless},
	{"core.filemode", gitHarmless}, {"core.precomposeunicode", gitHarmless}, {"core.whitespace", gitHarmless},
	{"core.commentchar", gitHarmless}, {"core.longpaths", gitHarmless},
	{"diff.renames", gitHarmless}, {"diff.algorithm", gitHarmless}, {"diff.noprefix", gitHarmless},
	{"diff.mnemonicprefix", gitHarmless}, {"diff.context", gitHarmless}, {"diff.interhunkcontext", gitHarmless},
	{"diff.indentheuristic", gitHarmless}, {"diff.colormoved", gitHarmless}, {"diff.submodule", gitHarmless},
	{"diff.relative", gitHarmless}, {"diff.statgraphwidth", gitHarmless}, {"diff.ignoresubmodules", gitHarmless},
	{"merge.conflictstyle", gitHarmless}, {"merge.ff", gitHarmless}, {"pull.rebase", gitHarmless},
	{"pull.ff", gitHarmless}, {"init.defaultbranch", gitHarmless}, {"commit.gpgsign", gitHarmless},
	{"tag.gpgsign", gitHarmless}, {"push.default", gitHarmless}, {"push.autosetupremote", gitHarmless},
	{"fetch.prune", gitHarmless}, {"rebase.autosquash", gitHarmless}, {"rebase.autostash", gitHarmless},
	{"gc.auto", gitHarmless}, {"maintenance.auto", gitHarmless}, {"protocol.version", gitHarmless},
	{"feature.*", gitHarmless}, {"index.*", gitHarmless}, {"pack.*", gitHarmless}, {"submodule.recurse", gitHarmless},
}

func gitKeyKind(key string) gitKind {
	for _, k := range gitKeys {
		if gitGlob(k.glob, key) {
			return k.kind
		}
	}
	return gitUnknown
}

// gitGlob matches a dotted key against a glob whose "*" parts stand for one
// dotted part; a subsection may itself contain dots, so "diff.*.textconv"
// also matches "diff.a.b.textconv". It walks both strings part by part
// rather than splitting them: a key no glob names is matched against
// every one of gitKeys, two splits each.
func gitGlob(glob, key string) bool {
	if strings.Count(glob, ".") == 2 && strings.Count(key, ".") > 2 {
		g0, rest, _ := strings.Cut(glob, ".")
		g1, g2, _ := strings.Cut(rest, ".")
		if g1 == "*" { // the dotted middle of key is the subsection
			k0 := key[:strings.IndexByte(key, '.')]
			k2 := key[strings.LastIndexByte(key, '.')+1:]
			return gitPart(g0, k0) && gitPart(g2, k2)
		}
	}
	for {
		g, gRest, gMore := strings.Cut(glob, ".")
		k, kRest, kMore := strings.Cut(key, ".")
		if !gitPart(g, k) || gMore != kMore {
			return false
		}
		if !gMore {
			return true
		}
		glob, key = gRest, kRest
	}
}

// gitPart matches one dotted part of a key against one of a glob.
func gitPart(g, k string) bool { return g == "*" || g == k }
