//go:build !unix

package policy

// openFlags are the extra flags a file a command runs is opened with: none
// on systems without O_NOFOLLOW and O_NONBLOCK.
const openFlags = 0
