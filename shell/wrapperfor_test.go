package shell

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSimpleWrapperNames: the sorted name list isSimpleWrapper searches is
// the table's names, and each of them is peeled by wrapSimple (no case of
// wrapperFor's switch takes one first).
func TestSimpleWrapperNames(t *testing.T) {
	want := slices.Sorted(maps.Keys(simpleWrappers()))
	if diff := cmp.Diff(want, simpleWrapperNames); diff != "" {
		t.Errorf("simpleWrapperNames (-table +list):\n%s", diff)
	}
	simple := reflect.ValueOf(wrapSimple).Pointer()
	for _, name := range want {
		if h := wrapperFor(name); h == nil || reflect.ValueOf(h).Pointer() != simple {
			t.Errorf("wrapperFor(%q) is not wrapSimple", name)
		}
	}
}

// TestWrapperFor names a handler for each wrapper and none for other
// programs.
func TestWrapperFor(t *testing.T) {
	tests := []struct {
		name string
		want wrapper
	}{
		{"sudo", wrapSudo}, {"env", wrapEnv}, {"unbuffer", wrapNohup}, {"nohup", wrapNohup}, {"shx", wrapBusybox},
		{"x86_64", wrapSetarch}, {"setarch", wrapSetarch}, {"toolguard", wrapToolguard}, {"strace", wrapSimple},
		{"xvfb-run", wrapSimple}, {"rm", nil}, {"git", nil}, {"", nil}, {"Sudo", nil}, {"zzz", nil},
	}
	for _, tt := range tests {
		got := wrapperFor(tt.name)
		if (got == nil) != (tt.want == nil) ||
			got != nil && reflect.ValueOf(got).Pointer() != reflect.ValueOf(tt.want).Pointer() {
			t.Errorf("wrapperFor(%q): wrong handler", tt.name)
		}
	}
}
