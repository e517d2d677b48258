package policy

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"testing/iotest"

	"github.com/toolguard/toolguard/analysis"
	"github.com/toolguard/toolguard/shell"
)

// readRestReference is what readText did before readRest: the rest read
// with io.ReadAll and appended to the head.
func readRestReference(r io.Reader, head []byte) ([]byte, error) {
	rest, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1-int64(len(head))))
	if err != nil {
		return nil, err
	}
	return append(head, rest...), nil
}

// readers are the ways a file may hand out its bytes: all at once, a byte
// at a time, half of what is asked, with the end reported with the last
// bytes, and failing after some.
var readers = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"plain", func(r io.Reader) io.Reader { return r }},
	{"one-byte", iotest.OneByteReader},
	{"half", iotest.HalfReader},
	{"data-err", iotest.DataErrReader},
	{"fails", func(r io.Reader) io.Reader {
		return io.MultiReader(io.LimitReader(r, 700), iotest.ErrReader(errors.New("disk gone")))
	}},
}

// checkReadRest compares readRest with its reference for a file of
// fileLen bytes whose size was seen as statSize (it may have grown or
// shrunk since), headLen of them already read, through each reader.
func checkReadRest(t *testing.T, fileLen, statSize, headLen int) {
	t.Helper()
	file := make([]byte, fileLen)
	for i := range file {
		file[i] = byte('a' + i%26)
	}
	headLen = min(headLen, fileLen)
	for _, rd := range readers {
		capacity := headLen
		if statSize <= MaxFileBytes {
			capacity = max(statSize+1, headLen)
		}
		fastHead := make([]byte, headLen, capacity)
		copy(fastHead, file)
		slowHead := bytes.Clone(file[:headLen])
		got, gotErr := readRest(rd.wrap(bytes.NewReader(file[headLen:])), fastHead)
		want, wantErr := readRestReference(rd.wrap(bytes.NewReader(file[headLen:])), slowHead)
		if (gotErr == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("file %d bytes, stat %d, head %d, %s reader: readRest %d bytes, %v; reference %d bytes, %v",
				fileLen, statSize, headLen, rd.name, len(got), gotErr, len(want), wantErr)
		}
	}
}

// TestReadRestMatchesReference: sizes around the sniff and the limit, and
// random ones, files that grew or shrank since their size was seen.
func TestReadRestMatchesReference(t *testing.T) {
	sizes := []int{0, 1, 2, 100, sniffBytes - 1, sniffBytes, sniffBytes + 1, 10 << 10, MaxFileBytes - 1, MaxFileBytes, MaxFileBytes + 1, MaxFileBytes + 5000}
	rng := rand.New(rand.NewPCG(24, 6))
	for range 40 {
		sizes = append(sizes, rng.IntN(MaxFileBytes+100))
	}
	for _, n := range sizes {
		for _, stat := range []int{n, n - 1, n + 1, n / 2, n + 3000, 0} {
			if stat < 0 {
				continue
			}
			head := min(stat+1, sniffBytes)
			checkReadRest(t, n, stat, head)
		}
	}
}

func FuzzReadRest(f *testing.F) {
	f.Add(uint32(10<<10), uint32(10<<10), uint16(sniffBytes))
	f.Add(uint32(0), uint32(0), uint16(1))
	f.Add(uint32(MaxFileBytes+1), uint32(100), uint16(101))
	f.Fuzz(func(t *testing.T, fileLen, statSize uint32, headLen uint16) {
		checkReadRest(t, int(fileLen%(MaxFileBytes+9000)), int(statSize%(MaxFileBytes+9000)), int(headLen))
	})
}

// TestReadTextSniffsBeforeReading: a file within the size limit that is not
// text (a program) is refused after its head is sniffed, without a buffer
// of its whole size; a text file of the same size is read whole.
func TestReadTextSniffsBeforeReading(t *testing.T) {
	dir := t.TempDir()
	size := MaxFileBytes - 1000
	program := bytes.Repeat([]byte{0x7f, 'E', 'L', 'F', 0, 1, 2, 3}, size/8)
	text := bytes.Repeat([]byte("echo built\n"), size/11)
	for name, b := range map[string][]byte{"program": program, "text": text} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	allocated := func(name string) (uint64, error) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := readText(filepath.Join(dir, name), shell.NewBudget(1<<30))
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	}
	n, err := allocated("program")
	if !errors.Is(err, analysis.ErrNotText) {
		t.Fatalf("program: %v, want ErrNotText", err)
	}
	if n > 4*sniffBytes {
		t.Errorf("program of %d bytes refused after allocating %d bytes, want at most %d", size, n, 4*sniffBytes)
	}
	if n, err := allocated("text"); err != nil || n < uint64(len(text)) {
		t.Errorf("text: %v after allocating %d bytes, want it read whole (%d)", err, n, len(text))
	}
}
