package policy

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestAuditSettings checks that [audit] rotation settings are read, and
// that bad ones (and a negative [state] timeout) are reported with their
// file, line and field, all at once.
func TestAuditSettings(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	if err := os.WriteFile(good, []byte("[audit]\nmax_size_mb = 64\nrotate_every = \"6h\"\nkeep = 40\nmax_age = \"168h\"\ncompress = \"none\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := Load(LoadOptions{ConfigFile: good})
	if err != nil {
		t.Fatal(err)
	}
	want := Audit{MaxSizeMB: 64, RotateEvery: 6 * time.Hour, Keep: 40, MaxAge: 7 * 24 * time.Hour, Compress: "none"}
	if diff := cmp.Diff(want, l.Config.Audit); diff != "" {
		t.Errorf("[audit] (-want +got):\n%s", diff)
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("[audit]\nmax_size_mb = -1\nrotate_every = \"-1h\"\nkeep = -2\nmax_age = \"-72h\"\ncompress = \"zstd\"\n[state]\ntimeout = \"-1s\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Load(LoadOptions{ConfigFile: bad})
	wantErr := bad + ":2:15: audit.max_size_mb: must not be negative\n" +
		bad + ":3:16: audit.rotate_every: must not be negative\n" +
		bad + ":4:8: audit.keep: must not be negative\n" +
		bad + ":5:11: audit.max_age: must not be negative\n" +
		bad + `:6:12: audit.compress: invalid value "zstd" (valid: gzip, none)` + "\n" +
		bad + ":8:11: state.timeout: must not be negative"
	if err == nil || err.Error() != wantErr {
		t.Errorf("Load(bad [audit]) = %v\nwant %s", err, wantErr)
	}
}
