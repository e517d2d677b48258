package main

import (
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestSpreadOf(t *testing.T) {
	tests := []struct {
		in   []float64
		want spread
	}{
		{[]float64{5}, spread{5, 5, 5}},
		{[]float64{3, 1, 2}, spread{2, 1, 3}},
		{[]float64{4, 1, 3, 2}, spread{2.5, 1, 4}},
	}
	for _, tt := range tests {
		in := slices.Clone(tt.in)
		if got := spreadOf(tt.in); got != tt.want {
			t.Errorf("spreadOf(%v) = %+v, want %+v", tt.in, got, tt.want)
		}
		if !slices.Equal(in, tt.in) {
			t.Errorf("spreadOf changed its input to %v", tt.in)
		}
	}
}

func TestParseConns(t *testing.T) {
	got, err := parseConns("1, 8,32")
	if err != nil || !slices.Equal(got, []int{1, 8, 32}) {
		t.Fatalf("parseConns = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "8,x", "2000"} {
		if _, err := parseConns(bad); err == nil {
			t.Errorf("parseConns(%q) accepted", bad)
		}
	}
}

func TestParseBuilds(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "tg")
	if err := os.WriteFile(bin, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	got := parseBuilds([]string{"old=" + bin, bin, "main", "new=HEAD~2 --config=x.toml"})
	want := []buildArg{
		{label: "old", binary: bin},
		{label: filepath.Base(dir) + "/tg", binary: bin},
		{label: "main", commit: "main"},
		{label: "new", commit: "HEAD~2", args: []string{"--config=x.toml"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parseBuilds = %+v\nwant %+v", got, want)
	}
}

func TestParseFlags(t *testing.T) {
	c, err := parseFlags([]string{"-rounds", "2", "-c", "8", "main"}, io.Discard)
	if err != nil || c.rounds != 2 || !slices.Equal(c.conns, []int{8}) || len(c.builds) != 1 {
		t.Fatalf("parseFlags = %+v, %v", c, err)
	}
	for _, args := range [][]string{{}, {"-rounds", "0", "main"}, {"-n", "0", "main"}, {"-rounds", "51", "main"}} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
}

func TestWriteTable(t *testing.T) {
	bins := []build{{label: "old"}, {label: "main", commit: "0123456789abcdef"}}
	res := results{
		{{{Requests: 100, Records: 100, CPUUS: 60, PerSecond: 1000, P99MS: 1}, {Requests: 100, Records: 100, CPUUS: 80, PerSecond: 900, P99MS: 2}}},
		{{{Requests: 100, Records: 0, CPUUS: 140, PerSecond: 500, P99MS: 3}, {Requests: 100, Records: 0, CPUUS: 140, PerSecond: 500, P99MS: 3}}},
	}
	var b strings.Builder
	if err := writeTable(&b, []int{8}, bins, res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| old | 8 | 70.0 (60.0–80.0) | 950 (900–1000) | 1.50 (1.00–2.00) | 1.00 |",
		"| main (012345678) | 8 | 140.0 (140.0–140.0) | 500 (500–500) | 3.00 (3.00–3.00) | 0.00 (not every decision recorded: not comparable) |",
		"| main (012345678) | 2.00× |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}
