package main

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestFlagsRefuseUnboundedOrRemoteRuns(t *testing.T) {
	tests := map[string]string{
		"-url=http://10.0.0.1:7878":     `-url "http://10.0.0.1:7878": only loopback servers (127.0.0.1, [::1], localhost) may be loaded`,
		"-url=http://example.com:7878":  `-url "http://example.com:7878": only loopback servers (127.0.0.1, [::1], localhost) may be loaded`,
		"-url=https://127.0.0.1:7878":   `-url "https://127.0.0.1:7878": want http://127.0.0.1:PORT`,
		"-n=0":                          "-n 0: want 1 to 5000000",
		"-n=99999999":                   "-n 99999999: want 1 to 5000000",
		"-duration=1h":                  "-duration 1h0m0s: want more than 0 and at most 5m0s",
		"-c=5000":                       "-c 5000: want 1 to 1024",
		"-hostile=5000":                 "-hostile 5000: want 0 to 1024",
		"-subscribers=-1":               "-subscribers -1: want 0 to 1024",
		"-url=http://127.0.0.1:7878/x/": "",
		"-url=http://[::1]:7878":        "",
		"-pid=42":                       "-pid 42: give the process id of the server -url names (without -url the server runs in this process)",
	}
	for arg, want := range tests {
		_, err := parseFlags([]string{arg})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("%s: got %q, want %q", arg, got, want)
		}
	}
}

func TestSmallRun(t *testing.T) {
	cfg, err := parseFlags([]string{"-n=120", "-c=3", "-procs=0", "-json"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(cfg, &out); err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	got := []any{r.Requests, r.Errors, r.Clients, r.InProcess, r.P50MS <= r.P99MS, r.P99MS <= r.MaxMS}
	if diff := cmp.Diff([]any{int64(120), int64(0), 3, true, true, true}, got); diff != "" {
		t.Errorf("report (-want +got):\n%s\n%s", diff, out.String())
	}
}

func TestHostileRun(t *testing.T) {
	cfg, err := parseFlags([]string{"-n=200", "-c=2", "-hostile=2", "-subscribers=3", "-procs=0", "-json"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(cfg, &out); err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Requests != 200 || r.Errors != 0 || r.Hostile != 2 || r.HostileRequests == 0 || r.HostileP99MS > r.HostileMaxMS {
		t.Errorf("report %s", out.String())
	}
}

func TestStatCPU(t *testing.T) {
	tests := []struct {
		line string
		want time.Duration
		err  bool
	}{
		{"1234 (toolguard) S 1 1234 1234 0 -1 4194560 9000 0 0 0 250 130 0 0 20 0 9 0 100 0 0", 3800 * time.Millisecond, false},
		{"77 (a) b (c)) R 1 77 77 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 5 0 0", 100 * time.Millisecond, false},
		{"no parenthesis here", 0, true},
		{"1 (x) S 1 2", 0, true},
		{"1 (x) S 1 1 1 0 -1 0 0 0 0 0 u 3 0 0", 0, true},
	}
	for _, tt := range tests {
		got, err := statCPU(tt.line)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("statCPU(%q) = %v, %v; want %v, error %v", tt.line, got, err, tt.want, tt.err)
		}
	}
}
