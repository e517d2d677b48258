package paths

// IsBuiltin is isBuiltin, for the external test that generates it.
var IsBuiltin = isBuiltin

// CompilePattern compiles one pattern, for the external tests.
func CompilePattern(src string, homes []string) error {
	_, err := appendPattern(nil, src, homes)
	return err
}
