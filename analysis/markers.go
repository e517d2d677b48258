package analysis

import (
	"strings"
	"sync"
)

// The checks of code (code, forkLoop, embeddedCommands, decoded) ask
// whether its lower-cased text contains any of a dozen lists of markers:
// asked one list at a time, that is some two hundred strings.Contains over
// the whole text, and a lower-cased copy of it for each check. markerScan
// finds every marker of every list in one pass over the text instead,
// lower-casing ASCII bytes as it reads them. The lists stay the source of
// truth: TestMarkerScan and FuzzMarkerScan compare the scan with
// containsAny and firstMarker over strings.ToLower of the text.

// markerList names one list of markers of codeMarkerLists.
type markerList uint8

// The lists the scan finds, indexes of codeMarkerLists.
const (
	mDelete markerList = iota
	mWrite
	mHome
	mDataDrop
	mNetwork
	mNetShell
	mSocket
	mEval
	mEnvDump
	mSpawn
	mDecode
	mRot13
	mFork
	mForkPair
	mLoop
	markerLists
)

// Lists that only the checks of code use.
var (
	// homeMarkers spell the home directory in code (namesHome).
	homeMarkers = []string{"homedir()", "expanduser(", "path.home()", "dir.home", "userhomedir",
		"environ['home']", `environ["home"]`, "environ.get('home'", `environ.get("home"`, `getenv("home")`,
		"getenv('home')", "env.home", `env.get("home")`, "env.get('home')", `env["home"]`, "env['home']", "$env{home}", "$env{'home'}",
		`expand_path("~`, "expand_path('~", "'~'", `"~"`, "'~/'", `"~/"`, "$home",
		`var("home")`, `var_os("home")`, "home_dir()", `get_env("home")`, "user_home", // Rust, Elixir
		"homedirectoryforcurrentuser", "nshomedirectory()", // Swift
		// the JVM's (System.getProperty("user.home"), Groovy's System.env.HOME) and .NET's
		"user.home", "system.env.home", `getenvironmentvariable("home")`, "specialfolder.userprofile"}
	// shellMarkers name a shell that code starts (with a connection: a
	// remote shell).
	// socketMarkers open a raw connection (node's net and tls, Go's net):
	// with a shell started, a remote shell. They are not inlineNetworkMarkers,
	// since a script that waits for a port is not fetching anything.
	socketMarkers = []string{"net.connect(", "net.createconnection(", "tls.connect(", "net.dial(", "net.dialtimeout("}
	shellMarkers  = []string{"/bin/sh", "/bin/bash", "/bin/zsh", `"sh"`, `'sh'`, `"bash"`, `'bash'`, "cmd.exe", `"sh", "-i"`}
	// forkMarkers, forkPairMarkers and loopMarkers are forkLoop's.
	forkMarkers     = []string{"fork"}
	forkPairMarkers = []string{"fork while", "fork until", "while fork"}
	loopMarkers     = []string{"while", "for(;;)", "for (;;)", "for(;;", "loop", "iter(int", "until", "goto", "for {", "for{", "repeat"}
)

// codeMarkerLists returns the lists, indexed by markerList.
func codeMarkerLists() [markerLists][]string {
	return [markerLists][]string{
		mDelete: inlineDeleteMarkers, mWrite: inlineWriteMarkers, mHome: homeMarkers, mDataDrop: inlineDataDropMarkers,
		mNetwork: inlineNetworkMarkers, mNetShell: shellMarkers, mSocket: socketMarkers, mEval: inlineEvalMarkers, mEnvDump: inlineEnvDumpMarkers,
		mSpawn: spawnMarkers, mDecode: decodeMarkers, mRot13: rot13Markers, mFork: forkMarkers,
		mForkPair: forkPairMarkers, mLoop: loopMarkers,
	}
}

// maxMarkers bounds the distinct markers of all lists (the bits of markerHits).
const maxMarkers = 320

