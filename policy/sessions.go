package policy

import (
	"fmt"
	"strings"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/internal/lazyre"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// Other sessions and other processes. What another program holds — the
// approval page key a serve printed, a token in another process's
// environment, the keys ssh-agent keeps in memory — is out of the call's
// reach unless the call reads it from there:
//
//   - another session's terminal (tmux capture-pane, pipe-pane,
//     save-buffer, show-buffer; screen -X hardcopy, log) shows what ran
//     in it, serve's output included; typing into it (tmux send-keys,
//     screen -X stuff) runs commands toolguard never sees. Both are
//     self.protect;
//   - another process's descriptors, environment and memory under /proc
//     (/proc/PID/fd/*, environ, mem, …, whatever the PID), and
//     toolguard's own journal (journalctl naming toolguard, systemctl
//     status toolguard, which prints its last lines) are self.protect;
//   - attaching to another process (gdb -p, strace -p, ltrace -p, gcore,
//     lldb -p, py-spy, ptrace or process_vm_readv in code) reads its
//     memory: secret-read (ask) at least, critical when the process holds
//     credentials (ssh-agent, gpg-agent, a keyring, a password manager),
//     self.protect when it is toolguard;
//   - an account with uid 0 (useradd -o -u 0, usermod -u 0) is root under
//     another name: critical.

// terminalVerbs are the tmux commands that read or type into another
// pane; tmux accepts any unambiguous prefix of a command's name.
var terminalVerbs = []string{"capture-pane", "capturep", "pipe-pane", "pipep", "save-buffer", "saveb",
	"show-buffer", "showb", "send-keys", "send", "paste-buffer", "pasteb"}

// screenVerbs are screen's -X commands that do the same.
var screenVerbs = []string{"hardcopy", "log", "logfile", "stuff", "readbuf", "writebuf", "paste", "exec"}

// procEntry is a path into another process's descriptors, environment or
// memory; the PID part may be any word (a $(pgrep …) included).
var procEntry = lazyre.Regexp{Expr: `^/proc/([^/]+)/(fd|fdinfo|environ|mem|map_files|root|cwd|task/[^/]+/(?:fd|environ|mem))(/|$)`}

// credentialHolders are programs that keep credentials in memory.
var credentialHolders = lazyre.Regexp{Expr: `(?i)ssh-agent|ssh_agent_pid|gpg-agent|gnome-keyring|kwallet|keepass|1password|\bop\b|bitwarden|\bbw\b|secret-service|keyring|vault|sshd|pass(?:word)?-?manager|lastpass|lpass|seahorse|polkit`}

// attachers are debuggers and tracers, with the options that name the
// process they attach to; "" means any operand is a process.
var attachers = map[string][]string{
	"gdb": {"-p", "--pid", "attach", "-pid"}, "lldb": {"-p", "--attach-pid", "-n", "--attach-name"},
	"strace": {"-p"}, "ltrace": {"-p"}, "gcore": {""}, "py-spy": {"--pid", "-p"}, "rbspy": {"--pid", "-p"},
	"perf": {"-p", "--pid"}, "bpftrace": {"-p"}, "pwndbg": {"-p"}, "memdump": {""}, "criu": {"-t", "--tree"},
	"procdump": {"-p", ""}, "gdbserver": {"--attach"},
}

// ptraceCode is code that reads another process's memory.
var ptraceCode = lazyre.Regexp{Expr: `(?i)\bptrace\b|process_vm_readv|PTRACE_ATTACH|/proc/[^/'"\s]+/mem`}

// otherSessions judges cmd for what it reads from, or types into, other
// sessions and processes.
//
// args are the command's argv values, which it does not keep.
func (e *evaluation) otherSessions(cmd *shell.Command, args []string) {
	self := func(reason string) {
		e.add(selfFinding(cmd, reason))
	}
	switch cmd.Name {
	case "tmux":
		for _, a := range args[1:] {
			for _, v := range terminalVerbs {
				if a == v || len(a) >= 4 && strings.HasPrefix(v, a) && !strings.HasPrefix(a, "-") {
					self(fmt.Sprintf("tmux %s reads or types into another terminal session: its history holds what ran there (a page key toolguard serve printed, tokens), and what is typed there runs where toolguard does not see it.", a))
					return
				}
			}
		}
	case "journalctl":
		for _, a := range args[1:] {
			if containsFold(a, "toolguard") {
				self("Reading toolguard's own journal is not allowed: a service's output is where it announced its approval page.")
				return
			}
		}
	case "systemctl":
		if containsWord(args, "status") {
			for _, a := range args[1:] {
				if containsFold(a, "toolguard") && !containsWord(args, "-n0") && !containsWord(args, "--lines=0") {
					self("systemctl status prints the last lines of toolguard's journal, where a service's output went.")
					return
				}
			}
		}
	case "useradd", "adduser", "usermod", "luseradd", "lusermod":
		if uidZero(cmd.Args()) {
			e.add(analysis.Critical("system.uid-zero", risk.CatPrivilege, cmd.Span, normalized(cmd),
				fmt.Sprintf("%s makes an account with user id 0: root under another name, with a password the agent chose.", cmd.Name),
				"a person creates accounts, never with uid 0"))
		}
	}
	if cmd.Name == "screen" || containsWord(cmd.Wrappers, "screen") { // screen -x NAME -X … is unwrapped as NAME
		for i, a := range args {
			if a == "-X" && i+1 < len(args) && containsWord(screenVerbs, args[i+1]) {
				self(fmt.Sprintf("screen -X %s reads or types into another terminal session: its history holds what ran there, and what is typed there runs where toolguard does not see it.", args[i+1]))
				return
			}
		}
	}
	for _, w := range cmd.Argv[1:] {
		e.procPath(cmd, w)
	}
	for _, r := range cmd.Redirects {
		if !r.IsHereDoc() {
			e.procPath(cmd, r.Target)
		}
	}
	e.attach(cmd, args)
}

// procPath judges a word naming another process's entries under /proc.
func (e *evaluation) procPath(cmd *shell.Command, w shell.Word) {
	v := strings.TrimPrefix(w.Value, "if=") // dd if=/proc/…
	// what procEntry starts with: no expression run for every word
	if !strings.HasPrefix(v, "/proc/") {
		return
	}
	m := procEntry.Get().FindStringSubmatch(v)
	if m == nil || m[1] == "self" || m[1] == "thread-self" {
		return
	}
	e.add(risk.Finding{Rule: "self.protect", Category: risk.CatSelfProtection, Tier: risk.Destructive,
		Blast: risk.BlastHigh, Verdict: risk.Deny, Span: w.Span, Subject: w.Value,
		Reason: fmt.Sprintf("%s is another process's %s: its output streams, environment and memory hold what it was given (toolguard's page key and tokens among them).",
			w.Value, strings.Split(m[2], "/")[0]),
		Suggestion: "read what the process writes to files or logs it keeps for you, not its descriptors"})
}

// attach judges a debugger or tracer attached to another process, and
// code that reads another process's memory.
func (e *evaluation) attach(cmd *shell.Command, args []string) {
	target, attaches := "", false
	if opts, ok := attachers[cmd.Name]; ok {
		for i, a := range args[1:] {
			for _, o := range opts {
				switch {
				case o == "" && !strings.HasPrefix(a, "-"):
					attaches, target = true, target+" "+a
				case o != "" && a == o && i+2 < len(args):
					attaches, target = true, target+" "+args[i+2]
				case o != "" && strings.HasPrefix(o, "-") && strings.HasPrefix(a, o) && len(a) > len(o):
					attaches, target = true, target+" "+strings.TrimPrefix(strings.TrimPrefix(a, o), "=")
				}
			}
		}
	}
	if in := cmd.Inline; in != nil && ptraceCode.MayMatch(in.Code) && ptraceCode.Get().MatchString(in.Code) {
		attaches, target = true, cmd.Inline.Code
	}
	if !attaches {
		return
	}
	text := target + " " + strings.Join(args, " ")
	switch {
	case containsFold(text, "toolguard"):
		e.add(selfFinding(cmd, fmt.Sprintf("%s attaches to toolguard's own process and reads its memory: the page key and tokens it holds.", cmd.Name)))
	case credentialHolders.Get().MatchString(text):
		e.add(analysis.Critical("process.attach-credentials", risk.CatSecretRead, cmd.Span, normalized(cmd),
			fmt.Sprintf("%s attaches to a process that holds credentials (%s) and reads its memory: the keys and passphrases it keeps.", cmd.Name, credentialHolders.Get().FindString(text)),
			"a person debugs credential agents in their own terminal"))
	default:
		e.add(risk.Finding{Rule: "process.attach", Category: risk.CatSecretRead, Tier: risk.Destructive,
			Blast: risk.BlastHigh, Verdict: risk.Ask, Span: cmd.Span, Subject: normalized(cmd),
			Reason:     fmt.Sprintf("%s attaches to another process and reads its memory, where secrets it was given live.", cmd.Name),
			Suggestion: "debug a program the call starts itself (gdb --args prog), not a running process"})
	}
}

// uidZero reports whether useradd/usermod options give the account uid 0.
func uidZero(args []shell.Word) bool {
	for i, w := range args {
		v := w.Value
		switch {
		case (v == "-u" || v == "--uid") && i+1 < len(args):
			if isZero(args[i+1].Value) {
				return true
			}
		case strings.HasPrefix(v, "--uid="):
			if isZero(v[len("--uid="):]) {
				return true
			}
		case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "u"):
			if _, rest, _ := strings.Cut(v, "u"); rest != "" && isZero(rest) {
				return true
			}
		}
	}
	return false
}

// isZero reports whether a uid is 0 in any spelling (0, 00, +0).
func isZero(v string) bool {
	v = strings.TrimPrefix(v, "+")
	return v != "" && strings.Trim(v, "0") == ""
}
