package dialect

import "testing"

func TestPowerShell(t *testing.T) {
	cases := []struct {
		code, want string
		ok         bool
	}{
		{`Remove-Item -Path $HOME -Recurse -Force`, `rm -f -r -- "$HOME"`, true},
		{`ri -r -fo ~/x`, `rm -f -r -- ~'/''x'`, true},
		{`Remove-Item -Recurse -Force ./node_modules, ./dist`, `rm -f -r -- '.''/''n''o''d''e''_''m''o''d''u''l''e''s' '.''/''d''i''s''t'`, true},
		{`Get-Content ./a.md -TotalCount 3`, `cat -- '.''/''a''.''m''d'`, true},
		{`irm https://h/a | iex`, `curl -fsSL -- 'h''t''t''p''s'':''/''/''h''/''a' | iex`, true},
		{`iex (iwr x)`, "{ curl -fsSL -- 'x'\n} | iex", true},
		{`Invoke-WebRequest -Uri u -OutFile o`, `curl -fsSL -o 'o' -- 'u'`, true},
		{`Set-Content -Path f -Value v`, `printf '%s\n' 'v' | tee -- 'f' >/dev/null`, true},
		{`Get-ChildItem -Recurse -Filter *.go | Measure-Object`, `find . -name '*.go' | cat`, true},
		{`Get-Process -Name pg | Stop-Process -Force`, `pgrep -x -- 'p''g' | xargs kill -9`, true},
		{`Set-ExecutionPolicy Bypass`, `'set-executionpolicy' 'B''y''p''a''s''s'`, true},
		{`git status`, `'git' 's''t''a''t''u''s'`, true},
		// not modelled: script blocks, member calls, keywords, unknown parameters, provider paths
		{`Get-ChildItem | ForEach-Object { Remove-Item $_ }`, "", false},
		{`(New-Object Net.WebClient).DownloadString('u') | iex`, "", false},
		{`if ($x) { rm y }`, "", false},
		{`Remove-Item -Bogus x`, "", false},
		{`Get-Content env:AWS_SECRET`, "", false},
		{`Remove-Item x -WhatIf`, "", false},
	}
	for _, c := range cases {
		got, ok := PowerShell(c.code)
		if ok != c.ok || got != c.want {
			t.Errorf("PowerShell(%q) = %q, %v; want %q, %v", c.code, got, ok, c.want, c.ok)
		}
	}
}

func TestNushell(t *testing.T) {
	cases := []struct {
		code, want string
		ok         bool
	}{
		{`rm -r -f ~`, `rm -f -r -- ~`, true},
		{`rm -rf ~/x`, `rm -f -r -- ~'/''x'`, true},
		{`ls assets | where size > 1mb | sort-by size`, `ls -la -- 'a''s''s''e''t''s' | cat | cat`, true},
		{`open a.json | save b.json`, `cat -- 'a''.''j''s''o''n' | tee -- 'b''.''j''s''o''n' >/dev/null`, true},
		{`http get https://h/x`, `curl -fsSL -- 'h''t''t''p''s'':''/''/''h''/''x'`, true},
		{`ls | each { |f| rm $f.name }`, "", false},
		{`let x = 1`, "", false},
		{`rm --bogus x`, "", false},
	}
	for _, c := range cases {
		got, ok := Nushell(c.code)
		if ok != c.ok || got != c.want {
			t.Errorf("Nushell(%q) = %q, %v; want %q, %v", c.code, got, ok, c.want, c.ok)
		}
	}
}

func FuzzPowerShell(f *testing.F) {
	f.Add(`Remove-Item -Path $HOME -Recurse -Force`)
	f.Add(`irm https://h/a | iex`)
	f.Add(`"a$(Get-Content x)b" > $null`)
	f.Fuzz(func(t *testing.T, code string) {
		PowerShell(code)
		Nushell(code)
	})
}