// markerTable is the lists compiled for the scan.
type markerTable struct {
	pats  []string               // the distinct markers, all lower case
	lists [markerLists][]uint16  // each list's markers (indexes of pats), in list order
	first [256][]uint16          // the markers by their first byte
	pair  [256 * 256 / 64]uint64 // bit b0<<8|b1 is set when a marker of two or more bytes starts with b0 b1
	short [256]bool              // a marker of one byte is that byte
}

// markerHits are the markers a text contains, a bit for each of pats.
type markerHits struct {
	t     *markerTable
	found [maxMarkers / 64]uint64
}

var (
	markerTableOnce sync.Once
	markerTableV    *markerTable
)

// codeMarkers returns the table of codeMarkerLists, built on first use.
func codeMarkers() *markerTable {
	markerTableOnce.Do(func() { markerTableV = newMarkerTable(codeMarkerLists()) })
	return markerTableV
}

// newMarkerTable compiles lists; it panics on a marker that is not lower
// case or is empty, or on more than maxMarkers (a programming error the
// package's tests find).
func newMarkerTable(lists [markerLists][]string) *markerTable {
	t := &markerTable{}
	ids := map[string]uint16{}
	for l, list := range lists {
		for _, m := range list {
			if m == "" || strings.ToLower(m) != m {
				panic("analysis: marker " + m + " is empty or not lower case")
			}
			id, ok := ids[m]
			if !ok {
				id = uint16(len(t.pats))
				ids[m] = id
				t.pats = append(t.pats, m)
				t.first[m[0]] = append(t.first[m[0]], id)
				if len(m) == 1 {
					t.short[m[0]] = true
				} else {
					k := int(m[0])<<8 | int(m[1])
					t.pair[k/64] |= 1 << (k % 64)
				}
			}
			t.lists[l] = append(t.lists[l], id)
		}
	}
	if len(t.pats) > maxMarkers {
		panic("analysis: more markers than markerHits holds")
	}
	return t
}

// lowerASCII maps an ASCII capital to its small letter and every other
// byte to itself.
var lowerASCII = func() (m [256]byte) {
	for i := range m {
		m[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			m[i] = byte(i + 'a' - 'A')
		}
	}
	return m
}()

// scan finds every marker of t in code as strings.ToLower(code) spells it.
func (t *markerTable) scan(code string) markerHits {
	h := markerHits{t: t}
	text := code
	if !isASCII(code) {
		text = strings.ToLower(code) // a non-ASCII capital can lower to an ASCII letter (the Kelvin sign to k)
	}
	for i := 0; i < len(text); i++ {
		b0 := lowerASCII[text[i]]
		if !t.short[b0] {
			if i+1 == len(text) {
				break
			}
			k := int(b0)<<8 | int(lowerASCII[text[i+1]])
			if t.pair[k/64]&(1<<(k%64)) == 0 {
				continue
			}
		}
		for _, id := range t.first[b0] {
			if hasLowerPrefix(text[i:], t.pats[id]) {
				h.found[id/64] |= 1 << (id % 64)
			}
		}
	}
	return h
}

// hasLowerPrefix reports whether s, its ASCII capitals lowered, starts with
// the lower-case p.
func hasLowerPrefix(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if lowerASCII[s[i]] != p[i] {
			return false
		}
	}
	return true
}

// has reports whether the text contains a marker of list l.
func (h *markerHits) has(l markerList) bool {
	return h.first(l) != ""
}

// hasBut reports whether the text contains a marker of list l other than
// except.
func (h *markerHits) hasBut(l markerList, except string) bool {
	for _, id := range h.t.lists[l] {
		if h.found[id/64]&(1<<(id%64)) != 0 && h.t.pats[id] != except {
			return true
		}
	}
	return false
}

// first returns the first marker of list l (in list order) that the text
// contains, or "".
func (h *markerHits) first(l markerList) string {
	for _, id := range h.t.lists[l] {
		if h.found[id/64]&(1<<(id%64)) != 0 {
			return h.t.pats[id]
		}
	}
	return ""
}
