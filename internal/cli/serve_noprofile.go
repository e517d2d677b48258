//go:build !servecpuprofile

package cli

// profileServe does nothing: only builds with the tag servecpuprofile can
// profile serve (see serve_profile.go).
func profileServe() func() { return func() {} }
