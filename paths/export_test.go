package paths

import "fmt"

// IsBuiltin is isBuiltin, for the external test that generates it.
var IsBuiltin = isBuiltin

// CompilePattern compiles one pattern, for the external tests.
func CompilePattern(src string, homes []string) error {
	_, err := appendPattern(nil, src, homes)
	return err
}

// ScanKeyLiteral is scanKeyOf(src) as Go source, for the external test
// that generates builtinScanKeys.
func ScanKeyLiteral(src string) string {
	k := scanKeyOf(src)
	return fmt.Sprintf("{%s, %q, %q}", scanKindNames[k.kind], k.a, k.b)
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
