package paths

import "fmt"

// IsBuiltin is isBuiltin, for the external test that generates it.
var IsBuiltin = isBuiltin

// CompilePattern compiles one pattern, for the external tests.
func CompilePattern(src string, homes []string) error {
	_, err := appendPattern(nil, src, homes)
	return err
}

// ScanKeyLiteral is scanKeyOf(src), packed, as Go source, for the external
// test that generates builtinScanKeys.
func ScanKeyLiteral(src string) string {
	k := scanKeyOf(src)
	p, ok := k.pack(src)
	if !ok {
		panic(fmt.Sprintf("paths: the scan key %+v of %q does not pack", k, src))
	}
	return fmt.Sprintf("{%s, %d, %d, %d, %d}", scanKindNames[k.kind], p[1], p[2], p[3], p[4])
}

var scanKindNames = [...]string{scanAny: "scanAny", scanRooted: "scanRooted", scanHome: "scanHome", scanHomeAny: "scanHomeAny", scanNeedles: "scanNeedles"}

// DefaultListsOf is defaultListsOf, for the external test that generates
// defaultLists; DefaultListNames names its lists' indexes.
var DefaultListsOf = defaultListsOf

var DefaultListNames = [numDefaultLists]string{
	listDenied: "listDenied", listNotSecret: "listNotSecret", listPublicFiles: "listPublicFiles",
	listSensitive: "listSensitive", listSensitiveWrite: "listSensitiveWrite", listProtected: "listProtected",
	listUnprotected: "listUnprotected", listEscapeHatches: "listEscapeHatches",
}
