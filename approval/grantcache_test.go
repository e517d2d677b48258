package approval

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// tick is longer than any file system's timestamp granularity on Linux
// (a kernel tick): a change made after it has a new ctime. The tests wait
// for it before changing a file, as settleAfter makes a real store wait.
const tick = 25 * time.Millisecond

// slowAlways is Always without the cache: the file read and parsed.
func slowAlways(file string) ([]Grant, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return parseGrants(file, data)
}

// settledStore is a store whose clock lies an hour ahead, so that every
// file it reads has settled and is kept.
func settledStore(t testing.TB, file string) *GrantStore {
	t.Helper()
	s := NewGrantStore(t.TempDir(), file)
	s.now = func() time.Time { return time.Now().Add(time.Hour) }
	return s
}

// agrees checks that s.Always answers as the slow path does.
func agrees(t testing.TB, s *GrantStore, file, step string) {
	t.Helper()
	got, gotErr := s.Always(context.Background())
	want, wantErr := slowAlways(file)
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("%s: error %v, slow path %v", step, gotErr, wantErr)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: grants differ from the slow path (-want +got):\n%s", step, diff)
	}
}

const (
	oneGrant  = "[[grants]]\ntool = \"Bash\"\ncommand_prefix = \"make test\"\n"
	sameSize  = "[[grants]]\ntool = \"Bash\"\ncommand_prefix = \"make lint\"\n"
	twoGrants = oneGrant + "[[grants]]\ntool = \"Read\"\npaths = [\"/etc/hosts\"]\n"
	badTOML   = "[[grants]\ntool = \"Bash\"\n"
)

// TestAlwaysCacheFollowsChanges: after every change a person or another
// process makes to the policy file (rewritten in place with the same
// size, replaced by rename, removed, made invalid, made again), Always
// answers exactly as reading and parsing the file does.
func TestAlwaysCacheFollowsChanges(t *testing.T) {
	if len(sameSize) != len(oneGrant) || sameSize == oneGrant {
		t.Fatal("sameSize must differ from oneGrant in text, not in size")
	}
	file := filepath.Join(t.TempDir(), "policy.toml")
	s := settledStore(t, file)
	write := func(text string) func() error {
		return func() error { return os.WriteFile(file, []byte(text), 0o600) }
	}
	replace := func(text string) func() error {
		return func() error {
			tmp := file + ".tmp"
			if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
				return err
			}
			return os.Rename(tmp, file)
		}
	}
	steps := []struct {
		name   string
		change func() error
		want   int // grants, or -1 for an error
	}{
		{"missing", func() error { return nil }, 0},
		{"created", write(oneGrant), 1},
		{"unchanged", func() error { return nil }, 1},
		{"rewritten in place, same size", write(sameSize), 1},
		{"replaced by rename", replace(twoGrants), 2},
		{"made invalid", write(badTOML), -1},
		{"made valid again", write(oneGrant), 1},
		{"removed", func() error { return os.Remove(file) }, 0},
		{"made again, same text", write(oneGrant), 1},
		{"permissions changed only", func() error { return os.Chmod(file, 0o400) }, 1},
	}
	for _, st := range steps {
		time.Sleep(tick)
		if err := st.change(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		agrees(t, s, file, st.name)
		got, err := s.Always(context.Background())
		if n := len(got); st.want >= 0 && (err != nil || n != st.want) || st.want < 0 && err == nil {
			t.Fatalf("%s: %d grants, error %v; want %d", st.name, n, err, st.want)
		}
	}
}

// TestAlwaysCacheKeeps: a settled file is parsed once and then answered
// from the cache (a parse that would now fail is not reached), and the
// grants handed out are copies a caller may change.
func TestAlwaysCacheKeeps(t *testing.T) {
	file := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(file, []byte(twoGrants), 0o600); err != nil {
		t.Fatal(err)
	}
	s := settledStore(t, file)
	first, err := s.Always(context.Background())
	if err != nil || len(first) != 2 {
		t.Fatalf("Always = %v, %v", first, err)
	}
	stamp, ok, _ := statStamp(file)
	if !ok {
		t.Fatal("cannot stat the policy file")
	}
	if _, hit := s.always.get(file, stamp); !hit {
		t.Fatal("a settled file's grants were not kept")
	}
	first[0].Tool = "changed by the caller"
	_ = append(first[:1], Grant{Tool: "appended by the caller"})
	again, err := s.Always(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := slowAlways(file)
	if diff := cmp.Diff(want, again); diff != "" {
		t.Fatalf("a caller's change reached the cache (-want +got):\n%s", diff)
	}
}

// TestAlwaysCacheRacy: a file changed less than settleAfter ago is not
// kept, so a change within the same clock tick cannot be missed; once it
// has settled it is.
func TestAlwaysCacheRacy(t *testing.T) {
	file := filepath.Join(t.TempDir(), "policy.toml")
	if err := os.WriteFile(file, []byte(oneGrant), 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	s := NewGrantStore(t.TempDir(), file)
	s.now = func() time.Time { return now }
	if _, err := s.Always(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.always.file != "" {
		t.Fatal("a file changed just now was kept")
	}
	s.now = func() time.Time { return now.Add(settleAfter + time.Second) }
	if _, err := s.Always(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.always.file != file {
		t.Fatal("a settled file was not kept")
	}
}

// FuzzAlwaysCache: whatever the file held when its grants were kept and
// whatever it is rewritten to in place, Always answers as the slow path.
func FuzzAlwaysCache(f *testing.F) {
	f.Add(oneGrant, sameSize)
	f.Add(twoGrants, badTOML)
	f.Add(badTOML, oneGrant)
	f.Add("", twoGrants)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, a, b string) {
		file := filepath.Join(dir, "policy.toml")
		s := settledStore(t, file)
		if err := os.WriteFile(file, []byte(a), 0o600); err != nil {
			t.Fatal(err)
		}
		agrees(t, s, file, "first text")
		time.Sleep(tick)
		if err := os.WriteFile(file, []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
		agrees(t, s, file, "second text")
		agrees(t, s, file, "second text, again")
	})
}

// BenchmarkAlways: the always grants of a settled policy file of ten
// grants, kept (a stat) against read and parsed every time.
func BenchmarkAlways(b *testing.B) {
	file := filepath.Join(b.TempDir(), "policy.toml")
	text := "[tools]\nBash = \"ask\"\n"
	for range 5 {
		text += oneGrant + "added = 2026-01-02T03:04:05Z\n" + "[[grants]]\ntool = \"Read\"\npaths = [\"/etc/hosts\", \"~/notes/**\"]\n"
	}
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("kept", func(b *testing.B) {
		s := settledStore(b, file)
		b.ReportAllocs()
		for b.Loop() {
			if g, err := s.Always(context.Background()); err != nil || len(g) != 10 {
				b.Fatal(len(g), err)
			}
		}
	})
	b.Run("parsed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if g, err := slowAlways(file); err != nil || len(g) != 10 {
				b.Fatal(len(g), err)
			}
		}
	})
}
