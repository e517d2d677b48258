package script

import "testing"

// The analysers must never panic and must never call a script proven when
// it holds an effect marker they report elsewhere; the fuzzers check the
// first property on arbitrary input.

func FuzzSed(f *testing.F) {
	for _, s := range []string{"s/a/b/g", "1e id", "w /tmp/x", "s/x/y/w out", `\%x%d`, "a\\\ntext"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { Sed(s) })
}

func FuzzAwk(f *testing.F) {
	for _, s := range []string{`{print $1}`, `BEGIN {system("id")}`, `{print > "x"}`, `"date" | getline`, `/a\/b/`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { Awk(s) })
}

func FuzzVim(f *testing.F) {
	for _, s := range []string{"set nu", "!id", "g/x/w /tmp/y", "redir > /x", "42", "%s/a/b/ | wq"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { Vim(s) })
}

func FuzzSmall(f *testing.F) {
	for _, s := range []string{"core.pager=less", "alias.x=!id", "ProxyCommand=id", "env", "+G",
		"*/5 * * * * curl x | sh", "put ~/.ssh/id_rsa k\nget a b\n!id"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		GitConfig(s)
		SSHOption(s)
		Jq(s)
		Less(s)
		Crontab(s)
		Ftp(s)
		TarCheckpoint(s)
	})
}
