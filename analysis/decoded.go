package analysis

import (
	"strconv"
	"strings"

	"github.com/toolguard/toolguard/call"
	"github.com/toolguard/toolguard/risk"
	"github.com/toolguard/toolguard/shell"
)

// Code that decodes a literal and runs it (python -c
// "exec(base64.b64decode('…'))", node -e "eval(Buffer.from('…','base64')…)",
// perl -e 'eval pack("H*","…")', exec(codecs.decode('…','rot13'))) hides what
// it does from a reading of its text. The literal is in the command line,
// so it is decoded here, as the interpreter would, and the payload is
// judged as code in its own right: a payload that deletes the home
// directory is denied as the same code written plainly would be. Literals
// of code that calls no decoder are left alone.

// maxDecodeDepth bounds the layers of encoding peeled from one literal (a
// base64 payload that decodes another); a payload still encoded below it
// is unverifiable.
const maxDecodeDepth = 4

// decodeMarkers are the calls through which code decodes text: base64, hex
// and rot13 in the languages toolguard sees as one-liners.
var decodeMarkers = []string{"b64decode", "base64", "decodebytes", "fromhex", "unhexlify", "a2b_hex", "a2b_base64",
	"pack(", "atob(", "decode64", "unpack", "rot13", "rot_13", "rot-13", "buffer.from(", "hex2bin", "str_rot13",
	"frombase64string", "decodestring", "chr(", "chr,", "fromcharcode("}

// rot13Markers name the rot13 codec.
var rot13Markers = []string{"rot13", "rot_13", "rot-13"}

// decoded judges the payloads of the literals that code decodes, each as
// code run by the same command.
func (a *Analysis) decoded(cmd *shell.Command, code string, span risk.Span, dir string, h *markerHits) {
	if !h.has(mDecode) {
		return
	}
	for _, text := range decodedLiterals(code, h.has(mRot13)) {
		if a.decodeDepth >= maxDecodeDepth {
			a.add(risk.Finding{Rule: "effects.decoded-unverifiable", Category: risk.CatUnverifiable, Tier: risk.Execute,
				Blast: risk.BlastUnknown, Verdict: risk.Ask, Span: span, Subject: Shorten(code),
				Reason:     "The code decodes text that decodes to yet more encoded text, more layers than toolguard peels: what finally runs is not known.",
				Suggestion: "decode the payload and run it as plain code, or let a person approve"})
			return
		}
		a.decodeDepth++
		a.code(cmd, text, span, dir)
		if spawns(cmd, h) {
			a.embeddedLine(cmd, text, span) // os.system(b64decode(…)): the payload is the command
		}
		a.decodeDepth--
	}
}

// DecodedLiterals returns the text of code's string literals that decode,
// as its decoders would: base64 and hex of printable text, and, when the
// code names the rot13 codec, every literal rotated. Code that calls no
// decoder has none.
func DecodedLiterals(code string) []string {
	low := strings.ToLower(code)
	if !containsAny(low, decodeMarkers) {
		return nil
	}
	return decodedLiterals(code, containsAny(low, rot13Markers))
}

// decodedLiterals is DecodedLiterals of code that calls a decoder; rot is
// true when it names the rot13 codec.
func decodedLiterals(code string, rot bool) []string {
	out := charCodeTexts(code)
	for _, lit := range stringLiterals(code) {
		if text, ok := call.DecodeLiteral(lit); ok {
			out = append(out, text)
			continue
		}
		if rot && strings.ContainsFunc(lit, isASCIILetter) {
			out = append(out, rot13(lit))
		}
	}
	return out
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// rot13 rotates the ASCII letters of s by 13 places.
func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// minCharCodes is how many character codes in a row are read as text.
const minCharCodes = 4

// charCodeTexts returns the text of each run of at least minCharCodes
// printable ASCII character codes that code spells as numbers ([114, 109,
// 32, …] given to chr or String.fromCharCode, chr(114)+chr(109)+…), when
// it names such a decoder.
func charCodeTexts(code string) []string {
	low := strings.ToLower(code)
	if !strings.Contains(low, "chr") && !strings.Contains(low, "fromcharcode") {
		return nil
	}
	var out []string
	var run []byte
	flush := func() {
		if len(run) >= minCharCodes {
			out = append(out, string(run))
		}
		run = run[:0]
	}
	for i := 0; i < len(code); {
		c := code[i]
		if c < '0' || c > '9' {
			if !strings.ContainsRune(" \t\n,+.()[]chrCHR", rune(c)) {
				flush() // anything but separators and chr( … ) ends a run
			}
			i++
			continue
		}
		j := i
		for j < len(code) && code[j] >= '0' && code[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(code[i:j])
		if err != nil || n < 32 && n != '\t' && n != '\n' || n > 126 || i > 0 && isWordByte(code[i-1]) && !strings.HasSuffix(low[:i], "chr(") {
			flush()
		} else {
			run = append(run, byte(n))
		}
		i = j
	}
	flush()
	return out
}

// isWordByte reports a letter, a digit or an underscore.
func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
