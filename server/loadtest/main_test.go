package main

import (
	"bytes"
	"encoding/json"
	"testing"

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
