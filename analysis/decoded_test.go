package analysis_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/toolguard/toolguard/analysis"
)

func ExampleDecodedLiterals() {
	code := `import base64; exec(base64.b64decode('cHJpbnQoImhpIik='))`
	fmt.Printf("%q\n", analysis.DecodedLiterals(code))
	// Output:
	// ["print(\"hi\")"]
}

// TestDecodedLiterals: the literals code decodes, as its decoders would.
func TestDecodedLiterals(t *testing.T) {
	tests := []struct {
		name, code string
		want       []string
	}{
		{"python base64", `exec(base64.b64decode('cm0gLXJmIH4v'))`, []string{"rm -rf ~/"}},
		{"python fromhex", `exec(bytes.fromhex('7072696e7428322b3229').decode())`, []string{"print(2+2)"}},
		{"node buffer", `eval(Buffer.from('Y29uc29sZS5sb2coMSk=','base64').toString())`, []string{"console.log(1)"}},
		{"perl pack", `eval pack("H*","7072696e742031")`, []string{"print 1"}},
		{"rot13", `exec(codecs.decode('cevag(1)','rot13'))`, []string{"print(1)", "ebg13"}},
		{"python chr map", `os.system(''.join(map(chr, [114,109,32,45,114,102,32,126])))`, []string{"rm -rf ~"}},
		{"python chr calls", `os.system(chr(114)+chr(109)+chr(32)+chr(126))`, []string{"rm ~"}},
		{"node fromCharCode", `execSync(String.fromCharCode(108, 115, 32, 47))`, []string{"ls /"}},
		{"chr of too few codes", `print(chr(65)+chr(66))`, nil},
		{"numbers beside chr that are not codes", `print(chr(65), [1, 2, 3, 400, 5000])`, nil},
		{"no decoder", `print('cm0gLXJmIH4v')`, nil},
		{"not encoded", `print(base64.b64encode(b'hello world'))`, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, analysis.DecodedLiterals(tt.code)); diff != "" {
			t.Errorf("%s: %s (-want +got):\n%s", tt.name, tt.code, diff)
		}
	}
}

// TestDecodedPayloadJudged: a decoded payload is judged as the code it is,
// in every layer up to the limit; beyond it the call is unverifiable.
func TestDecodedPayloadJudged(t *testing.T) {
	layered := "cm0gLXJmIH4v" // rm -rf ~/
	for range 5 {
		layered = b64(`exec(base64.b64decode('` + layered + `'))`)
	}
	tests := []struct {
		name, command string
		want          string // a finding the analysis must report
	}{
		{"python base64 payload deletes home", `python3 -c "import base64;exec(base64.b64decode('aW1wb3J0IHNodXRpbCxvcztzaHV0aWwucm10cmVlKG9zLnBhdGguZXhwYW5kdXNlcigifiIpKQ=='))"`, "path file delete " + home + " removes"},
		{"base64 payload given to os.system", `python3 -c "import os,base64; os.system(base64.b64decode('cm0gLXJmIH4v').decode())"`, "path file delete " + home + "/ removes"},
		{"chr codes given to os.system", `python3 -c "import os; os.system(''.join(map(chr,[114,109,32,45,114,102,32,126,47])))"`, "path file delete " + home + "/ removes"},
		{"too many layers", `python3 -c "import base64;exec(base64.b64decode('` + layered + `'))"`, "effects.decoded-unverifiable"},
	}
	for _, tt := range tests {
		rec, found, _ := analyse(t, tt.command, 0, nil)
		got := append(rulesOf(found), rec.lines...)
		if !slices.Contains(got, tt.want) {
			t.Errorf("%s: %q reports %q, want %s", tt.name, tt.command, got, tt.want)
		}
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// FuzzDecodedLiterals: whatever the code, no panic, and every payload is
// valid UTF-8.
func FuzzDecodedLiterals(f *testing.F) {
	f.Add(`exec(base64.b64decode('cm0gLXJmIH4v'))`)
	f.Add(`exec(codecs.decode('cevag(1)','rot13'))`)
	f.Add(`eval pack("H*","7072696e742031")`)
	f.Add(`Buffer.from("'` + "`" + `x","base64")`)
	f.Fuzz(func(t *testing.T, code string) {
		for _, p := range analysis.DecodedLiterals(code) {
			if utf8.ValidString(code) && !utf8.ValidString(p) {
				t.Fatalf("%q decoded to invalid UTF-8 %q", code, p)
			}
		}
	})
}
