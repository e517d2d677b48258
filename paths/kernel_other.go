//go:build !linux

package paths

// kernelResolve has no fast path outside Linux; the caller walks the path.
func kernelResolve(string) (string, bool) { return "", false }
