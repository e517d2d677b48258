package shell

import (
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
)

// producedText returns what a pipeline producer writes to stdout when that
// is statically known: echo, printf, and cat of a here-doc or here-string.
func producedText(c *Command) (string, bool) {
	for i := range c.Redirects {
		if writesStdout(&c.Redirects[i]) {
			return "", true
		}
	}
	return Output(c)
}

// Output returns the text a command prints when it is statically known —
// echo, printf, cat of a here-document or here-string, base64 -d and xxd -r
// of known input — whether it goes to a pipe or to a file the command's
// output is redirected to (echo '…' > run.sh). ok is false otherwise.
func Output(c *Command) (text string, ok bool) {
	if !allKnown(c.Argv) || c.Remote != "" {
		return "", false
	}
	switch c.Name {
	case "echo":
		return echoText(c.Args())
	case "printf":
		return printfText(c.Args())
	case "cat":
		if len(c.Args()) == 0 && c.Stdin != nil {
			return c.Stdin.Text, c.Stdin.Known
		}
	case "base64":
		return decodeStdin(c, base64Decode, "-d", "--decode", "-D")
	case "xxd":
		return decodeStdin(c, hexDecode, "-r")
	case "awk", "gawk", "mawk", "nawk":
		if c.Inline != nil && c.Inline.Known && c.Inline.Via == "argv" {
			if out, _, ok := AwkPrints(c.Inline.Code); ok {
				return out, true
			}
		}
	}
	return "", false
}

// decodeStdin decodes a known stdin for base64 -d and xxd -r -p, so that
// "echo cm0gLXJmIC8= | base64 -d | sh" is analysed like "rm -rf /".
func decodeStdin(c *Command, decode func(string) (string, bool), flags ...string) (string, bool) {
	if c.Stdin == nil || !c.Stdin.Known || !hasAnyArg(c, flags) {
		return "", false
	}
	return decode(c.Stdin.Text)
}

func hasAnyArg(c *Command, flags []string) bool {
	for _, a := range c.Args() {
		if slices.Contains(flags, a.Value) {
			return true
		}
	}
	return false
}

func base64Decode(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
	return string(b), err == nil
}

func hexDecode(s string) (string, bool) {
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	return string(b), err == nil
}

func allKnown(ws []Word) bool {
	for _, w := range ws {
		if !w.Known {
			return false
		}
	}
	return true
}

// echoText renders bash's echo with its -n, -e and -E options.
func echoText(args []Word) (string, bool) {
	newline, escapes := true, false
	for len(args) > 0 && isEchoFlags(args[0].Value) {
		for _, f := range args[0].Value[1:] {
			switch f {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	text, _ := joinValues(args)
	if escapes {
		var ok bool
		if text, ok = formatText("%b", []string{text}); !ok {
			return "", false
		}
	}
	if newline {
		text += "\n"
	}
	return text, true
}

func isEchoFlags(s string) bool {
	return len(s) > 1 && s[0] == '-' && strings.Trim(s[1:], "neE") == ""
}

// printfText renders printf FORMAT ARGS…; printf -v writes no output.
func printfText(args []Word) (string, bool) {
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0].Value, "-") {
		return "", len(args) > 0 && args[0].Value == "-v"
	}
	vals := make([]string, len(args)-1)
	for i, a := range args[1:] {
		vals[i] = a.Value
	}
	return formatText(args[0].Value, vals)
}

// formatText applies a printf format, repeating it while arguments remain.
func formatText(format string, args []string) (string, bool) {
	cfg := &expand.Config{Env: expand.ListEnviron()}
	var sb strings.Builder
	for range 64 {
		s, n, err := expand.Format(cfg, format, args)
		if err != nil {
			return "", false
		}
		sb.WriteString(s)
		if n <= 0 || n >= len(args) {
			return sb.String(), true
		}
		args = args[n:]
	}
	return "", false
}

// Decodes reports whether c's output is text it decoded from its input or
// its arguments, so that the code a shell or eval runs from it is hidden
// from whoever reads the command line: base64 -d and xxd -r of known
// input, and echo -e or printf whose escapes (\x72, \162) spell letters
// or digits ("\x72\x6d -rf /" is rm -rf /).
func Decodes(c *Command) bool {
	if c == nil {
		return false
	}
	switch c.Name {
	case "base64":
		return hasAnyArg(c, []string{"-d", "--decode", "-D"})
	case "xxd":
		return hasAnyArg(c, []string{"-r"})
	case "echo", "printf":
		if c.Name == "echo" && !hasAnyArg(c, []string{"-e"}) {
			return false
		}
		for _, a := range c.Args() {
			if escapesAlphanumeric(a.Value) {
				return true
			}
		}
	}
	return false
}

// escapesAlphanumeric reports whether s holds a hexadecimal (\xHH) or
// octal (\NNN, \0NNN) escape of a letter or digit, which only hides what
// would read plainly.
func escapesAlphanumeric(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		var v uint64
		var err error
		switch r := s[i+1:]; {
		case r[0] == 'x' && len(r) >= 3:
			v, err = strconv.ParseUint(r[1:3], 16, 8)
		case r[0] == '0' && len(r) >= 4:
			v, err = strconv.ParseUint(r[1:4], 8, 8)
		case r[0] >= '1' && r[0] <= '3' && len(r) >= 3:
			v, err = strconv.ParseUint(r[:3], 8, 8)
		default:
			continue
		}
		if err == nil && (v >= '0' && v <= '9' || v >= 'a' && v <= 'z' || v >= 'A' && v <= 'Z') {
			return true
		}
	}
	return false
}

// IsShell reports whether name is one of the shells (sh, bash, dash, zsh,
// …), whose code a command line can hand over in -c or on stdin.
func IsShell(name string) bool { return isShellName(name) }
