package policy

import "testing"

// TestChmodMode: the modes that give every class rwx read as 777; any
// other mode is left as written.
func TestChmodMode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"777", "777"},
		{"0777", "777"},
		{"00777", "777"},
		{"a+rwx", "777"},
		{"a=rwx", "777"},
		{"ugo+rwx", "777"},
		{"ugo=xwr", "777"},
		{"u=rwx,g=rwx,o=rwx", "777"},
		{"ug+rwx,o+rwx", "777"},
		{"000777", "777"}, // leading zeros change nothing
		{"1777", "1777"},
		{"7777", "7777"},
		{"755", "755"},
		{"ug+rwx", "ug+rwx"},
		{"a+rw", "a+rw"},
		{"+rwx", "+rwx"},
		{"a-rwx", "a-rwx"},
		{"a+rwxs", "a+rwxs"},
		{"-R", "-R"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := chmodMode(tc.in); got != tc.want {
			t.Errorf("chmodMode(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
