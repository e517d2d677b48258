package shell

import "strings"

// bypassCases: every bypass family of command-guards.md §6, numbered as
// there. Each must surface the real command (or a Problem when it cannot).
var bypassCases = []parseCase{
	// §6.1 wrappers and prefixes
	{name: "1 sudo -u", src: "sudo -u x rm -rf /", commands: []string{"rm -rf / wrap=sudo priv"}},
	{name: "1 env -i VAR", src: "env -i VAR=1 rm -rf /", commands: []string{"rm -rf / wrap=env VAR=1"}},
	{name: "1 VAR=1 prefix", src: "VAR=1 rm -rf /", commands: []string{"rm -rf / VAR=1"}},
	{name: "1 command builtin exec", src: "command rm -rf /; builtin exec rm -rf /", commands: []string{
		"rm -rf / wrap=command", "rm -rf / wrap=builtin,exec"}},
	{name: "1 nice nohup time timeout", src: "nice rm -rf /; nohup rm -rf /; time rm -rf /; timeout 5 rm -rf /", commands: []string{
		"rm -rf / wrap=nice", "rm -rf / wrap=nohup", "rm -rf / wrap=time", "rm -rf / wrap=timeout"}},
	{name: "1 watch stdbuf busybox doas", src: "watch rm -rf /; stdbuf -o0 rm -rf /; busybox rm -rf /; doas rm -rf /", commands: []string{
		"rm -rf / @watch/1 wrap=watch", "rm -rf / wrap=stdbuf", "rm -rf / wrap=busybox", "rm -rf / wrap=doas priv"}},
	{name: "1 spellings of rm", src: `\rm -rf /; /bin/rm -rf /; ./rm -rf /; "rm" -rf /; r''m -rf /; r\m -rf /; $'\x72\x6d' -rf /`,
		commands: []string{"rm -rf /", "rm -rf /", "rm -rf /", "rm -rf /", "rm -rf /", "rm -rf /", "rm -rf /"}},
	{name: "1 unknown wrapper flag fails closed", src: "timeout --bogus 5 rm -rf /", commands: []string{
		"timeout --bogus 5 rm -rf /"},
		problems: []string{"unknown option --bogus for timeout; cannot tell which command it runs"}},

	// §6.2 shell re-entry
	{name: "2 bash -c -lc sh -c zsh -c", src: `bash -c 'rm -rf /'; bash -lc 'rm -rf /'; sh -c 'rm -rf /'; zsh -c 'rm -rf /'`,
		commands: []string{
			"bash -c \"rm -rf /\"", "rm -rf / @bash -c/1 wrap=bash",
			"bash -lc \"rm -rf /\"", "rm -rf / @bash -c/1 wrap=bash",
			"sh -c \"rm -rf /\"", "rm -rf / @bash -c/1 wrap=sh",
			"zsh -c \"rm -rf /\"", "rm -rf / @bash -c/1 wrap=zsh"}},
	{name: "2 eval", src: "eval 'rm -rf /'", commands: []string{"eval \"rm -rf /\"", "rm -rf / @eval/1 wrap=eval"}},
	{name: "2 here-string and here-doc to shells and python -", src: "bash <<< 'rm -rf /'; sh <<X\nrm -rf /\nX\npython - <<< 'import os'",
		commands: []string{
			"bash redir=<<<\"rm -rf /\" body=\"rm -rf /\\n\" stdin=herestring:\"rm -rf /\\n\"", "rm -rf / @herestring/1 wrap=bash",
			"sh redir=<<X body=\"rm -rf /\\n\" stdin=heredoc:\"rm -rf /\\n\"", "rm -rf / @heredoc/1 wrap=sh",
			"python - redir=<<<\"import os\" body=\"import os\\n\" inline=python/herestring:\"import os\\n\" stdin=herestring:\"import os\\n\""}},
	{name: "2 ssh", src: "ssh host 'rm -rf /'", commands: []string{
		"ssh host \"rm -rf /\"", "rm -rf / @ssh/1 wrap=ssh remote=host"}},
	{name: "2 find -exec sh -c", src: `find . -exec sh -c 'rm -rf /' \;`, commands: []string{
		"find . -exec sh -c \"rm -rf /\" ;", "sh -c \"rm -rf /\" @find -exec/1 wrap=find", "rm -rf / @bash -c/2 wrap=find,sh"}},
	{name: "2 xargs sh -c", src: `echo x | xargs sh -c 'rm -rf /'`, commands: []string{
		"echo x", "sh -c \"rm -rf /\" x @xargs/1 wrap=xargs from=echo", "rm -rf / @bash -c/2 wrap=xargs,sh"}},
	{name: "2 parallel", src: `parallel 'rm -rf {}' ::: /`, commands: []string{
		"parallel \"rm -rf {}\" ::: /", "rm -rf / @parallel/1 wrap=parallel"}},
	{name: "2 su -c", src: `su -c 'rm -rf /'`, commands: []string{
		"su -c \"rm -rf /\" priv", "rm -rf / @su -c/1 wrap=su priv"}},
	{name: "2 docker and kubectl exec sh -c", src: `docker exec c sh -c 'rm -rf /'; kubectl exec p -- sh -c 'rm -rf /'`,
		commands: []string{
			"docker exec c sh -c \"rm -rf /\"", "sh -c \"rm -rf /\" @container exec/1 wrap=docker remote=docker:c",
			"rm -rf / @bash -c/2 wrap=docker,sh remote=docker:c",
			"kubectl exec p -- sh -c \"rm -rf /\"", "sh -c \"rm -rf /\" @container exec/1 wrap=kubectl remote=kubectl:p",
			"rm -rf / @bash -c/2 wrap=kubectl,sh remote=kubectl:p"}},

	// §6.3 dynamic construction
	{name: "3 a=rm; $a -rf ~", src: "a=rm; $a -rf ~", commands: []string{"- a=rm", "rm -rf /home/u"}},
	{name: "3 IFS as spaces", src: "rm${IFS}-rf${IFS}/; rm${IFS:0:1}-rf${IFS:0:1}/", commands: []string{"rm -rf /", "rm -rf /"}},
	{name: "3 tracked path", src: "H=~/.bashrc; sed -i 's/a/b/' $H", commands: []string{
		"- H=/home/u/.bashrc", "sed -i s/a/b/ /home/u/.bashrc"}},
	{name: "3 same-command assignment", src: "X=/ rm -rf $X", commands: []string{"rm -rf $X? X=/"}},
	{name: "3 command name from substitution", src: "$(echo rm) -rf /; `echo rm` -rf /", commands: []string{
		"echo rm @cmdsubst/1", "rm -rf /", "echo rm @cmdsubst/1", "rm -rf /"}},
	{name: "3 command name from an unknown substitution", src: "$(curl -s x) -rf /", commands: []string{
		"curl -s x @cmdsubst/1", "$(curl -s x)? -rf /"},
		problems: []string{"command name not static: $(curl -s x)"}},
	{name: "3 eval of substitution and source of process substitution", src: `eval "$(echo rm -rf /)"; source <(echo rm -rf /)`,
		commands: []string{"echo rm -rf / @cmdsubst/1", `eval "rm -rf /"`, "rm -rf / @eval/1 wrap=eval",
			"echo rm -rf / @procsubst/1", `source "<(echo rm -rf /)"?`},
		problems: []string{"source runs code from a file that is not static: <(echo rm -rf /)"}},
	{name: "3 eval of decoded base64", src: `eval "$(echo cm0gLXJmIH4= | base64 -d)"`,
		commands: []string{"echo cm0gLXJmIH4= @cmdsubst/1", "base64 -d @cmdsubst/1 stdin=pipe:\"cm0gLXJmIH4=\\n\" from=echo",
			`eval "rm -rf ~"`, "rm -rf /home/u @eval/1 wrap=eval"}},
	{name: "3 arrays and indirection", src: `a=(rm -rf /); ${a[@]}; "${a[@]:0:1}" x; b[1]=y; ${b[@]}; ${!x} -rf /`, commands: []string{
		"- a=\"(rm -rf /)\"?", "rm -rf /", "rm x", "- b=y?", "${b[@]}?", "${!x}? -rf /"},
		problems: []string{"command name not static: ${b[@]}", "command name not static: ${!x}"}},

	// §6.4 encoding
	{name: "4 base64 into sh (decoded statically)", src: "base64 -d <<< cm0gLXJmIC8= | sh", commands: []string{
		"base64 -d redir=<<<cm0gLXJmIC8= body=\"cm0gLXJmIC8=\\n\" stdin=herestring:\"cm0gLXJmIC8=\\n\"",
		"sh stdin=pipe:\"rm -rf /\" from=base64", "rm -rf / @pipe/1 wrap=sh"}},
	{name: "4 xxd into bash (decoded statically)", src: "echo 726d202d7266202f | xxd -r -p | bash", commands: []string{
		"echo 726d202d7266202f", "xxd -r -p stdin=pipe:\"726d202d7266202f\\n\" from=echo",
		"bash stdin=pipe:\"rm -rf /\" from=xxd", "rm -rf / @pipe/1 wrap=bash"}},
	{name: "4 openssl into sh", src: "openssl enc -d -aes256 -in x | sh", commands: []string{
		"openssl enc -d -aes256 -in x", "sh stdin=pipe:\"\"? from=openssl"},
		problems: []string{"sh reads commands from a pipe from openssl whose content is not static"}},
	{name: "4 printf and echo -e escapes into sh", src: `printf '\x72\x6d -rf /' | sh; echo -e '\x72\x6d -rf /' | sh`, commands: []string{
		`printf "\\x72\\x6d -rf /"`, "sh stdin=pipe:\"rm -rf /\" from=printf", "rm -rf / @pipe/1 wrap=sh",
		`echo -e "\\x72\\x6d -rf /"`, "sh stdin=pipe:\"rm -rf /\\n\" from=echo", "rm -rf / @pipe/1 wrap=sh"}},

	// §6.5 interpreters
	{name: "5 python shutil.rmtree is inline code", src: `python3 -c 'import shutil; shutil.rmtree("/home")'`, commands: []string{
		`python3 -c "import shutil; shutil.rmtree(\"/home\")" inline=python/argv:"import shutil; shutil.rmtree(\"/home\")"`}},
	{name: "5 python subprocess with a dynamic argument", src: `python3 -c 'import subprocess,sys; subprocess.call(sys.argv[1], shell=True)'`,
		commands: []string{`python3 -c "import subprocess,sys; subprocess.call(sys.argv[1], shell=True)" inline=python/argv:"import subprocess,sys; subprocess.call(sys.argv[1], shell=True)"`},
		problems: []string{"python code runs subprocess.call with an argument that is not a literal"}},
	{name: "5 node fs.rmSync and perl unlink and ruby FileUtils", src: `node -e 'fs.rmSync("/h")'; perl -e 'unlink "/x"'; ruby -e 'FileUtils.rm_rf("/")'`,
		commands: []string{
			`node -e "fs.rmSync(\"/h\")" inline=node/argv:"fs.rmSync(\"/h\")"`,
			`perl -e "unlink \"/x\"" inline=perl/argv:"unlink \"/x\""`,
			`ruby -e "FileUtils.rm_rf(\"/\")" inline=ruby/argv:"FileUtils.rm_rf(\"/\")"`}},
	{name: "5 awk print to pipe and to file", src: `awk '{print | "sh"} END {print "x" > "/etc/passwd"}'`, commands: []string{
		`awk "{print | \"sh\"} END {print \"x\" > \"/etc/passwd\"}" inline=awk/argv:"{print | \"sh\"} END {print \"x\" > \"/etc/passwd\"}"`,
		"sh @interpreter/1 wrap=awk"}},
	{name: "5 powershell encoded command", src: "powershell -EncodedCommand cgBtACAALQByAGYAIAAvAA==", commands: []string{
		`powershell -EncodedCommand cgBtACAALQByAGYAIAAvAA== inline=powershell/argv:"rm -rf /"`,
		"rm -rf / @powershell/1 wrap=powershell"}},

	// §6.6 stdin and REPL channels
	{name: "6 echo FLUSHALL into redis-cli", src: "echo FLUSHALL | redis-cli", commands: []string{
		"echo FLUSHALL", "redis-cli stdin=pipe:\"FLUSHALL\\n\" from=echo"}},
	{name: "6 psql and sqlite3 from files", src: "psql < drop.sql; sqlite3 db < drop.sql", commands: []string{
		"psql redir=<drop.sql stdin=file:\"\"?", "sqlite3 db redir=<drop.sql stdin=file:\"\"?"}},
	{name: "6 mysql -e substitution", src: `mysql -e "$(cat x)"`, commands: []string{
		"cat x @cmdsubst/1", `mysql -e "$(cat x)"?`}},
	{name: "6 kubectl delete -f - from a here-doc", src: "kubectl delete -f - <<EOF\nkind: Namespace\nEOF", commands: []string{
		"kubectl delete -f - redir=<<EOF body=\"kind: Namespace\\n\" stdin=heredoc:\"kind: Namespace\\n\""}},

	// §6.7 git specific (argv kept whole for the rules)
	{name: "7 git global options and alias config", src: `git -C . reset --hard; git -c alias.x='!rm -rf ~' x`, commands: []string{
		"git -C . reset --hard", "git -c \"alias.x=!rm -rf ~\" x"}},

	// §6.8 data versus code
	{name: "8 quoted heredoc marker is data", src: "echo '<<EOF'; rm -rf ~", commands: []string{"echo <<EOF", "rm -rf /home/u"}},
	{name: "8 command after here-doc", src: "cat <<EOF; rm -rf ~\nhello\nEOF", commands: []string{
		"cat redir=<<EOF body=\"hello\\n\" stdin=heredoc:\"hello\\n\"", "rm -rf /home/u"}},
	{name: "8 quoted separator does not split", src: "git status '&&' rm -rf /", commands: []string{"git status && rm -rf /"}},

	// §6.9 target evasion
	{name: "9 targets", src: `rm -rf -- "/"; rm -rf /tmp/../home/u; rm -r /tmp/x ~/real; rm -f ~/Downloads/*.md`, commands: []string{
		"rm -rf -- /", "rm -rf /tmp/../home/u", "rm -r /tmp/x /home/u/real", "rm -f /home/u/Downloads/*.md"}},
	{name: "9 cd home then glob", src: "cd ~ && rm -rf *", commands: []string{"cd /home/u", "rm -rf * dir=/home/u"}},
	{name: "9 TMPDIR prefix does not resolve the target", src: "TMPDIR=/home/u rm -rf $TMPDIR/x", commands: []string{
		"rm -rf $TMPDIR/x? TMPDIR=/home/u"}},

	// §6.10 guard-level attacks
	{name: "10 many commands", src: strings.Repeat("true;", 600) + "rm -rf /", commands: repeatStrings("true", 512),
		problems: []string{"budget exceeded: more than 512 commands"}},
	{name: "10 deep substitution", src: strings.Repeat("$(", 12) + "rm -rf /" + strings.Repeat(")", 12),
		commands: deepSubstCommands(12, 8), problems: deepSubstProblems(12, 8)},
	{name: "10 script written then run", src: "echo 'rm -rf /' > x.sh && bash x.sh", commands: []string{
		"echo \"rm -rf /\" redir=>x.sh", "bash x.sh"}},
	{name: "10 guard bypass variable", src: "DCG_BYPASS=1 git reset --hard", commands: []string{"git reset --hard DCG_BYPASS=1"}},

	// also seen: aliases, functions, line continuation, find + form, CR
	{name: "also alias and function", src: "alias x='rm -rf ~'; x; f(){ rm -rf ~; }; f", commands: []string{
		"alias \"x=rm -rf ~\"", "rm -rf /home/u @alias/1", "rm -rf /home/u @function/1"}},
	{name: "also line continuation in a word", src: "git re\\\nset --hard", commands: []string{"git reset --hard"}},
	{name: "also find exec plus", src: "find / -exec rm -rf {} +", commands: []string{
		"find / -exec rm -rf {} +", "rm -rf /* @find -exec/1 wrap=find"}},
	{name: "also carriage return", src: "echo ok\rrm -rf /", commands: []string{"echo ok rm -rf /"},
		problems: []string{"command contains a carriage return, which bash and this parser split differently"}},
	{name: "also arithmetic subscript", src: "echo $[ x='a[$(touch F)]', x ]", commands: []string{"touch F @subscript/1", `echo "$[ x='a[$(touch F)]', x ]"?`},
		problems: []string{"an arithmetic expression evaluates text that holds a command substitution ('a[$(touch F)]'): bash runs it when it evaluates an array subscript"}},
	{name: "arithmetic of a variable runs its subscript's code", src: "a='x[$(rm -rf ~/)]'; echo $((a + 1))", commands: []string{
		"rm -rf /home/u/ @subscript/1", `- a="x[$(rm -rf ~/)]"`, "echo 1"},
		problems: []string{"an arithmetic expression evaluates text that holds a command substitution (a): bash runs it when it evaluates an array subscript"}},
	{name: "also arithmetic of a variable", src: "x='a[$(id)]'; [[ $x -eq 1 ]]", commands: []string{"id @subscript/1", "- x=a[$(id)]"},
		problems: []string{"an arithmetic expression evaluates $x, which holds a command substitution: bash runs it when it evaluates an array subscript"}},

	// A program name the shell resolves from the filesystem, or spelled to
	// imitate another (issue 30).
	{name: "glob as a program name", src: `/???/r? -rf /; /bin/r[m] -rf /`, commands: []string{"r? -rf /", "r[m] -rf /"},
		problems: []string{"command name is a glob pattern, which the shell resolves against the filesystem when it runs: /???/r?",
			"command name is a glob pattern, which the shell resolves against the filesystem when it runs: /bin/r[m]"}},
	{name: "a test bracket is no glob", src: `[ -f x ]; "r*" x`, commands: []string{"[ -f x ]", "r* x"}},
	{name: "look-alike program names", src: "ｒｍ -rf /; rм -rf /; git\u3000status", commands: []string{"rm -rf /", "rm -rf /", "git\u3000status"},
		problems: []string{"command name has characters outside ASCII, which can imitate another program's name: ｒｍ",
			"command name has characters outside ASCII, which can imitate another program's name: rм",
			"command name has characters outside ASCII, which can imitate another program's name: git\u3000status"}},

	// Subscripts are code (issue 30): bash expands an indexed array's
	// subscript wherever a variable name may carry one.
	{name: "subscript of an assignment", src: `a[$(rm -rf /)]=1`, commands: []string{"rm -rf / @cmdsubst/1", "- a=1?"}},
	{name: "subscript of a read name", src: `read -r -a 'a[$(rm -rf /)]' <<< x`, commands: []string{
		`read -r -a "a[$(rm -rf /)]" redir=<<<x body="x\n" stdin=herestring:"x\n"`, "rm -rf / @subscript/1 wrap=read"}},
	{name: "subscript of printf -v, backquoted", src: "printf -v 'a[`rm -rf /`]' x", commands: []string{
		"printf -v \"a[`rm -rf /`]\" x", "rm -rf / @subscript/1 wrap=printf"}},
	{name: "subscripts of test -v, [ -v, [[ -v", src: `test -v 'a[$(rm -rf /)]'; [ -v 'a[$(id)]' ]; [[ -v 'a[$(touch F)]' ]]`,
		commands: []string{`test -v "a[$(rm -rf /)]"`, "rm -rf / @subscript/1 wrap=test", "[ -v a[$(id)] ]", "id @subscript/1 wrap=[",
			"touch F @subscript/1 wrap=[["}},
	{name: "subscripts of declare, local, typeset names", src: `declare 'a[$(rm -rf /)]'=1; local 'b[$(id)]'; typeset -a 'c[$(id)]'=1`,
		commands: []string{"rm -rf / @subscript/1 wrap=declare", `declare "a[$(rm -rf /)]=1"`, "id @subscript/1 wrap=local", "local b[$(id)]",
			"id @subscript/1 wrap=typeset", "typeset -a c[$(id)]=1"}},
	{name: "subscript of a nameref", src: `declare -n r='a[$(rm -rf /)]'`, commands: []string{
		"rm -rf / @subscript/1 wrap=declare", `declare -n "r=a[$(rm -rf /)]" r="a[$(rm -rf /)]"`}},
	{name: "subscript through ${!x}", src: `x='a[$(rm -rf /)]'; echo "${!x}"`, commands: []string{
		`- x="a[$(rm -rf /)]"`, "rm -rf / @subscript/1 wrap=${!x}", "echo ${!x}?"},
		problems: []string{"${!x} expands the variable named by $x, which holds a subscript with a command substitution: bash runs it"}},
	{name: "subscripts of unset, mapfile, getopts, wait -p",
		src: `unset -v 'b[$(id)]'; mapfile -t -n 3 'a[$(rm -rf /)]' < f; getopts ab 'o[$(id)]'; wait -n -p 'p[$(id)]'`,
		commands: []string{"unset -v b[$(id)]", "id @subscript/1 wrap=unset", `mapfile -t -n 3 "a[$(rm -rf /)]" redir=<f stdin=file:""?`,
			"rm -rf / @subscript/1 wrap=mapfile", "getopts ab o[$(id)]", "id @subscript/1 wrap=getopts", "wait -n -p p[$(id)]",
			"id @subscript/1 wrap=wait"}},
	{name: "a subscript not known", src: `read "a[$i]" <<< x`, commands: []string{`read a[$i]? redir=<<<x body="x\n" stdin=herestring:"x\n"`},
		problems: []string{"a variable name whose subscript is not known before it runs (a[$i]): bash evaluates subscripts as code"}},
	{name: "plain names and subscripts stay plain",
		src: `i=2; read "a[$i]" <<< x; unset 'a[1]'; read -r line; declare -n ref=arr; printf -v out %s x; [[ -v HOME ]]`,
		commands: []string{"- i=2", `read a[2] redir=<<<x body="x\n" stdin=herestring:"x\n"`, "unset a[1]", "read -r line",
			"declare -n ref=arr ref=arr", "printf -v out %s x"}},
}

func repeatStrings(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// deepSubstCommands is what n nested $( … ) around rm -rf / yield with a
// depth budget of max: the levels up to max, outermost last.
func deepSubstCommands(n, limit int) []string {
	var out []string
	for depth := limit; depth >= 0; depth-- {
		inner := strings.Repeat("$(", n-depth) + "rm -rf /" + strings.Repeat(")", n-depth)
		line := inner + "?"
		if depth > 0 {
			line += " @cmdsubst/" + itoa(depth)
		}
		out = append(out, line)
	}
	return out
}

func deepSubstProblems(n, limit int) []string {
	out := []string{"budget exceeded: code nested more than " + itoa(limit) + " levels deep"}
	for depth := limit; depth >= 0; depth-- {
		out = append(out, "command name not static: "+strings.Repeat("$(", n-depth)+"rm -rf /"+strings.Repeat(")", n-depth))
	}
	return out
}
