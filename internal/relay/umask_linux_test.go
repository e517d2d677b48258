package relay

import "testing"

func TestHasUmask(t *testing.T) {
	const status = "Name:\ttoolguard-engine\nUmask:\t0022\nState:\tS (sleeping)\n"
	tests := []struct {
		name   string
		status string
		umask  int
		want   bool
	}{
		{"same", status, 0o022, true},
		{"other", status, 0o077, false},
		{"zero", "Name:\tx\nUmask:\t0000\n", 0, true},
		{"all", "Name:\tx\nUmask:\t0777\n", 0o777, true},
		{"last line without newline", "Name:\tx\nUmask:\t0002", 0o002, true},
		{"no umask line (Linux before 4.7)", "Name:\tx\nState:\tS\n", 0o022, false},
		{"not octal", "Name:\tx\nUmask:\t0099\n", 0o022, false},
		{"empty value", "Name:\tx\nUmask:\t\n", 0, false},
		{"a name that looks like the line", "Name:\tUmask:\t0022\nUmask:\t0077\n", 0o022, false},
		{"empty", "", 0, false},
	}
	for _, tc := range tests {
		if got := hasUmask(tc.status, tc.umask); got != tc.want {
			t.Errorf("%s: hasUmask(%q, %#o) = %v, want %v", tc.name, tc.status, tc.umask, got, tc.want)
		}
	}
}
