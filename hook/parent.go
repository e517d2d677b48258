package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ancestorArgs returns the command lines of the hook process's ancestors,
// nearest first, as far as they can be read (Linux /proc); nil elsewhere.
// Tests replace it.
var ancestorArgs = procAncestorArgs

// procAncestorArgs walks up to five ancestors through /proc.
func procAncestorArgs() [][]string {
	var out [][]string
	pid := os.Getppid()
	for i := 0; i < 5 && pid > 1; i++ {
		raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if err != nil {
			break
		}
		out = append(out, strings.Split(string(bytes.TrimRight(raw, "\x00")), "\x00"))
		pid = parentOf(pid)
	}
	return out
}

// parentOf reads a process's parent id from /proc/PID/stat; 0 when it
// cannot.
func parentOf(pid int) int {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) state ppid …: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return 0
	}
	fields := strings.Fields(string(raw[i+1:]))
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// geminiHeadless reports whether the Gemini CLI that runs this hook was
// started with a prompt to run without its interface (-p, --prompt), where
// nobody can answer a confirmation: an ask there waits forever. It looks
// for the nearest ancestor whose command line names gemini.
func geminiHeadless() bool {
	for _, args := range ancestorArgs() {
		if !namesGemini(args) {
			continue
		}
		for _, a := range args {
			if a == "-p" || a == "--prompt" || strings.HasPrefix(a, "--prompt=") {
				return true
			}
		}
		return false
	}
	return false
}

// namesGemini reports whether a command line runs the Gemini CLI (its
// executable, or node running its script).
func namesGemini(args []string) bool {
	for i, a := range args {
		if i > 1 { // the program, or node's script
			break
		}
		b := filepath.Base(a)
		if b == "gemini" || b == "gemini.js" || strings.Contains(a, "/gemini-cli/") {
			return true
		}
	}
	return false
}

// agentHeadless reports whether the nearest ancestor that runs one of the
// programs named (its executable, or node running its script) was started
// to run without its interface: with a flag in flags (or --flag=…), or, when
// sub is set, with that sub-command as its first argument (droid exec).
func agentHeadless(names, fragments, flags []string, sub string) bool {
	for _, args := range ancestorArgs() {
		i := programIndex(args, names, fragments)
		if i < 0 {
			continue
		}
		rest := args[i+1:]
		if sub != "" && len(rest) > 0 && rest[0] == sub {
			return true
		}
		for _, a := range rest {
			for _, f := range flags {
				if a == f || strings.HasPrefix(a, f+"=") && strings.HasPrefix(f, "--") {
					return true
				}
			}
		}
		return false
	}
	return false
}

// programIndex is the index of the argument that names one of the
// programs (the executable, or the script node runs), or -1.
func programIndex(args, names, fragments []string) int {
	for i, a := range args {
		if i > 1 {
			break
		}
		b := strings.TrimSuffix(filepath.Base(a), ".js")
		for _, n := range names {
			if b == n {
				return i
			}
		}
		for _, f := range fragments {
			if strings.Contains(a, f) {
				return i
			}
		}
	}
	return -1
}

// copilotHeadless: Copilot CLI started with a prompt (-p, --prompt) runs
// without its interface and denies an ask by itself.
func copilotHeadless() bool {
	return agentHeadless([]string{"copilot", "copilot-linux-x64", "copilot-darwin-arm64", "copilot-darwin-x64"},
		[]string{"/@github/copilot"}, []string{"-p", "--prompt"}, "")
}

// qwenHeadless: Qwen Code started with a prompt (-p, --prompt) runs without
// its interface.
func qwenHeadless() bool {
	return agentHeadless([]string{"qwen"}, []string{"/@qwen-code/"}, []string{"-p", "--prompt"}, "")
}

// droidHeadless: `droid exec` runs without its interface.
func droidHeadless() bool {
	return agentHeadless([]string{"droid"}, []string{"/@factory/cli"}, nil, "exec")
}
